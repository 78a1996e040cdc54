/**
 * How the CLI behaves when the service pushes back, against a scripted stand-in for the API: it honours
 * Retry-After on 429, retries a 500 with the same Idempotency-Key, and slows down when RateLimit-Remaining
 * reaches zero. (The real service cannot be made to answer 429 or 500 on cue; these are its documented answers.)
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { FIXTURES, REPO } from "./harness.mjs";

const CLI = path.join(REPO, "cli", "yakusu.mjs");
const ONE_PIXEL_PNG =
	"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

/** A fresh folder under the test's work dir, for one batch. */
async function folder(dir) {
	await mkdir(dir, { recursive: true });
	return dir;
}

/** A stand-in API that answers each POST with the next scripted answer and records when and how it was asked. */
function scriptedApi(answers) {
	const calls = [];
	const server = createServer((req, res) => {
		if (req.url === "/openapi.json") {
			res.writeHead(404).end();
			return;
		}
		req.resume();
		req.on("end", () => {
			calls.push({ at: Date.now(), key: req.headers["idempotency-key"] });
			const { status, headers = {}, body } = answers[Math.min(calls.length - 1, answers.length - 1)];
			res.writeHead(status, { "Content-Type": "application/json", ...headers }).end(JSON.stringify(body));
		});
	});
	return new Promise((resolve) =>
		server.listen(0, "127.0.0.1", () =>
			resolve({ url: `http://127.0.0.1:${server.address().port}`, calls, close: () => server.close() }),
		),
	);
}

const ok = (remaining, credit = 990) => ({
	status: 200,
	headers: { "RateLimit-Limit": "60", "RateLimit-Remaining": String(remaining), "RateLimit-Reset": "1" },
	body: { success: true, recordId: "rec_1", resultImage: ONE_PIXEL_PNG, remainingCredit: credit },
});

function yakusu(args, baseUrl) {
	return new Promise((resolve) => {
		execFile(
			process.execPath,
			[CLI, ...args],
			{ env: { ...process.env, YAKUSU_API_KEY: "sk_yakusu_test", YAKUSU_BASE_URL: baseUrl }, timeout: 60_000 },
			(error, stdout, stderr) => resolve({ code: error ? (error.code ?? 1) : 0, stdout, stderr }),
		);
	});
}

describe("yakusu retries and pacing", { timeout: 120_000 }, () => {
	let work;
	before(async () => {
		work = await mkdtemp(path.join(tmpdir(), "yakusu-retry-"));
	});
	after(async () => {
		await rm(work, { recursive: true, force: true });
	});

	it("waits Retry-After on 429, retries a 500, and sends the same Idempotency-Key every time", async () => {
		const api = await scriptedApi([
			{
				status: 429,
				headers: { "Retry-After": "1" },
				body: { detail: "Rate limit of 60 requests per minute exceeded" },
			},
			{ status: 500, body: { detail: "Translation failed" } },
			ok(50),
		]);
		try {
			const dir = path.join(work, "a");
			await copyFile(path.join(FIXTURES, "hello-ja.png"), path.join(await folder(dir), "p.png"));
			const run = await yakusu(["translate", dir, "--to", "en"], api.url);
			assert.equal(run.code, 0, run.stderr);
			assert.match(run.stdout, /1 translated/);
			assert.equal(api.calls.length, 3);
			assert.equal(new Set(api.calls.map((c) => c.key)).size, 1, "one Idempotency-Key across retries");
			assert.match(api.calls[0].key, /^cli-[A-Za-z0-9_-]{43}$/);
			assert.ok(api.calls[1].at - api.calls[0].at >= 950, "the second attempt waited for Retry-After");
			assert.match(run.stderr, /rate limited, waiting 1 s/);
			assert.match(run.stderr, /500, retry 1\/4/);
		} finally {
			api.close();
		}
	});

	it("gives up after --retries and reports the service's reason", async () => {
		const api = await scriptedApi([{ status: 500, body: { detail: "Translation failed: reader timed out" } }]);
		try {
			const dir = path.join(work, "b");
			await copyFile(path.join(FIXTURES, "hello-ja.png"), path.join(await folder(dir), "p.png"));
			const run = await yakusu(["translate", dir, "--to", "en", "--retries", "1"], api.url);
			assert.equal(run.code, 1);
			assert.equal(api.calls.length, 2);
			assert.match(run.stderr, /500 Translation failed: reader timed out/);
			assert.match(run.stdout, /0 translated, 0 skipped, 1 failed/);
		} finally {
			api.close();
		}
	});

	it("sends identical images once and writes the result for each of them", async () => {
		const api = await scriptedApi([ok(50)]);
		try {
			const dir = path.join(work, "d");
			const pages = await folder(dir);
			for (const name of ["blank-1.png", "blank-2.png"])
				await copyFile(path.join(FIXTURES, "page-2.png"), path.join(pages, name));
			await copyFile(path.join(FIXTURES, "hello-ja.png"), path.join(pages, "other.png"));
			const run = await yakusu(["translate", dir, "--to", "en"], api.url);
			assert.equal(run.code, 0, run.stderr);
			assert.equal(api.calls.length, 2, "one call per distinct image");
			assert.match(run.stdout, /3 translated, 0 skipped, 0 failed/);
			assert.match(run.stderr, /blank-2\.png .*same image as .*blank-1\.png, not charged again/);
		} finally {
			api.close();
		}
	});

	it("holds further requests when RateLimit-Remaining reaches zero, until RateLimit-Reset", async () => {
		const api = await scriptedApi([ok(0), ok(10), ok(10)]);
		try {
			const dir = path.join(work, "c");
			const pages = await folder(dir);
			// Distinct contents: identical files would be sent once.
			for (const name of ["1.png", "2.png", "3.png"]) await writeFile(path.join(pages, name), `page ${name}`);
			const run = await yakusu(["translate", dir, "--to", "en", "--concurrency", "1"], api.url);
			assert.equal(run.code, 0, run.stderr);
			assert.equal(api.calls.length, 3);
			assert.ok(api.calls[1].at - api.calls[0].at >= 900, "the second request waited for the window to reset");
		} finally {
			api.close();
		}
	});
});
