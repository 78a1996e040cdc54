/**
 * Starts and stops `wrangler dev` for local runs, end-to-end tests and benchmarks, and provisions
 * accounts through the admin API. Used by scripts/dev.mjs (`npm start`), test/e2e and bench/.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

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
 * @returns {Promise<{ url: string, stop: () => Promise<void> }>}
 */
export async function startDevServer({ port = 8787, vars = {}, persistTo, config, onLog } = {}) {
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
	const stop = async () => {
		if (child.exitCode === null) child.kill("SIGTERM");
		await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
		if (child.exitCode === null) child.kill("SIGKILL");
	};

	const deadline = Date.now() + 60_000;
	while (Date.now() < deadline) {
		if (child.exitCode !== null) throw new Error(`wrangler dev exited early:\n${output}`);
		try {
			const res = await fetch(`${url}/translate/image`, { method: "GET" });
			if (res.status === 405) return { url, stop };
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
