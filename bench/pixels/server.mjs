/**
 * Workers under `wrangler dev` for the benchmarks, and the memory of their workerd processes:
 * - startService: the whole service of a source tree (fresh Durable Object storage, an enterprise
 *   account), with the workerd that runs the Worker (the one wrangler starts with --inspector-addr)
 *   and its live memory through the inspector (bench/pixels.mjs);
 * - startBenchWorker: a bench-only Worker by its wrangler.toml (bench/decode.mjs).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { freePort, provisionAccount } from "../../scripts/dev-server.mjs";

const ADMIN_TOKEN = "bench-admin-token";
const require = createRequire(import.meta.url);
const WRANGLER_CLI = join(dirname(require.resolve("wrangler/package.json")), "wrangler-dist", "cli.js");

/** A bench-only Worker (`config`: its wrangler.toml) with the workerd processes wrangler started for it. */
export async function startBenchWorker(port, config) {
	const args = [WRANGLER_CLI, "dev", "--local", "--ip", "127.0.0.1", "--port", String(port), "--config", config];
	args.push("--show-interactive-dev-session=false");
	const child = spawn(process.execPath, args, {
		stdio: ["ignore", "pipe", "pipe"],
		env: { ...process.env, WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" },
	});
	let output = "";
	for (const stream of [child.stdout, child.stderr]) stream.on("data", (t) => (output = (output + t).slice(-10000)));
	const url = `http://127.0.0.1:${port}`;
	const deadline = Date.now() + 60_000;
	for (;;) {
		if (child.exitCode !== null || Date.now() > deadline) {
			child.kill("SIGKILL");
			throw new Error(`bench worker did not start:\n${output}`);
		}
		try {
			if ((await fetch(`${url}/ready`)).ok) break;
		} catch {
			// not listening yet
		}
		await new Promise((r) => setTimeout(r, 250));
	}
	// wrangler may run more than one workerd (a proxy and the user Worker): the caller measures all.
	const workerds = descendants(child.pid).filter((pid) => processName(pid) === "workerd");
	if (workerds.length === 0) throw new Error("no workerd process under wrangler");
	const stop = async () => {
		child.kill("SIGTERM");
		await new Promise((r) => setTimeout(r, 500));
		if (child.exitCode === null) child.kill("SIGKILL");
	};
	return { url, workerds, stop };
}

/** @param {{ dir: string, vars: Record<string, string> }} options */
export async function startService({ dir, vars }) {
	const port = await freePort();
	const inspectorPort = await freePort();
	const persistTo = mkdtempSync(join(tmpdir(), "yakusu-bench-"));
	const cli = join(dir, "node_modules", "wrangler", "wrangler-dist", "cli.js");
	const args = [cli, "dev", "--local", "--ip", "127.0.0.1", "--port", String(port), "--persist-to", persistTo];
	args.push("--inspector-port", String(inspectorPort), "--show-interactive-dev-session=false");
	for (const [name, value] of Object.entries({ ADMIN_TOKEN, ...vars })) args.push("--var", `${name}:${value}`);
	const child = spawn(process.execPath, args, {
		cwd: dir,
		stdio: ["ignore", "pipe", "pipe"],
		env: { ...process.env, WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" },
	});
	let output = "";
	for (const stream of [child.stdout, child.stderr]) stream.on("data", (t) => (output = (output + t).slice(-10000)));
	const url = `http://127.0.0.1:${port}`;
	const stop = async () => {
		child.kill("SIGTERM");
		await new Promise((r) => setTimeout(r, 500));
		if (child.exitCode === null) child.kill("SIGKILL");
		rmSync(persistTo, { recursive: true, force: true });
	};
	const deadline = Date.now() + 90_000;
	for (;;) {
		if (child.exitCode !== null || Date.now() > deadline) {
			await stop();
			throw new Error(`wrangler dev did not start in ${dir}:\n${output}`);
		}
		try {
			if ((await fetch(`${url}/translate/image`)).status === 405) break;
		} catch {
			// not listening yet
		}
		await new Promise((r) => setTimeout(r, 250));
	}
	const worker = descendants(child.pid).find(
		(pid) => processName(pid) === "workerd" && commandLine(pid).includes("--inspector-addr"),
	);
	if (!worker) {
		await stop();
		throw new Error("no workerd with --inspector-addr under wrangler");
	}
	const { apiKey } = await provisionAccount(url, ADMIN_TOKEN, { plan: "enterprise", credits: 100_000 });
	return { url, apiKey, worker, stop, log: () => output, liveBytes: () => liveBytes(inspectorPort) };
}

/**
 * The Worker's live memory, through wrangler's inspector proxy (DevTools protocol): a heap snapshot
 * first, because it collects all garbage (workerd answers no HeapProfiler.collectGarbage), then
 * the JS heap in use plus the ArrayBuffers still referenced.
 */
async function liveBytes(port) {
	// The proxy wants an Origin it knows, as a browser's DevTools would send.
	const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers: { Origin: "http://localhost" } });
	await new Promise((resolve, reject) => {
		socket.onopen = resolve;
		socket.onerror = () => reject(new Error(`inspector on ${port} refused`));
	});
	const answers = new Map();
	socket.onmessage = (event) => {
		const message = JSON.parse(event.data);
		answers.get(message.id)?.(message);
	};
	const ask = (id, method, params = {}) =>
		new Promise((resolve) => {
			answers.set(id, resolve);
			socket.send(JSON.stringify({ id, method, params }));
		});
	await ask(1, "HeapProfiler.takeHeapSnapshot", { reportProgress: false });
	const { result } = await ask(2, "Runtime.getHeapUsage");
	socket.close();
	return result.usedSize + result.backingStorageSize;
}

function processName(pid) {
	try {
		return readFileSync(`/proc/${pid}/comm`, "utf8").trim();
	} catch {
		return "";
	}
}

function commandLine(pid) {
	try {
		return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
	} catch {
		return "";
	}
}

function descendants(root) {
	const children = new Map();
	for (const entry of readdirSync("/proc")) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
			const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
			children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
		} catch {
			// gone
		}
	}
	const found = [];
	const queue = [root];
	while (queue.length) {
		for (const pid of children.get(queue.shift()) ?? []) {
			found.push(pid);
			queue.push(pid);
		}
	}
	return found;
}

/** Resident and peak resident memory of a process, in bytes. */
export function memory(pid) {
	const status = readFileSync(`/proc/${pid}/status`, "utf8");
	const kb = (key) => Number(status.match(new RegExp(`${key}:\\s+(\\d+)`))[1]) * 1024;
	return { rss: kb("VmRSS"), peak: kb("VmHWM") };
}

/** Resets the peak (VmHWM) to the current RSS, so the next peak belongs to what runs next. */
export function resetPeak(pid) {
	writeFileSync(`/proc/${pid}/clear_refs`, "5");
}
