// What the read and translate stages cost, against the fake vendor run in process. Usage:
// node bench/models.mjs (Node 20). Figures for docs/benchmarks.md:
//   - wall time of the model work of a call on an ordinary manga page (8 balloons) and a dense one
//     (60), with the fake answering at 40 and at 90 output tokens a second after 0.8 s to its first
//     token, one translator per wire protocol, and the output tokens each request wrote; "before"
//     is the same page answered in one request with every block's lines and colour, as reads
//     were asked before pages were read in parts;
//   - bytes sent to the reader for a 24-megapixel photo and a 1.5-megapixel manga page;
//   - time our own code adds around the model calls: the reader copy (rows averaged down and JPEG
//     encoded as they come) and
//     everything else (prompts, JSON, parsing, box mapping, merging), fake vendor time excluded.
//
// The stages (src/pipeline/read.ts and what it imports) are bundled with esbuild into bench/out/
// and run in Node; photon loads its Node build. Pages are drawn by bench/model-pages.mjs; the
// fake answers each request with the blocks visible in the image it was sent, found by matching
// that image against the page. Writes the pages to bench/out/ so they can be looked at.

import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { PhotonImage } from "@cf-wasm/photon";
import { build } from "esbuild";
import { createFakeVendor, tokenize } from "../test/fakes/vendor.mjs";
import { writePng } from "./corpus/png.mjs";
import { makeSample } from "./corpus/synthetic.mjs";
import { makeComicPage } from "./model-pages.mjs";

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
			'export { READER_LONG_EDGE, ReaderCopier, readerImage, readingWindows } from "./src/pipeline/read-copy.ts";',
			'export { gridParts, halves } from "./src/pipeline/read-plan.ts";',
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
const { readAndTranslate, READER_LONG_EDGE, ReaderCopier, readerImage, readingWindows, gridParts, halves } =
	await import(pathToFileURL(bundle).href);

/** The reader's view of a raster, its rows handed over as the pipeline's decoder does. */
const readerImageOf = (raster) =>
	readerImage(raster.width, raster.height, (sink) => sink.rows(0, raster.height, raster.data));

/** The reader copy of one window of a raster. */
function readerCopy(raster, window) {
	const copier = new ReaderCopier(raster.width, [window]);
	copier.rows(0, raster.height, raster.data);
	return copier.finish()[0];
}

const KEYS = {
	XAI_API_KEY: "bench",
	GEMINI_API_KEY: "bench",
	DEEPSEEK_API_KEY: "bench",
	MOONSHOT_API_KEY: "bench",
	OPENAI_API_KEY: "bench",
	ANTHROPIC_API_KEY: "bench",
};

/** A Japanese manga page to translate into English. */
function mangaJob(raster, translator) {
	return {
		sourceLanguage: "ja",
		targetLanguage: "en",
		mode: "manga",
		translator,
		width: raster.width,
		height: raster.height,
	};
}

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
	const started = performance.now();
	const result = await readAndTranslate(await readerImageOf(raster), mangaJob(raster, translator), ctx);
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

// Memory: what making the reader copy of the 24 MP photo adds on top of the decoded raster it is given.
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
		`  JS array buffers +${MB(during.arrayBuffers - before.arrayBuffers)} right after, +${MB(after.arrayBuffers - before.arrayBuffers)} once collected; RSS +${MB(during.rss - before.rss)}; copy ${copy.width}x${copy.height}`,
	);
}

// ---------------------------------------------------------------- wall time at a vendor's pace

/** Time to the first token of an answer, on top of writing it. */
const FIRST_TOKEN_MS = 800;

/**
 * A reader that answers with what a perfect model would see in the image it is sent: the page's
 * blocks that lie mostly inside it, boxes in 0..1000 of that image. Which part of the page the
 * image shows is found by comparing it with the page's possible parts (whole, grid, halves).
 */
function pageReader(page) {
	const { image: raster, blocks } = page;
	const glosses = new Map(blocks.map((b) => [b.text, b.translation]));
	const candidates = [];
	for (let n = 1; n <= 8; n++) {
		for (const rtl of [false, true]) {
			for (const part of gridParts(raster, n, rtl)) candidates.push(part, ...halves(part));
		}
	}
	return (task, image) => {
		if (task.kind === "translate") {
			return {
				translations: task.items.map((item) => ({ id: item.id, text: glosses.get(item.text) ?? `[en] ${item.text}` })),
			};
		}
		const window = locate(raster, candidates, image);
		const regions = [];
		for (const block of blocks) {
			const b = block.box;
			const x0 = Math.max(b.x0, window.x);
			const y0 = Math.max(b.y0, window.y);
			const x1 = Math.min(b.x1, window.x + window.width);
			const y1 = Math.min(b.y1, window.y + window.height);
			if (x1 <= x0 || y1 <= y0 || (x1 - x0) * (y1 - y0) < 0.5 * (b.x1 - b.x0) * (b.y1 - b.y0)) continue;
			const u = (v, from, size) => Math.round(((v - from) / size) * 1000);
			const box = [
				u(x0, window.x, window.width),
				u(y0, window.y, window.height),
				u(x1, window.x, window.width),
				u(y1, window.y, window.height),
			];
			regions.push({
				text: block.text,
				[task.boxField]: task.boxField === "box_2d" ? [box[1], box[0], box[3], box[2]] : box,
				vertical: block.vertical,
				...(task.kind === "read-translate" ? { translation: block.translation } : {}),
			});
		}
		return { regions };
	};
}

