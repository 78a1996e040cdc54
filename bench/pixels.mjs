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
import { cpus, loadavg } from "node:os";
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
console.log(
	`machine: ${cpus()[0].model}, ${cpus().length} cores; node ${process.version}; ${RUNS} runs per case (median)`,
);
// Other work on the machine shares its cores with workerd: the load average says how much.
console.log(
	`load average at start: ${loadavg()
		.map((l) => l.toFixed(1))
		.join(", ")}\n`,
);
const results = [];
for (const spec of CASES) {
	if (only && !spec.name.includes(only)) continue;
	const sample = await input(spec);
	const mp = (spec.width * spec.height) / 1e6;
	const ours = await measure("pixels", sample, warmup);
	const base = await measure("baseline", sample, warmup).catch((e) => ({ error: String(e.message).slice(0, 200) }));
	const row = { case: spec.name, mp, fileMB: sample.bytes.length / MB, ours, baseline: base, load: loadavg()[0] };
	results.push(row);
	const t = ours.times;
	console.log(`${spec.name} (${(sample.bytes.length / MB).toFixed(1)} MB file)`);
	console.log(
		`  ours: decode ${t.decode.toFixed(0)} ms, erase ${t.erase.toFixed(0)} ms, compose ${t.compose.toFixed(0)} ms, encode ${t.encode.toFixed(0)} ms` +
			` = ${ours.total.toFixed(0)} ms (${(ours.total / mp).toFixed(1)} ms/MP); PNG ${(ours.pngBytes / MB).toFixed(1)} MB`,
	);
	console.log(
		`        peak added RSS ${(ours.peakAdded / MB).toFixed(0)} MB over idle ${(ours.idle / MB).toFixed(0)} MB; photon Wasm memory ${(ours.photonWasmBytes / MB).toFixed(0)} MB`,
	);
	if (base.error) console.log(`  baseline failed: ${base.error}`);
	else {
		console.log(
			`  baseline (resvg, embedded image): ${base.total.toFixed(0)} ms (${(base.total / mp).toFixed(1)} ms/MP), peak added RSS ${(base.peakAdded / MB).toFixed(0)} MB, resvg Wasm memory ${(base.resvgWasmBytes / MB).toFixed(0)} MB`,
		);
		console.log(`  speed-up: ${(base.total / ours.total).toFixed(1)}×; load average now ${loadavg()[0].toFixed(1)}`);
	}
}
const { writeFileSync } = await import("node:fs");
writeFileSync("bench/out/pixels.json", JSON.stringify(results, null, 1));

// RSS counts garbage not yet collected; the live figures come from node with forced collections.
console.log("\nlive memory (node, same V8, full collection at each stage boundary):");
spawnSync(process.execPath, ["--expose-gc", "bench/pixels/live-memory.mjs"], { stdio: "inherit" });
