/**
 * The service as a user meets it: `wrangler dev` with every model vendor pointed at the loopback fake
 * (scripts/fake-vendor.mjs), fresh Durable Object storage, and one provisioned account and key.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { provisionAccount, startDevServer } from "../../scripts/dev-server.mjs";

export const REPO = fileURLToPath(new URL("../../", import.meta.url));
export const FIXTURES = fileURLToPath(new URL("./fixtures/", import.meta.url));
const ADMIN_TOKEN = "e2e-admin-token";

/** A port nobody listens on right now, so parallel runs and a developer's own `wrangler dev` do not collide. */
export function freePort() {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once("error", reject);
		server.listen(0, "127.0.0.1", () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
	});
}

/** Base URLs as scripts/fake-vendor.mjs documents them: the translator's name first, then the vendor's own path. */
const FAKE_PATHS = {
	XAI_BASE_URL: "grok/v1",
	GEMINI_BASE_URL: "gemini/v1beta",
	DEEPSEEK_BASE_URL: "deepseek",
	MOONSHOT_BASE_URL: "kimi/v1",
	OPENAI_BASE_URL: "chatgpt/v1",
	ANTHROPIC_BASE_URL: "claude",
};

async function listening(url, child) {
	const deadline = Date.now() + 15_000;
	while (Date.now() < deadline) {
		if (child.exitCode !== null) throw new Error("the fake vendor exited early");
		try {
			await fetch(url);
			return;
		} catch {
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
	}
	throw new Error("the fake vendor did not start listening within 15 s");
}

/** The loopback fake of the model vendors, and the vars that aim every translator's base URL and key at it. */
async function startVendor() {
	const port = await freePort();
	const child = spawn(
		process.execPath,
		[path.join(REPO, "scripts", "fake-vendor.mjs"), "--port", String(port), "--quiet"],
		{
			stdio: ["ignore", "ignore", "inherit"],
		},
	);
	const url = `http://127.0.0.1:${port}`;
	await listening(url, child);
	const vars = {};
	for (const [name, suffix] of Object.entries(FAKE_PATHS)) {
		vars[name] = `${url}/${suffix}`;
		vars[name.replace("_BASE_URL", "_API_KEY")] = "fake-vendor-key";
	}
	const exited = new Promise((resolve) => child.once("exit", resolve));
	return {
		vars,
		async stop() {
			if (child.exitCode === null) child.kill("SIGTERM");
			await exited;
		},
	};
}

/**
 * @returns {Promise<{ url: string, apiKey: string, accountId: string, credits: () => Promise<number>, stop: () => Promise<void> }>}
 */
export async function startService({ credits = 1000, plan = "professional" } = {}) {
	const persistTo = await mkdtemp(path.join(tmpdir(), "yakusu-e2e-"));
	const vendor = await startVendor();
	const log = [];
	let server;
	try {
		server = await startDevServer({
			port: await freePort(),
			persistTo,
			vars: { ADMIN_TOKEN, ...vendor.vars },
			onLog: (line) => log.push(line),
		});
	} catch (error) {
		await vendor.stop();
		throw error;
	}
	const account = await provisionAccount(server.url, ADMIN_TOKEN, { plan, credits });
	return {
		url: server.url,
		apiKey: account.apiKey,
		accountId: account.accountId,
		/** The account's balance as the admin API reports it: what the user was really charged. */
		async credits() {
			const res = await fetch(`${server.url}/admin/accounts/${account.accountId}`, {
				headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
			});
			return (await res.json()).credits;
		},
		/** Another account's API key, for the plan and credit cases (403, 402). */
		async keyFor({ plan, credits }) {
			return (await provisionAccount(server.url, ADMIN_TOKEN, { plan, credits })).apiKey;
		},
		/** wrangler's output so far, for a failing test's message. */
		log: () => log.slice(-60).join("\n"),
		async stop() {
			await server.stop();
			await vendor.stop();
			await rm(persistTo, { recursive: true, force: true });
		},
	};
}

/** Width and height from a PNG's IHDR, or undefined if the bytes are not a PNG. */
export function pngSize(bytes) {
	const signature = "89504e470d0a1a0a";
	if (bytes.subarray(0, 8).toString("hex") !== signature) return undefined;
	return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}
