/**
 * Translates a list of files with a few requests in flight, writes each result, and counts what
 * happened. A key, plan or credit problem (401, 403, 402), or a refused option, would fail every
 * remaining file the same way, so it stops the batch instead.
 */
import { randomUUID } from "node:crypto";
import { access, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { describeAnswer } from "./api.mjs";
import { idempotencyKey } from "./idempotency.mjs";
import { RatePacer } from "./pacer.mjs";
import { sendWithRetries } from "./retry.mjs";

const STOPS_THE_BATCH = new Set([401, 402, 403]);

/** A refused option (say --to xx) is refused for every file alike; a refused image is that image's problem. */
function stopsTheBatch({ status, body }) {
	if (STOPS_THE_BATCH.has(status)) return true;
	return status === 422 && typeof body?.detail === "string" && !body.detail.endsWith("imageBase64");
}
const DATA_URL_PREFIX = /^data:image\/png;base64,/;

const exists = (file) =>
	access(file).then(
		() => true,
		() => false,
	);

/** Written under a temporary name and renamed, so an interrupted run never leaves a half file to be "skipped". */
async function writeResult(output, resultImage) {
	await mkdir(path.dirname(output), { recursive: true });
	const partial = `${output}.${process.pid}.part`;
	await writeFile(partial, Buffer.from(resultImage.replace(DATA_URL_PREFIX, ""), "base64"));
	await rename(partial, output);
}

export async function runBatch({ jobs, options, client, concurrency, retries, overwrite, again, progress }) {
	const summary = { translated: 0, skipped: 0, failed: 0, notStarted: 0, creditsLeft: undefined, stoppedBy: undefined };
	const pacer = new RatePacer();
	// --again: a fresh salt per run, so every file gets a key the service has not seen.
	const salt = again ? randomUUID() : "";
	const queue = [...jobs];

	const translateOne = async ({ file, output }) => {
		if (!overwrite && (await exists(output))) {
			summary.skipped += 1;
			progress.finish(file, "skipped", `${output} exists`);
			return;
		}
		const started = Date.now();
		progress.update(file, "translating");
		const bytes = await readFile(file);
		const body = { imageBase64: bytes.toString("base64"), ...options };
		const key = idempotencyKey(bytes, options, salt);
		const answer = await sendWithRetries({
			send: () => client.translate(body, key),
			pacer,
			retries,
			onWait: (message) => progress.update(file, message),
		});
		if (answer.status === 200) {
			await writeResult(output, answer.body.resultImage);
			summary.translated += 1;
			summary.creditsLeft = answer.body.remainingCredit;
			progress.finish(file, "translated", `→ ${output} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
			return;
		}
		summary.failed += 1;
		progress.finish(file, "failed", describeAnswer(answer));
		if (stopsTheBatch(answer)) {
			summary.stoppedBy ??= describeAnswer(answer);
			summary.notStarted += queue.length;
			queue.length = 0;
		}
	};

	const worker = async () => {
		for (let job = queue.shift(); job; job = queue.shift()) {
			try {
				await translateOne(job);
			} catch (error) {
				summary.failed += 1;
				progress.finish(job.file, "failed", error.message);
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, worker));
	progress.end();
	return summary;
}

export function formatSummary(summary) {
	const parts = [`${summary.translated} translated`, `${summary.skipped} skipped`, `${summary.failed} failed`];
	if (summary.notStarted) parts.push(`${summary.notStarted} not started`);
	const credits = summary.creditsLeft === undefined ? "" : `; ${summary.creditsLeft} credits left`;
	const stopped = summary.stoppedBy ? `\nStopped early: ${summary.stoppedBy}` : "";
	return `${parts.join(", ")}${credits}${stopped}`;
}
