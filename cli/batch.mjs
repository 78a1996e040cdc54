/**
 * Translates a list of files with a few requests in flight, writes each result, and counts what
 * happened. A key, plan or credit problem (401, 403, 402), or a refused option, would fail every
 * remaining file the same way, so it stops the batch instead.
 */
import { randomUUID } from "node:crypto";
import { access, mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { describeAnswer, replayInProgress } from "./api.mjs";
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

/** The service's limit on a decoded image (spec "Limits"): larger files are refused here, never sent. */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

/** The service finished this key's call but cannot send its image again (409, "Already done"). */
const finishedElsewhere = (answer) => answer.status === 409 && !replayInProgress(answer);

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

/**
 * Jobs with the same bytes and options share one Idempotency-Key: a second request would answer 409 and
 * write nothing. They are sent once, and the result is written to each of their outputs.
 */
async function groupByKey(jobs, options, salt) {
	const groups = new Map();
	for (const job of jobs) {
		const key = idempotencyKey(await readFile(job.file), options, salt);
		const group = groups.get(key) ?? { key, jobs: [] };
		group.jobs.push(job);
		groups.set(key, group);
	}
	return [...groups.values()];
}

/**
 * @param signal  aborts the batch (Ctrl-C): requests in flight are cancelled, so the service refunds
 *   them and frees their keys; nothing new starts; the summary so far is returned
 */
export async function runBatch({ jobs, options, client, concurrency, retries, overwrite, again, progress, signal }) {
	const summary = {
		translated: 0,
		skipped: 0,
		failed: 0,
		interrupted: 0,
		notStarted: 0,
		creditsLeft: undefined,
		stoppedBy: undefined,
	};
	const pacer = new RatePacer();
	// --again: a fresh salt per run, so every file gets a key the service has not seen.
	const salt = again ? randomUUID() : "";
	const queue = await groupByKey(jobs, options, salt);

	const translateGroup = async ({ key, jobs: group }) => {
		const pending = [];
		for (const job of group) {
			if (!overwrite && (await exists(job.output))) {
				summary.skipped += 1;
				progress.finish(job.file, "skipped", `${job.output} exists`);
			} else pending.push(job);
		}
		if (pending.length === 0) return;
		const [first] = pending;
		const { size } = await stat(first.file);
		if (size > MAX_IMAGE_BYTES) {
			for (const job of pending) {
				summary.failed += 1;
				const megabytes = (size / 1024 / 1024).toFixed(1);
				progress.finish(job.file, "failed", `${megabytes} MB is over the service's 20 MB limit; not sent`);
			}
			return;
		}
		const started = Date.now();
		progress.update(first.file, "translating");
		const answer = await sendWithRetries({
			send: () => client.translate(first.file, options, key, signal),
			pacer,
			retries,
			onWait: (message) => progress.update(first.file, message),
			signal,
		});
		if (answer.interrupted) {
			for (const job of pending) {
				summary.interrupted += 1;
				progress.finish(job.file, "interrupted", "interrupted before its result arrived; not charged");
			}
			return;
		}
		if (answer.status === 200) {
			summary.creditsLeft = answer.body.remainingCredit;
			const seconds = ((Date.now() - started) / 1000).toFixed(1);
			for (const job of pending) {
				await writeResult(job.output, answer.body.resultImage);
				summary.translated += 1;
				const note = job === first ? `${seconds} s` : `same image as ${first.file}, not charged again`;
				progress.finish(job.file, "translated", `→ ${job.output} (${note})`);
			}
			return;
		}
		for (const job of pending) {
			// --overwrite on a page the service already did: the output here is that result, so keep it.
			if (overwrite && finishedElsewhere(answer) && (await exists(job.output))) {
				summary.skipped += 1;
				progress.finish(
					job.file,
					"skipped",
					`already translated (record ${answer.body.recordId}); ${job.output} kept: use --again to pay for a new translation`,
				);
				continue;
			}
			summary.failed += 1;
			progress.finish(job.file, "failed", describeAnswer(answer));
		}
		if (stopsTheBatch(answer)) {
			summary.stoppedBy ??= describeAnswer(answer);
			summary.notStarted += queue.reduce((count, next) => count + next.jobs.length, 0);
			queue.length = 0;
		}
	};

	const worker = async () => {
		for (let group = queue.shift(); group; group = signal?.aborted ? undefined : queue.shift()) {
			try {
				await translateGroup(group);
			} catch (error) {
				for (const job of group.jobs) {
					summary.failed += 1;
					progress.finish(job.file, "failed", error.message);
				}
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, worker));
	if (signal?.aborted) {
		summary.notStarted += queue.reduce((count, next) => count + next.jobs.length, 0);
		queue.length = 0;
	}
	progress.end();
	return summary;
}

export function formatSummary(summary) {
	const parts = [`${summary.translated} translated`, `${summary.skipped} skipped`, `${summary.failed} failed`];
	if (summary.interrupted) parts.push(`${summary.interrupted} interrupted`);
	if (summary.notStarted) parts.push(`${summary.notStarted} not started`);
	const credits = summary.creditsLeft === undefined ? "" : `; ${summary.creditsLeft} credits left`;
	const stopped = summary.stoppedBy ? `\nStopped early: ${summary.stoppedBy}` : "";
	return `${parts.join(", ")}${credits}${stopped}`;
}
