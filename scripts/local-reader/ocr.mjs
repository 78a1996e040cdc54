/**
 * The OCR engine of the local reader: tesseract.js (Tesseract's LSTM models compiled to WebAssembly)
 * with its language data from npm packages (@tesseract.js-data/*), so it runs offline. Loaded on the
 * first read, not when the module is imported; one engine per language set, kept for later reads.
 *
 * Two passes, because Tesseract finds either layout well but not both at once: automatic page
 * layout (horizontal lines, paragraphs, labels) and sparse text with orientation (vertical columns,
 * lettering scattered over art). Their lines are pooled; where two passes read the same place, the
 * more confident reading stays.
 */
import { existsSync, mkdirSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);

/**
 * Tesseract's language data per source language and pass: automatic page layout (psm 3) with English
 * beside the language for brands and numbers, and sparse text with orientation (psm 12) with the
 * vertical model where there is one (English there turns vertical kanji into Latin noise).
 * Latin-script and other languages are read with English data.
 */
const PASSES = {
	ja: [
		{ psm: "3", languages: ["jpn", "eng"] },
		{ psm: "12", languages: ["jpn", "jpn_vert"] },
	],
	zh: [
		{ psm: "3", languages: ["chi_sim", "eng"] },
		{ psm: "12", languages: ["chi_sim"] },
	],
	ko: [
		{ psm: "3", languages: ["kor", "eng"] },
		{ psm: "12", languages: ["kor"] },
	],
	en: [
		{ psm: "3", languages: ["eng"] },
		{ psm: "12", languages: ["eng"] },
	],
};
/** Below this confidence (0..100) a reading is more often noise than text. */
const MIN_CONFIDENCE = 55;
/** Two readings overlapping this much (of the smaller box) are of the same text. */
const SAME_PLACE = 0.5;

/** @typedef {{ x0: number, y0: number, x1: number, y1: number }} Box */
/** @typedef {{ text: string, box: Box, vertical: boolean, confidence: number }} Line */

const engines = new Map();

/**
 * Lines of text in an image (PNG or JPEG bytes), in its pixels, for a source language (ja, zh, ko,
 * en, ...; anything else is read as Latin script).
 * @returns {Promise<Line[]>}
 */
export async function readLines(image, source) {
	const found = [];
	for (const { psm, languages } of PASSES[source] ?? PASSES.en) {
		const engine = await engineFor(languages);
		// Tesseract's own chatter (resolution estimates, the missing OSD model) goes nowhere.
		await engine.setParameters({ tessedit_pageseg_mode: psm, debug_file: "/dev/null" });
		const { data } = await engine.recognize(image, {}, { blocks: true, text: false });
		for (const block of data.blocks ?? [])
			for (const paragraph of block.paragraphs)
				for (const line of paragraph.lines) {
					const reading = lineOf(line);
					if (reading) found.push(reading);
				}
	}
	return bestOfOverlapping(found);
}

/** Frees every engine (tests and shutdown). */
export async function closeEngines() {
	const all = [...engines.values()];
	engines.clear();
	await Promise.all(all.map(async (engine) => (await engine).terminate()));
}

function engineFor(languages) {
	const key = languages.join("+");
	if (!engines.has(key)) engines.set(key, startEngine(languages));
	return engines.get(key);
}

async function startEngine(languages) {
	const { createWorker, OEM } = await import("tesseract.js");
	quietTesseract();
	// tesseract.js reads `<langPath>/<lang>.traineddata.gz`; each language is its own npm package, so
	// the files are linked side by side (its in-memory form of language data is broken in 7.0.0).
	const langPath = join(dirname(require.resolve("tesseract.js/package.json")), "..", ".cache", "yakusu-tessdata");
	mkdirSync(langPath, { recursive: true });
	for (const lang of languages) {
		const link = join(langPath, `${lang}.traineddata.gz`);
		if (existsSync(link)) continue;
		const pkg = dirname(require.resolve(`@tesseract.js-data/${lang}/package.json`));
		symlinkSync(join(pkg, "4.0.0_best_int", `${lang}.traineddata.gz`), link);
	}
	return createWorker(languages, OEM.LSTM_ONLY, { langPath, cacheMethod: "none", gzip: true });
}

/**
 * Tesseract prints to stderr while it loads data, before any parameter can send it elsewhere ("Error
 * opening data file ./.traineddata" when two models share an engine, though both load): those lines
 * are dropped from this process's stderr, everything else passes.
 */
function quietTesseract() {
	if (quietTesseract.done) return;
	quietTesseract.done = true;
	const chatter =
		/^(Error opening data file|Please make sure the TESSDATA_PREFIX|Failed loading language|Tesseract couldn't load|Estimating resolution|Warning: Auto orientation)/;
	const write = process.stderr.write.bind(process.stderr);
	process.stderr.write = (chunk, ...rest) => {
		const kept = String(chunk)
			.split("\n")
			.filter((line) => !chatter.test(line))
			.join("\n");
		return kept.trim() === "" ? true : write(kept, ...rest);
	};
}

/** A Tesseract line as ours, or undefined when it holds no letter or is read with too little confidence. */
function lineOf(line) {
	const text = tidy(line.text);
	if (!/[\p{L}\p{N}]/u.test(text) || line.confidence < MIN_CONFIDENCE) return undefined;
	const { x0, y0, x1, y1 } = line.bbox;
	const box = { x0, y0, x1, y1 };
	return { text, box, vertical: runsDown(text, box), confidence: line.confidence };
}

/** A column: much taller than wide, and more than one character (one character is square either way). */
export function runsDown(text, box) {
	const chars = [...text.replace(/\s/g, "")].length;
	return chars > 1 && box.y1 - box.y0 > 1.5 * (box.x1 - box.x0);
}

/** Tesseract spaces out CJK characters ("これ は 秘"): the spaces between them go, Latin spacing stays. */
export function tidy(text) {
	const cjk = "\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}ー、。！？「」";
	const between = new RegExp(`(?<=[${cjk}])\\s+(?=[${cjk}])`, "gu");
	return text
		.replace(/\s*\n\s*/g, " ")
		.trim()
		.replace(between, "");
}

/** Of readings that overlap, the most confident (weighted by how much it read) stays. */
function bestOfOverlapping(lines) {
	const score = (l) => l.confidence * Math.sqrt([...l.text].length);
	const sorted = [...lines].sort((a, b) => score(b) - score(a));
	const kept = [];
	for (const line of sorted) if (!kept.some((k) => overlap(k.box, line.box) >= SAME_PLACE)) kept.push(line);
	return kept;
}

function overlap(a, b) {
	const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
	const h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
	if (w <= 0 || h <= 0) return 0;
	const smaller = Math.min((a.x1 - a.x0) * (a.y1 - a.y0), (b.x1 - b.x0) * (b.y1 - b.y0));
	return (w * h) / smaller;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	// node scripts/local-reader/ocr.mjs image.png ja   — prints what the engine reads, line by line.
	const { readFileSync } = await import("node:fs");
	const lines = await readLines(readFileSync(process.argv[2]), process.argv[3] ?? "ja");
	for (const l of lines) console.log(JSON.stringify(l));
	await closeEngines();
}
