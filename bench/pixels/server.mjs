/**
 * Starts the bench Worker (bench/pixels/wrangler.toml) under `wrangler dev` and finds the workerd
 * process serving it, so that its resident memory can be read from /proc.
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);
const WRANGLER_CLI = join(dirname(require.resolve("wrangler/package.json")), "wrangler-dist", "cli.js");

/** `config`: the Worker's wrangler.toml, bench/pixels' own by default. */
export async function startBenchWorker(
	port,
	config = join(import.meta.dirname ?? dirname(new URL(import.meta.url).pathname), "wrangler.toml"),
) {
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
	// wrangler may run more than one workerd (a proxy and the user Worker): the Worker's is the
	// one that grows when it runs; the caller picks it with pickWorker after a first request.
	const workerds = descendants(child.pid).filter((pid) => processName(pid) === "workerd");
	if (workerds.length === 0) throw new Error("no workerd process under wrangler");
	const stop = async () => {
		child.kill("SIGTERM");
		await new Promise((r) => setTimeout(r, 500));
		if (child.exitCode === null) child.kill("SIGKILL");
	};
	return { url, workerds, stop };
}

function processName(pid) {
	try {
		return readFileSync(`/proc/${pid}/comm`, "utf8").trim();
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
