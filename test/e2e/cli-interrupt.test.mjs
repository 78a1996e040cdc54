/**
 * The CLI when its batch is cut short or the service says a page is taken, against a stand-in for the
 * API that holds requests open and notices when a client goes away: Ctrl-C or SIGTERM cancels what is
 * in flight (the service refunds a call whose client left), prints the summary so far and exits 130
 * or 143; so does losing the process that started it, as happens under `npx`; a 409 says whether the
 * first call is in progress or done; files over 20 MB are never sent.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { FIXTURES, REPO } from "./harness.mjs";

const CLI = path.join(REPO, "cli", "yakusu.mjs");

/**
 * A stand-in API: `answer(req)` gives `{status, body}` (or `raw` text for the body), or null to hold the
 * request open until the client leaves.
 */
function standIn(answer) {
	const seen = { requests: 0, abandoned: 0 };
	const server = createServer((req, res) => {
		if (req.url === "/openapi.json") return res.writeHead(404).end();
		seen.requests += 1;
		res.on("close", () => {
			if (!res.writableEnded) seen.abandoned += 1;
		});
		req.resume();
		req.on("end", () => {
			const reply = answer(req);
			if (reply) {
				res.writeHead(reply.status, { "Content-Type": "application/json" });
				res.end(reply.raw ?? JSON.stringify(reply.body));
			}
		});
	});
	return new Promise((resolve) =>
		server.listen(0, "127.0.0.1", () =>
			resolve({ url: `http://127.0.0.1:${server.address().port}`, seen, close: () => server.close() }),
		),
	);
}

/** Starts the CLI (optionally under `sh -c`, as npx runs it); resolves when it exits. */
function start(args, baseUrl, { viaShell = false } = {}) {
	const env = { ...process.env, YAKUSU_API_KEY: "sk_yakusu_test", YAKUSU_BASE_URL: baseUrl };
	const command = viaShell
		? ["sh", ["-c", `"${process.execPath}" "${CLI}" "$@"`, "sh", ...args]]
		: [process.execPath, [CLI, ...args]];
	const child = spawn(command[0], command[1], { env, stdio: ["ignore", "pipe", "pipe"] });
	let stdout = "";
	let stderr = "";
	child.stdout.on("data", (d) => {
		stdout += d;
	});
	child.stderr.on("data", (d) => {
		stderr += d;
	});
	const exited = new Promise((resolve) => child.on("exit", (code) => resolve({ code, stdout, stderr })));
	return { child, exited, stderr: () => stderr };
}

