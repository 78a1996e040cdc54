// What the read and translate stages send and cost, against an instant in-process fake vendor.
// Usage: node bench/models.mjs (Node 20). Figures for docs/benchmarks.md:
//   - bytes sent to the reader for a 24-megapixel photo and a 1.5-megapixel manga page
//     (the JPEG reader copy, and the whole JSON request body);
//   - model round trips per call: 1 when the reader translates, 2 when it does not (deepseek);
//   - time our own code adds around the model calls: the reader copy (downscale + JPEG) and
//     everything else (prompts, JSON, parsing, box mapping, merging), fake vendor time excluded.
//
// The stages (src/pipeline/read.ts and what it imports) are bundled with esbuild into bench/out/
// and run in Node; photon loads its Node build. The images are synthetic (bench/corpus): a
// photo-like fractal texture and a flat page with Japanese balloons. Writes the reader copies to
// bench/out/ so they can be looked at.

import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { createFakeVendor } from "../test/fakes/vendor.mjs";
import { makeSample } from "./corpus/synthetic.mjs";

if (typeof globalThis.gc !== "function") {
	// Memory figures need forced collections: run again with --expose-gc.
	const run = spawnSync(process.execPath, ["--expose-gc", fileURLToPath(import.meta.url)], { stdio: "inherit" });
	process.exit(run.status ?? 1);
}

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "bench", "out");
const bundle = join(out, "models.mjs");
mkdirSync(out, { recursive: true });
await build({
	stdin: {
		contents: [
			'export { readAndTranslate } from "./src/pipeline/read.ts";',
			'export { downscale, readerCopy, readingWindows, READER_LONG_EDGE } from "./src/pipeline/read-copy.ts";',
		].join("\n"),
		resolveDir: root,
		loader: "ts",
	},
	bundle: true,
	format: "esm",
	platform: "node",
	external: ["@cf-wasm/photon"],
	outfile: bundle,
	logLevel: "warning",
});
const { readAndTranslate, downscale, readerCopy, readingWindows, READER_LONG_EDGE } = await import(
	pathToFileURL(bundle).href
);

const KEYS = {
	XAI_API_KEY: "bench",
	GEMINI_API_KEY: "bench",
	DEEPSEEK_API_KEY: "bench",
	MOONSHOT_API_KEY: "bench",
	OPENAI_API_KEY: "bench",
	ANTHROPIC_API_KEY: "bench",
};

/** Runs one call against a fresh instant fake; returns the result, timings and what was sent. */
async function run(raster, translator) {
	const fake = createFakeVendor();
	let vendorMs = 0;
	let bodyBytes = 0;
	globalThis.fetch = async (input, init) => {
		const started = performance.now();
		bodyBytes += typeof init?.body === "string" ? Buffer.byteLength(init.body) : 0;
		const response = await fake.fetch(input, init);
		vendorMs += performance.now() - started;
		return response;
	};
	const ctx = { env: KEYS, signal: new AbortController().signal, timings: {} };
	const job = {
		sourceLanguage: "ja",
		targetLanguage: "en",
		mode: "manga",
		translator,
		width: raster.width,
		height: raster.height,
	};
	const started = performance.now();
	const result = await readAndTranslate(raster, job, ctx);
	const totalMs = performance.now() - started;
	return { result, totalMs, vendorMs, bodyBytes, calls: fake.calls.length };
}

