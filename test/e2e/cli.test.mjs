/**
 * The command-line client against `wrangler dev` with the fake vendor: a folder of two pages is
 * translated, a re-run pays nothing, and failures are reported with the service's reason.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, rm, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { FIXTURES, pngSize, REPO, startService } from "./harness.mjs";

const CLI = path.join(REPO, "cli", "yakusu.mjs");

/** Runs `yakusu` as a user would; resolves with its exit code and output whatever the code. */
function yakusu(args, env) {
	return new Promise((resolve) => {
		execFile(
			process.execPath,
			[CLI, ...args],
			{ env: { ...process.env, ...env }, timeout: 240_000 },
			(error, stdout, stderr) => resolve({ code: error ? (error.code ?? 1) : 0, stdout, stderr }),
		);
	});
}

describe("yakusu translate", { timeout: 600_000 }, () => {
	let service;
	let work;
	let env;

	before(async () => {
		service = await startService();
		env = { YAKUSU_API_KEY: service.apiKey, YAKUSU_BASE_URL: service.url };
		work = await mkdtemp(path.join(tmpdir(), "yakusu-cli-"));
		await mkdir(path.join(work, "chapter"));
		await copyFile(path.join(FIXTURES, "hello-ja.png"), path.join(work, "chapter", "001.png"));
		await copyFile(path.join(FIXTURES, "page-2.png"), path.join(work, "chapter", "002.png"));
	});

	after(async () => {
		await service?.stop();
		if (work) await rm(work, { recursive: true, force: true });
	});

	const output = (name) => path.join(work, "chapter", name);

	it("translates a folder of two images into <name>.<lang>.png and reports the credits left", async () => {
		const run = await yakusu(["translate", path.join(work, "chapter"), "--to", "en", "--from", "ja"], env);
		assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}\n${service.log()}`);
		assert.match(run.stdout, /2 translated, 0 skipped, 0 failed; 980 credits left/);
		for (const [name, source] of [
			["001.en.png", "hello-ja.png"],
			["002.en.png", "page-2.png"],
		]) {
			const result = await readFile(output(name));
			assert.deepEqual(pngSize(result), pngSize(await readFile(path.join(FIXTURES, source))));
		}
		assert.equal(await service.credits(), 980);
	});

	it("skips files whose output exists on a re-run", async () => {
		const run = await yakusu(["translate", path.join(work, "chapter"), "--to", "en", "--from", "ja"], env);
		assert.equal(run.code, 0, run.stderr);
		assert.match(run.stdout, /0 translated, 2 skipped, 0 failed/);
		assert.equal(await service.credits(), 980);
	});

	it("never pays twice for the same file and options, even when the output was lost", async () => {
		await unlink(output("001.en.png"));
		const again = await yakusu(["translate", path.join(work, "chapter"), "--to", "en", "--from", "ja"], env);
		assert.equal(again.code, 1);
		assert.match(again.stderr, /001\.png .*already translated with these options \(record rec_/);
		assert.equal(await service.credits(), 980, "the Idempotency-Key made the repeat free");

		const paid = await yakusu(["translate", path.join(work, "chapter"), "--to", "en", "--from", "ja", "--again"], env);
		assert.equal(paid.code, 0, paid.stderr);
		assert.match(paid.stdout, /1 translated, 1 skipped, 0 failed; 970 credits left/);
	});

	it("reports a file the service refuses, and still translates the others", async () => {
		const mixed = path.join(work, "mixed");
		await mkdir(mixed);
		await writeFile(path.join(mixed, "broken.png"), "this is not an image");
		await copyFile(path.join(FIXTURES, "page-2.png"), path.join(mixed, "fine.png"));
		const run = await yakusu(["translate", mixed, "--to", "fr", "--out", path.join(work, "out")], env);
		assert.equal(run.code, 1);
		assert.match(run.stderr, /broken\.png .*422 Invalid field: imageBase64/);
		assert.match(run.stdout, /1 translated, 0 skipped, 1 failed; 960 credits left/);
		assert.ok(pngSize(await readFile(path.join(work, "out", "fine.fr.png"))));
	});

	it("stops at once when the key is refused", async () => {
		const pages = path.join(work, "refused");
		await mkdir(pages);
		await copyFile(path.join(FIXTURES, "hello-ja.png"), path.join(pages, "1.png"));
		await copyFile(path.join(FIXTURES, "page-2.png"), path.join(pages, "2.png"));
		const run = await yakusu(["translate", pages, "--to", "de", "--concurrency", "1"], {
			...env,
			YAKUSU_API_KEY: "sk_yakusu_not-a-real-key",
		});
		assert.equal(run.code, 1);
		assert.match(run.stdout, /0 translated, 0 skipped, 1 failed, 1 not started/);
		assert.match(run.stdout, /Stopped early: 401/);
	});
});
