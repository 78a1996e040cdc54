/**
 * `npm run vendors` against the loopback fake vendor (scripts/fake-vendor.mjs): one line per
 * vendor saying whether it works, and if not, why, in the operator's words; a vendor without a
 * key is skipped with the variable to set; no key is ever printed.
 */
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { REPO } from "./harness.mjs";

const SCRIPT = path.join(REPO, "scripts", "vendors.mjs");
const KEYS = {
	XAI_API_KEY: "sk-secret-xai-0001",
	GEMINI_API_KEY: "sk-secret-gemini-0002",
	DEEPSEEK_API_KEY: "sk-secret-deepseek-0003",
	MOONSHOT_API_KEY: "invalid-secret-moonshot-0004",
	OPENAI_API_KEY: "sk-secret-openai-0005",
};

let fake;
let base;
let dir;

before(async () => {
	const port = await freePort();
	base = `http://127.0.0.1:${port}`;
	fake = spawn(process.execPath, [path.join(REPO, "scripts", "fake-vendor.mjs"), "--port", String(port), "--quiet"], {
		stdio: ["ignore", "pipe", "inherit"],
	});
	await new Promise((resolve) => fake.stdout.once("data", resolve));
	dir = await mkdtemp(path.join(tmpdir(), "yakusu-vendors-test-"));
});

after(async () => {
	fake?.kill();
	await rm(dir, { recursive: true, force: true });
});

/** Runs the check in an empty folder (no .dev.vars) with only these variables. */
function vendors(vars, args = []) {
	return new Promise((resolve) => {
		execFile(
			process.execPath,
			[SCRIPT, ...args],
			{ cwd: dir, env: { PATH: process.env.PATH, ...vars }, timeout: 120_000 },
			(error, stdout, stderr) => resolve({ code: error?.code ?? 0, stdout, stderr }),
		);
	});
}

function lineOf(stdout, vendor) {
	return stdout.split("\n").find((l) => l.startsWith(`${vendor} `)) ?? "";
}

describe("npm run vendors", () => {
	it("says which vendors work, which refuse the key, which model is retired, and which have no key", async () => {
		const { code, stdout } = await vendors({
			...KEYS,
			XAI_BASE_URL: `${base}/grok/v1`,
			GEMINI_BASE_URL: `${base}/gemini/v1beta`,
			DEEPSEEK_BASE_URL: `${base}/deepseek`,
			DEEPSEEK_MODEL: "deepseek-chat",
			MOONSHOT_BASE_URL: `${base}/kimi/v1`,
			OPENAI_BASE_URL: `${base}/declined=refusal/chatgpt/v1`,
		});
		assert.match(lineOf(stdout, "grok"), /grok-4\.3\s+listed\s+ok [\d.]+ s\s+ok [\d.]+ s\s+works$/);
		assert.match(lineOf(stdout, "gemini"), /gemini-3\.8-flash\s+listed\s+ok .* works$/);
		assert.match(lineOf(stdout, "deepseek"), /deepseek-chat\s+not listed\s+text only\s+model unknown or retired/);
		assert.match(lineOf(stdout, "kimi"), /key refused\s+key refused\s+key refused\s+key refused$/);
		assert.match(lineOf(stdout, "chatgpt"), /model declined$/);
		assert.match(lineOf(stdout, "claude"), /no key \(set ANTHROPIC_API_KEY\)$/);
		assert.match(lineOf(stdout, "workers-ai"), /no key \(set CLOUDFLARE_ACCOUNT_ID and CLOUDFLARE_API_TOKEN/);
		for (const key of Object.values(KEYS)) assert.ok(!stdout.includes(key.slice(4)), "a key was printed");
		assert.equal(code, 1);
	});

	it("reads .dev.vars, marks a slow vendor with its time, and checks only the vendors named", async () => {
		await writeFile(
			path.join(dir, ".dev.vars"),
			`# as npm start writes it\nANTHROPIC_API_KEY="sk-secret-claude-0006"\nANTHROPIC_BASE_URL="${base}/rate=40/claude"\n`,
		);
		try {
			const { code, stdout } = await vendors({}, ["claude", "--slow", "0.5"]);
			assert.match(
				lineOf(stdout, "claude"),
				/claude-sonnet-5-5\s+listed\s+ok [\d.]+ s\s+ok [\d.]+ s\s+slow \([\d.]+ s\)$/,
			);
			assert.equal(stdout.trim().split("\n").length, 3);
			assert.ok(!stdout.includes("sk-secret-claude"));
			assert.equal(code, 1);
		} finally {
			await rm(path.join(dir, ".dev.vars"));
		}
	});

	it("exits 0 when every keyed vendor works", async () => {
		const { code, stdout } = await vendors({ XAI_API_KEY: KEYS.XAI_API_KEY, XAI_BASE_URL: `${base}/grok/v1` }, [
			"grok",
		]);
		assert.match(lineOf(stdout, "grok"), /works$/);
		assert.equal(code, 0);
	});
});

function freePort() {
	return new Promise((resolve) => {
		const server = createServer();
		server.listen(0, "127.0.0.1", () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
	});
}