function median(values) {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

const kB = (n) => `${(n / 1024).toFixed(0)} kB`;
const ms = (n) => `${n.toFixed(1)} ms`;

console.log("generating images (synthetic corpus)...");
const photo = (
	await makeSample({
		name: "photo",
		kind: "texture",
		script: "latin",
		seed: 3,
		width: 6000,
		height: 4000,
		regionCount: 4,
	})
).image;
const manga = (
	await makeSample({ name: "manga", kind: "flat", script: "ja", seed: 5, width: 1000, height: 1500, regionCount: 6 })
).image;
const strip = (
	await makeSample({ name: "strip", kind: "flat", script: "ja", seed: 7, width: 800, height: 12000, regionCount: 12 })
).image;

// Memory first, before anything else has grown photon's Wasm memory: what making the reader
// copy of the 24 MP photo adds on top of the decoded raster it is given.
{
	globalThis.gc();
	const before = process.memoryUsage();
	const copy = readerCopy(photo, { x: 0, y: 0, width: photo.width, height: photo.height });
	const during = process.memoryUsage();
	globalThis.gc();
	const after = process.memoryUsage();
	const MB = (n) => `${(n / 1024 / 1024).toFixed(1)} MB`;
	console.log("\nmemory for the 24 MP reader copy (raster itself not counted)");
	console.log(
		`  JS array buffers +${MB(during.arrayBuffers - before.arrayBuffers)} right after, +${MB(after.arrayBuffers - before.arrayBuffers)} once collected; RSS +${MB(during.rss - before.rss)} (includes photon's Wasm memory growth); copy ${copy.width}x${copy.height}`,
	);
}

console.log("\nbytes sent to the reader (one call, grok)");
for (const [name, slug, raster] of [
	["24 MP photo 6000x4000", "photo", photo],
	["1.5 MP manga page 1000x1500", "manga", manga],
	["webtoon strip 800x12000", "strip", strip],
]) {
	const windows = readingWindows(raster.width, raster.height);
	const copies = windows.map((w) => readerCopy(raster, w));
	const jpegBytes = copies.reduce((sum, c) => sum + (c.base64.length * 3) / 4, 0);
	for (const [i, copy] of copies.entries()) {
		writeFileSync(join(out, `reader-${slug}-${i}.jpg`), Buffer.from(copy.base64, "base64"));
	}
	const { bodyBytes, calls } = await run(raster, "grok");
	const sizes = copies.map((c) => `${c.width}x${c.height}`).join(", ");
	console.log(
		`  ${name}: raster ${kB(raster.data.length)}; ${windows.length} reader cop${windows.length > 1 ? "ies" : "y"} ${sizes}; JPEG ${kB(jpegBytes)}; request bodies ${kB(bodyBytes)} in ${calls} request(s)`,
	);
}

console.log("\nround trips per call");
for (const translator of ["grok", "gemini", "claude", "kimi", "chatgpt", "deepseek"]) {
	const { result, calls } = await run(manga, translator);
	console.log(`  ${translator}: ${result.roundTrips} round trip(s), ${calls} request(s)`);
}

console.log("\nreader copy: downscale straight from the raster, then JPEG (median)");
for (const [name, raster] of [
	["24 MP photo", photo],
	["1.5 MP manga page", manga],
]) {
	const whole = { x: 0, y: 0, width: raster.width, height: raster.height };
	const scaleMs = [];
	const copyMs = [];
	for (let i = 0; i < 9; i++) {
		let t = performance.now();
		downscale(raster, whole, READER_LONG_EDGE);
		scaleMs.push(performance.now() - t);
		t = performance.now();
		readerCopy(raster, whole);
		copyMs.push(performance.now() - t);
	}
	const scale = median(scaleMs);
	console.log(
		`  ${name}: downscale ${ms(scale)}, JPEG encode ${ms(median(copyMs) - scale)}, total ${ms(median(copyMs))}`,
	);
}

// Around the calls, without the image work: a 64x64 image costs next to nothing to copy, so what
// remains of the wall time, less the fake vendor's own time, is prompts, request JSON, reply
// parsing, box mapping, dedupe and bookkeeping.
console.log("\ntime our code adds around model calls, reader copy excluded (instant fake; median of 200 runs)");
const tiny = { width: 64, height: 64, data: new Uint8Array(64 * 64 * 4).fill(255) };
for (const translator of ["grok", "gemini", "claude", "deepseek"]) {
	const overhead = [];
	for (let i = 0; i < 200; i++) {
		const { totalMs, vendorMs } = await run(tiny, translator);
		overhead.push(totalMs - vendorMs);
	}
	console.log(`  ${translator}: ${ms(median(overhead))} (max ${ms(Math.max(...overhead))})`);
}
console.log(`\nmachine: Node ${process.version}, ${process.platform}/${process.arch}`);
