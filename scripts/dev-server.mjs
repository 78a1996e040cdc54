/**
 * Starts and stops `wrangler dev` for local runs, end-to-end tests and benchmarks, and provisions
 * accounts through the admin API. Used by scripts/dev.mjs (`npm start`), test/e2e and bench/.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
// wrangler's bin refuses Node < 22; its CLI itself runs on Node 20 with a warning, so call it directly.
const WRANGLER_CLI = join(dirname(require.resolve("wrangler/package.json")), "wrangler-dist", "cli.js");

/**
 * @param {object} options
 * @param {number} [options.port] 8787 unless given
 * @param {Record<string, string>} [options.vars] passed as --var (they override .dev.vars)
 * @param {string} [options.persistTo] local Durable Object storage; .wrangler/state unless given
 * @param {string} [options.config] wrangler config file
 * @param {(line: string) => void} [options.onLog] wrangler's output, line by line
 * @param {() => void} [options.onExit] told when wrangler exits after it started (not when stopped)
 * @returns {Promise<{ url: string, pid: number, stop: () => Promise<void> }>}
 */
export async function startDevServer({ port = 8787, vars = {}, persistTo, config, onLog, onExit } = {}) {
	const args = [
		WRANGLER_CLI,
		"dev",
		"--local",
		"--ip",
		"127.0.0.1",
		"--port",
		String(port),
		"--show-interactive-dev-session=false",
	];
	if (persistTo) args.push("--persist-to", persistTo);
	if (config) args.push("--config", config);
	for (const [name, value] of Object.entries(vars)) args.push("--var", `${name}:${value}`);

	const child = spawn(process.execPath, args, {
		stdio: ["ignore", "pipe", "pipe"],
		env: { ...process.env, WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" },
	});
	let output = "";
	for (const stream of [child.stdout, child.stderr]) {
		stream.setEncoding("utf8");
		stream.on("data", (text) => {
			output = (output + text).slice(-20_000);
			if (onLog) for (const line of text.split("\n")) if (line.trim()) onLog(line);
		});
	}
	const exited = new Promise((resolve) => child.once("exit", resolve));

	const url = `http://127.0.0.1:${port}`;
	let stopped = false;
	exited.then(() => {
		if (!stopped) onExit?.();
	});
	const stop = async () => {
		stopped = true;
		if (child.exitCode === null) child.kill("SIGTERM");
		await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
		if (child.exitCode === null) child.kill("SIGKILL");
	};

	const deadline = Date.now() + 60_000;
	while (Date.now() < deadline) {
		if (child.exitCode !== null) throw new Error(`wrangler dev exited early:\n${output}`);
		try {
			const res = await fetch(`${url}/translate/image`, { method: "GET" });
			if (res.status === 405) return { url, pid: child.pid, stop };
		} catch {
			// not listening yet
		}
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	await stop();
	throw new Error(`wrangler dev did not answer within 60 s:\n${output}`);
}

/**
 * Creates an account with one API key through the admin API.
 * @returns {Promise<{ accountId: string, keyId: string, apiKey: string }>}
 */
export async function provisionAccount(url, adminToken, { plan = "professional", credits = 1000 } = {}) {
	const admin = async (method, path, body) => {
		const res = await fetch(`${url}/admin${path}`, {
			method,
			headers: { Authorization: `Bearer ${adminToken}`, "Content-Type": "application/json" },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		if (!res.ok) throw new Error(`admin ${method} ${path}: ${res.status} ${await res.text()}`);
		return res.json();
	};
	const { accountId } = await admin("POST", "/accounts", { plan, credits });
	const { keyId, apiKey } = await admin("POST", `/accounts/${accountId}/keys`);
	return { accountId, keyId, apiKey };
}

/** A port nobody listens on right now, so parallel runs and a developer's own `wrangler dev` do not collide. */
export function freePort() {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once("error", reject);
		server.listen(0, "127.0.0.1", () => {
			const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
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

/**
 * The loopback fake of the model vendors (scripts/fake-vendor.mjs), and the vars that aim every
 * translator's base URL and key at it. `reader: "ocr"` makes it read images with the local OCR reader.
 * @param {{ port?: number, quiet?: boolean, reader?: string }} [options] port: a free one unless given
 * @returns {Promise<{ url: string, vars: Record<string, string>, stop: () => Promise<void> }>}
 */
export async function startFakeVendor({ port, quiet = true, reader } = {}) {
	const listenOn = port ?? (await freePort());
	const script = fileURLToPath(new URL("./fake-vendor.mjs", import.meta.url));
	const args = [
		script,
		"--port",
		String(listenOn),
		...(quiet ? ["--quiet"] : []),
		...(reader ? ["--reader", reader] : []),
	];
	const child = spawn(process.execPath, args, { stdio: ["ignore", quiet ? "ignore" : "inherit", "inherit"] });
	const exited = new Promise((resolve) => child.once("exit", resolve));
	const stop = async () => {
		if (child.exitCode === null) child.kill("SIGTERM");
		await exited;
	};

	const url = `http://127.0.0.1:${listenOn}`;
	const deadline = Date.now() + 15_000;
	for (;;) {
		if (child.exitCode !== null) throw new Error("the fake vendor exited early");
		try {
			await fetch(url);
			break;
		} catch {
			if (Date.now() > deadline) {
				await stop();
				throw new Error("the fake vendor did not start listening within 15 s");
			}
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
	}
	/** @type {Record<string, string>} */
	const vars = {};
	for (const [name, suffix] of Object.entries(FAKE_PATHS)) {
		vars[name] = `${url}/${suffix}`;
		vars[name.replace("_BASE_URL", "_API_KEY")] = "fake-vendor-key";
	}
	return { url, vars, stop };
}
