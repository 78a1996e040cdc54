#!/usr/bin/env node
/**
 * Decoding in workerd (issue 11): speed per megapixel of each format, rows (what the passes use)
 * and whole raster, on the 25 MP inputs of bench/pixels; then every crafted file of
 * test/pipeline/hostile: what the probe and the decoder make of it, the CPU time and the memory.
 *
 * Each case runs in a fresh `wrangler dev` (bench/decode/wrangler.toml), so that no garbage of an
 * earlier case is collected during it: the file is uploaded first (its bytes are not counted), the
 * peak resident memory of workerd is reset, and the case runs once for memory and CPU time (the
 * process's own, from /proc), then twice more for the median time the Worker measured.
 * Usage: node bench/decode.mjs [--only <substring>] [--worker <wrangler.toml>]
 * (--worker: another Worker answering the same routes, such as one over an older tree's decoders,
 * for figures before and after a change.)
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { bundleForNode } from "./pixels/bundle.mjs";
import { CASES, input } from "./pixels/inputs.mjs";
import { memory, resetPeak, startBenchWorker } from "./pixels/server.mjs";

const args = process.argv.slice(2);
const only = args.includes("--only") ? args[args.indexOf("--only") + 1] : undefined;
const CONFIG = args.includes("--worker")
	? args[args.indexOf("--worker") + 1]
	: join(import.meta.dirname, "decode/wrangler.toml");
const PORT = 8980 + Math.floor(Math.random() * 15);
const MB = 1024 * 1024;
const TICKS = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;

/** User and system CPU time of a process, in ms. */
function cpuMs(pid) {
	const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
	const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
	return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
}

async function call(url, path, init) {
	const res = await fetch(`${url}${path}`, init);
	if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
	return path.startsWith("/run") ? res.json() : res.text();
}

/** One case in a fresh workerd: memory and CPU of the first run, median Worker-measured times of three. */
async function measure(bytes, mode) {
	const server = await startBenchWorker(PORT, CONFIG);
	try {
		await call(server.url, "/file", { method: "PUT", body: new Uint8Array(8) });
		await call(server.url, `/run?mode=${mode}`, { method: "POST" });
		await call(server.url, "/file", { method: "PUT", body: bytes });
		const rss = server.workerds.map((pid) => memory(pid).rss);
		const cpu = server.workerds.map(cpuMs);
		for (const pid of server.workerds) resetPeak(pid);
		const first = await call(server.url, `/run?mode=${mode}`, { method: "POST" });
		const added = server.workerds.map((pid, k) => memory(pid).peak - rss[k]);
		const k = added.indexOf(Math.max(...added));
		const cpuTaken = Math.max(...server.workerds.map((pid, i) => cpuMs(pid) - cpu[i]));
		const runs = [first];
		for (let i = 1; i < 3; i++) {
			// Uploaded again: wrangler dev restarts the Worker when a source file changes, and a fresh one holds no file.
			await call(server.url, "/file", { method: "PUT", body: bytes });
			runs.push(await call(server.url, `/run?mode=${mode}`, { method: "POST" }));
		}
		const median = (key) => (first[key] === undefined ? undefined : runs.map((r) => r[key]).sort((a, b) => a - b)[1]);
		return { ...first, probeMs: median("probeMs"), decodeMs: median("decodeMs"), cpuMs: cpuTaken, peakAdded: added[k] };
	} finally {
		await server.stop();
	}
}

const loadAtStart = loadavg()[0];
const formats = [];
for (const spec of CASES) {
	if (only && !spec.name.includes(only)) continue;
	console.error(`${spec.name}…`);
	const sample = await input(spec);
	const mp = (spec.width * spec.height) / 1e6;
	formats.push({
		name: spec.name,
		mp,
		rows: await measure(sample.bytes, "rows"),
		whole: await measure(sample.bytes, "whole"),
	});
}
const { HOSTILE_FILES } = await bundleForNode("test/pipeline/hostile/files.ts", "hostile-files");
const hostile = [];
for (const file of HOSTILE_FILES) {
	if (only && !file.name.includes(only)) continue;
	console.error(`${file.name}…`);
	const bytes = file.bytes();
	hostile.push({ name: file.name, size: bytes.length, ...(await measure(bytes, "rows")) });
}

const ms = (v) => (v === undefined ? "" : v.toFixed(0));
const mb = (v) => `${(v / MB).toFixed(1)} MB`;
console.log(
	`Each case in a fresh \`wrangler dev\` (bench/decode/wrangler.toml); the file is uploaded before the peak resident memory of workerd is reset, so it is not counted. Times are the median of 3 runs as the Worker measured them; CPU is workerd's own over the first run (${1000 / TICKS} ms ticks). Load average ${loadAtStart.toFixed(1)} at start, ${loadavg()[0].toFixed(1)} at the end.\n`,
);
console.log(
	"Speed per format: `decodeRows` to a sink that keeps nothing, as the passes use it, and `decodeImage` into one raster.\n",
);
console.log("| input | probe ms | rows ms/MP | rows: peak added | whole ms/MP | whole: peak added |");
console.log("|---|---|---|---|---|---|");
for (const { name, mp, rows, whole } of formats) {
	console.log(
		`| ${name.replace(/, \d+ regions$/, "")} | ${rows.probeMs.toFixed(1)} | ${(rows.decodeMs / mp).toFixed(1)} | ${mb(rows.peakAdded)} | ${(whole.decodeMs / mp).toFixed(1)} | ${mb(whole.peakAdded)} |`,
	);
}
console.log(
	"\nCrafted files (test/pipeline/hostile, the classes of issue 11 and 13): refused before acceptance, refused while decoding within the work budget (refunded), or decoded, rows to a sink that keeps nothing.\n",
);
console.log("| file | bytes | outcome | probe ms | decode ms | CPU ms | peak added |");
console.log("|---|---|---|---|---|---|---|");
for (const h of hostile) {
	console.log(
		`| ${h.name} | ${h.size} | ${h.outcome} | ${h.probeMs.toFixed(1)} | ${ms(h.decodeMs)} | ${ms(h.cpuMs)} | ${mb(h.peakAdded)} |`,
	);
}
