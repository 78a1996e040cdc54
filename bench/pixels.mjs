#!/usr/bin/env node
/**
 * Speed and memory of the pixel stages in workerd (issue 4): decode -> erase -> compose -> encode
 * against the naive baseline (the whole image as a base64 <image> in one SVG with the text, rendered
 * by resvg), on the inputs of bench/pixels/inputs.mjs.
 *
 * Each case runs in a fresh `wrangler dev` (so Wasm memory starts small, as in a fresh isolate):
 * one warm-up on a small image, then the peak resident memory of the workerd process is reset and
 * the case runs once for memory, then RUNS more times for speed (median). Peak added memory is the
 * workerd high-water RSS over its RSS just before the case. The baseline runs the same way in its
 * own fresh process. Usage: node bench/pixels.mjs [--runs N] [--only <substring>]
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { CASES, input } from "./pixels/inputs.mjs";
import { memory, resetPeak, startBenchWorker } from "./pixels/server.mjs";

const args = process.argv.slice(2);
const RUNS = Number(args[args.indexOf("--runs") + 1] || 3) || 3;
const only = args.includes("--only") ? args[args.indexOf("--only") + 1] : undefined;
const MB = 1024 * 1024;
const PORT = 8900 + Math.floor(Math.random() * 80);

async function post(url, route, sample, retries = 2) {
	const res = await fetch(`${url}/${route}?format=${sample.format}`, {
		method: "POST",
		body: sample.bytes,
		headers: {
			"x-regions": encodeURIComponent(JSON.stringify(sample.regions)),
			"x-width": String(sample.width),
			"x-height": String(sample.height),
		},
	});
	// wrangler dev restarts the Worker when a source file changes (others work in the same tree).
	if (res.status === 503 && retries > 0) return post(url, route, sample, retries - 1);
	if (!res.ok) throw new Error(`${route}: ${res.status} ${await res.text()}`);
	return res.json();
}

/** Runs one route on one sample in a fresh workerd: memory on the first run, then median times. */
async function measure(route, sample, warmup) {
	const server = await startBenchWorker(PORT);
	try {
		await post(server.url, route, warmup);
		// Of wrangler's workerd processes, the one serving the Worker is the one whose peak grows.
		const idles = server.workerds.map((pid) => memory(pid).rss);
		for (const pid of server.workerds) resetPeak(pid);
		const first = await post(server.url, route, sample);
		const added = server.workerds.map((pid, k) => memory(pid).peak - idles[k]);
		const worker = added.indexOf(Math.max(...added));
		const [idle, peakAdded] = [idles[worker], added[worker]];
		const runs = [first];
		for (let i = 1; i < RUNS; i++) runs.push(await post(server.url, route, sample));
		const stages = Object.keys(first.times);
		const times = Object.fromEntries(stages.map((s) => [s, median(runs.map((r) => r.times[s]))]));
		return { ...first, times, total: Object.values(times).reduce((a, b) => a + b, 0), idle, peakAdded };
	} finally {
		await server.stop();
	}
}

function median(values) {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[sorted.length >> 1];
}

const warmup = {
	...(await input({ file: "warmup.png", kind: "flat", script: "latin", width: 320, height: 240, regions: 2 })),
	format: "png",
};
// Other work on the machine shares its cores with workerd: the load average says how much.
const loadAtStart = loadavg()[0];
const results = [];
for (const spec of CASES) {
	if (only && !spec.name.includes(only)) continue;
	console.error(`${spec.name}…`);
	const sample = await input(spec);
	const mp = (spec.width * spec.height) / 1e6;
	const ours = await measure("pixels", sample, warmup);
	const base = spec.noBaseline
		? { error: `n/a: ${spec.noBaseline}` }
		: await measure("baseline", sample, warmup).catch((e) => ({ error: `failed: ${String(e.message).slice(0, 200)}` }));
	results.push({ case: spec.name, mp, fileMB: sample.bytes.length / MB, ours, baseline: base, load: loadavg()[0] });
}
writeFileSync("bench/out/pixels.json", JSON.stringify(results, null, 1));

// Markdown on stdout (npm run bench puts it in docs/benchmarks.md).
const ms = (v) => `${v.toFixed(0)}`;
const mb = (v) => `${(v / MB).toFixed(0)} MB`;
console.log(
	`Each case runs in a fresh \`wrangler dev\` (bench/pixels/wrangler.toml), after one small warm-up request; times are the median of ${RUNS} runs, memory is from the first. ` +
		`Load average ${loadAtStart.toFixed(1)} at start, ${loadavg()[0].toFixed(1)} at the end (other work on the machine slows both columns alike).\n`,
);
console.log("| case | decode ms | erase ms | compose ms | encode ms | total ms | ms/MP | baseline ms | speed-up |");
console.log("|---|---|---|---|---|---|---|---|---|");
for (const { case: name, mp, ours, baseline } of results) {
	const t = ours.times;
	const base = baseline.error ?? ms(baseline.total);
	const speedUp = baseline.error ? "" : `${(baseline.total / ours.total).toFixed(1)}×`;
	console.log(
		`| ${name} | ${ms(t.decode)} | ${ms(t.erase)} | ${ms(t.compose)} | ${ms(t.encode)} | ${ms(ours.total)} | ${(ours.total / mp).toFixed(1)} | ${base} | ${speedUp} |`,
	);
}
console.log(
	"\nMemory: peak RSS of the workerd process over its RSS just before the case (it includes garbage not yet collected), and Wasm memory (photon's for ours, resvg's for the baseline).\n",
);
console.log(
	"| case | file | PNG out | ours: peak added RSS | ours: Wasm | baseline: peak added RSS | baseline: Wasm |",
);
console.log("|---|---|---|---|---|---|---|");
for (const { case: name, fileMB, ours, baseline } of results) {
	const base = baseline.error ? "| |" : `| ${mb(baseline.peakAdded)} | ${mb(baseline.resvgWasmBytes)} |`;
	console.log(
		`| ${name} | ${fileMB.toFixed(1)} MB | ${(ours.pngBytes / MB).toFixed(1)} MB | ${mb(ours.peakAdded)} | ${mb(ours.photonWasmBytes)} ${base}`,
	);
}

// RSS counts garbage not yet collected; the live figures come from node with forced collections.
console.log(
	"\nLive memory (node, the same V8, a full collection at each stage boundary; the input file counts until encode):\n",
);
spawnSync(process.execPath, ["--expose-gc", "bench/pixels/live-memory.mjs"], { stdio: "inherit" });