/** The candidate window whose reader copy the sent JPEG is: same size, closest pixels on a 12x12 grid. */
function locate(raster, candidates, image) {
	const photon = PhotonImage.new_from_byteslice(Buffer.from(image.base64, "base64"));
	const width = photon.get_width();
	const height = photon.get_height();
	const sent = photon.get_raw_pixels();
	photon.free();
	let best;
	let bestError = Number.POSITIVE_INFINITY;
	for (const w of candidates) {
		const scale = Math.min(1, READER_LONG_EDGE / Math.max(w.width, w.height));
		if (Math.round(w.width * scale) !== width || Math.round(w.height * scale) !== height) continue;
		let error = 0;
		for (let j = 0; j < 12; j++) {
			for (let i = 0; i < 12; i++) {
				const sx = Math.floor(((i + 0.5) / 12) * width);
				const sy = Math.floor(((j + 0.5) / 12) * height);
				const ox = w.x + Math.floor(((i + 0.5) / 12) * w.width);
				const oy = w.y + Math.floor(((j + 0.5) / 12) * w.height);
				error += Math.abs(sent[(sy * width + sx) * 4] - raster.data[(oy * raster.width + ox) * 4]);
			}
		}
		if (error < bestError) {
			bestError = error;
			best = w;
		}
	}
	if (!best) throw new Error(`bench: no part of the page is ${width}x${height}`);
	return best;
}

/** One call's model work against a fake writing at `rate` tokens/s: wall time, requests, output tokens. */
async function timedCall(page, translator, rate) {
	const fake = createFakeVendor({ reader: pageReader(page), tokensPerSecond: rate, latencyMs: FIRST_TOKEN_MS });
	globalThis.fetch = (input, init) => fake.fetch(input, init);
	const ctx = { env: KEYS, signal: new AbortController().signal, timings: {} };
	const started = performance.now();
	const result = await readAndTranslate(await readerImageOf(page.image), mangaJob(page.image, translator), ctx);
	const seconds = (performance.now() - started) / 1000;
	const tokens = fake.calls.map((c) => c.outputTokens ?? 0);
	return { seconds, result, requests: fake.calls.length, tokens, ctx };
}

/** The page answered as before: one request, every block with its lines and colour, as compact JSON. */
function beforeTokens(page) {
	const regions = page.blocks.map((b) => ({
		text: b.text,
		box: [123, 456, 789, 912],
		vertical: b.vertical,
		lines: b.text.split("\n").map((line) => ({ text: line, box: [123, 456, 789, 912] })),
		color: "#0f0f0f",
		translation: b.translation,
	}));
	return tokenize(JSON.stringify({ regions })).length;
}

console.log("drawing the pages (bench/model-pages.mjs)...");
const pages = [
	[
		"ordinary manga page, 8 balloons, 1000x1500",
		"ordinary",
		await makeComicPage({ balloons: 8, width: 1000, height: 1500, seed: 3 }),
	],
	[
		"dense page, 60 balloons, 1400x2000",
		"dense",
		await makeComicPage({ balloons: 60, width: 1400, height: 2000, seed: 5 }),
	],
];
for (const [, slug, page] of pages) writeFileSync(join(out, `page-${slug}.png`), writePng(page.image));

console.log(
	`\nmodel work of one call, fake answering after ${FIRST_TOKEN_MS / 1000} s to the first token at 40 and 90 output tokens/s`,
);
console.log(
	"| page | translator (protocol) | tok/s | wall s | before s | requests | tokens per request (max) | tokens, all requests | before: tokens, one request | blocks found | retried |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|---|");
const TRANSLATORS = [
	["grok", "OpenAI-compatible, one call"],
	["gemini", "Gemini, one call"],
	["claude", "Anthropic, one call"],
	["deepseek", "OpenAI-compatible, read by gemini + translate"],
];
for (const [name, slug, page] of pages) {
	const before = beforeTokens(page);
	for (const rate of [40, 90]) {
		for (const [translator, protocol] of TRANSLATORS) {
			const { seconds, result, requests, tokens } = await timedCall(page, translator, rate);
			const retried = requests - tokens.filter((t) => t > 0).length;
			console.log(
				`| ${slug} | ${translator} (${protocol}) | ${rate} | ${seconds.toFixed(1)} | ${(FIRST_TOKEN_MS / 1000 + before / rate).toFixed(1)} | ${requests} | ${Math.max(...tokens)} | ${tokens.reduce((a, b) => a + b, 0)} | ${before} | ${result.regions.length} of ${page.blocks.length} | ${retried} |`,
			);
		}
	}
	console.log(`(${name})`);
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

console.log("\nreader copy: rows averaged down and JPEG encoded as they come (median)");
for (const [name, raster] of [
	["24 MP photo", photo],
	["1.5 MP manga page", manga],
]) {
	const whole = { x: 0, y: 0, width: raster.width, height: raster.height };
	const copyMs = [];
	for (let i = 0; i < 9; i++) {
		const t = performance.now();
		readerCopy(raster, whole);
		copyMs.push(performance.now() - t);
	}
	console.log(`  ${name}: ${ms(median(copyMs))}`);
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