async function until(ready, what) {
	const deadline = Date.now() + 20_000;
	while (!ready()) {
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

describe("yakusu interrupted, refused, or told a page is taken", { timeout: 120_000 }, () => {
	let work;
	let pages;
	before(async () => {
		work = await mkdtemp(path.join(tmpdir(), "yakusu-interrupt-"));
		pages = path.join(work, "pages");
		await mkdir(pages);
		// Four distinct files: identical ones would be sent once.
		for (const name of ["1.png", "2.png", "3.png", "4.png"]) await writeFile(path.join(pages, name), `page ${name}`);
	});
	after(async () => {
		await rm(work, { recursive: true, force: true });
	});

	for (const [signal, code] of [
		["SIGINT", 130],
		["SIGTERM", 143],
	]) {
		it(`on ${signal}: cancels the requests in flight, prints the summary so far, exits ${code}`, async () => {
			const api = await standIn(() => null);
			try {
				const run = start(["translate", pages, "--to", "en", "--concurrency", "2"], api.url);
				await until(() => api.seen.requests === 2, "two requests in flight");
				run.child.kill(signal);
				const result = await run.exited;
				assert.equal(result.code, code, result.stderr);
				assert.match(result.stdout, /0 translated, 0 skipped, 0 failed, 2 interrupted, 2 not started/);
				assert.match(result.stderr, /interrupted before its result arrived; not charged/);
				await until(() => api.seen.abandoned === 2, "the service to see both requests abandoned");
				assert.equal(api.seen.requests, 2, "nothing new was sent");
			} finally {
				api.close();
			}
		});
	}

	it("stops like on Ctrl-C when the shell that started it dies (npx forwards signals to its shell only)", async () => {
		const api = await standIn(() => null);
		try {
			const run = start(["translate", pages, "--to", "en", "--concurrency", "1"], api.url, { viaShell: true });
			await until(() => api.seen.requests === 1, "a request in flight");
			run.child.kill("SIGTERM"); // the shell, as npm's forwarding reaches it
			await until(() => api.seen.abandoned === 1, "the orphaned CLI to cancel its request");
		} finally {
			api.close();
		}
	});

	it("under npx, stops on a SIGINT sent to the npx process alone", async () => {
		const api = await standIn(() => null);
		try {
			const env = { ...process.env, YAKUSU_API_KEY: "sk_yakusu_test", YAKUSU_BASE_URL: api.url };
			const npx = spawn("npx", ["yakusu", "translate", pages, "--to", "en", "--concurrency", "1"], {
				cwd: REPO,
				env,
				stdio: ["ignore", "pipe", "pipe"],
			});
			let stdout = "";
			npx.stdout.on("data", (d) => {
				stdout += d;
			});
			const exited = new Promise((resolve) => npx.on("exit", (code) => resolve(code)));
			await until(() => api.seen.requests === 1, "a request in flight");
			npx.kill("SIGINT");
			await until(() => api.seen.abandoned === 1, "the CLI to cancel its request");
			assert.equal(await exited, 130);
			assert.match(stdout, /0 translated, 0 skipped, 0 failed, 1 interrupted, 3 not started/);
		} finally {
			api.close();
		}
	});

	it("retries a page still in progress elsewhere, then says so", async () => {
		const api = await standIn(() => ({
			status: 409,
			body: {
				error: "idempotency_replay",
				recordId: "rec_1",
				message: "Still in progress: the call with this Idempotency-Key has not finished; try again shortly.",
			},
		}));
		try {
			const dir = path.join(work, "busy");
			await mkdir(dir);
			await copyFile(path.join(FIXTURES, "hello-ja.png"), path.join(dir, "p.png"));
			const result = await start(["translate", dir, "--to", "en", "--retries", "1"], api.url).exited;
			assert.equal(result.code, 1);
			assert.equal(api.seen.requests, 2, "one retry");
			assert.match(result.stderr, /still in progress on the service \(record rec_1\); try again shortly/);
			assert.doesNotMatch(result.stderr, /--again/);
		} finally {
			api.close();
		}
	});

	it("with --overwrite, keeps an existing output the service already made instead of failing", async () => {
		const api = await standIn(() => ({
			status: 409,
			body: { error: "idempotency_replay", recordId: "rec_2", message: "Already done: the call finished." },
		}));
		try {
			const dir = path.join(work, "done");
			await mkdir(dir);
			await copyFile(path.join(FIXTURES, "hello-ja.png"), path.join(dir, "p.png"));
			await writeFile(path.join(dir, "p.en.png"), "the earlier result");
			const result = await start(["translate", dir, "--to", "en", "--overwrite"], api.url).exited;
			assert.equal(result.code, 0, result.stderr);
			assert.match(result.stdout, /0 translated, 1 skipped, 0 failed/);
			assert.match(result.stderr, /already translated \(record rec_2\).*kept: use --again/);
		} finally {
			api.close();
		}
	});

	it("retries a 200 whose image was cut off mid-stream, with the same key, and saves the whole one", async () => {
		const keys = [];
		const whole = {
			success: true,
			recordId: "rec_3",
			remainingCredit: 990,
			resultImage:
				"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
		};
		const api = await standIn((req) => {
			keys.push(req.headers["idempotency-key"]);
			return keys.length === 1
				? {
						status: 200,
						raw: '{"success":true,"recordId":"rec_3","remainingCredit":990,"resultImage":"data:image/png;base64,iVBOR',
					}
				: { status: 200, body: whole };
		});
		try {
			const dir = path.join(work, "cut");
			await mkdir(dir);
			await copyFile(path.join(FIXTURES, "hello-ja.png"), path.join(dir, "p.png"));
			const result = await start(["translate", dir, "--to", "en"], api.url).exited;
			assert.equal(result.code, 0, result.stderr);
			assert.equal(keys.length, 2);
			assert.equal(keys[0], keys[1], "the retry reuses the Idempotency-Key the service freed");
			assert.match(result.stdout, /1 translated, 0 skipped, 0 failed; 990 credits left/);
		} finally {
			api.close();
		}
	});

	it("refuses a file over 20 MB without sending it", async () => {
		const api = await standIn(() => ({ status: 500, body: { detail: "should not be asked" } }));
		try {
			const dir = path.join(work, "large");
			await mkdir(dir);
			await writeFile(path.join(dir, "huge.png"), Buffer.alloc(20 * 1024 * 1024 + 1));
			const result = await start(["translate", dir, "--to", "en"], api.url).exited;
			assert.equal(result.code, 1);
			assert.equal(api.seen.requests, 0);
			assert.match(result.stderr, /huge\.png .*20\.0 MB is over the service's 20 MB limit; not sent/);
		} finally {
			api.close();
		}
	});
});
