#!/usr/bin/env node
/**
 * The layout stage against what came before it (issue 10): the same inputs erased with exact boxes
 * and with the rough reader's (test/fakes/rough.mjs, seed 7), by the erase stage of the BASELINE
 * commit (lettering looked for within the reader's box only) and by layout + erase now, all in one
 * run. Inputs: the synthetic corpus (bench/corpus/synthetic.mjs) and the real-looking pages
 * (bench/corpus/pages). Scores, against the clean plate:
 *   - PSNR (RGB) over the lettering dilated by 2 px;
 *   - residue: share of the source's characters tesseract still reads on the erased image;
 *   - left: share of lettering pixels still as drawn (over 60 levels from the plate);
 *   - art: share of the other pixels (3 px and more from lettering) changed by over 24 levels;
 *   - overprinted: blocks whose translation's ink can land on 20 or more lettering pixels left: the
 *     block's room as the typesetter makes it (typeset/room.ts), the typesetter's gap in from its edge
 *     (before the layout stage: the erased box and the text box); a cover panel hides what is under it;
 *   - stubs: blocks not overprinted with 20 or more lettering pixels left in their container's box, out
 *     of the ink's reach (glyph pieces left beside the translation, or fused to a tight outline);
 *   - lettering meant to stay is not scored: blocks the model left unchanged, and under cover panels
 *     (counted as covered);
 *   - text lost: characters of the regions' translations (repeats counted once, spaces aside) that no
 *     block listing the region carries (bench/lost-translation.mjs); every translation must reach the page;
 *   - speed: layout and erase ms per megapixel of image (best of 5, before and after taking turns, node),
 *     against the baseline's erase.
 * Rough boxes are drawn with several seeds (rows "rough" average them; counts add up), as bench/pages.mjs
 * does: one draw of the rough reader can miss what another shows (a box holding two balloons).
 * Typesetting quality with rough boxes is bench/pages.mjs's; this one says what the layout stage changed.
 * Writes the erased images to bench/out/layout/ to look at.
 * Usage: node bench/layout.mjs [--no-ocr] [--seeds 1,3,7,11,23]
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { roughen } from "../test/fakes/rough.mjs";
import { makePages } from "./corpus/pages/index.mjs";
import { writePng } from "./corpus/png.mjs";
import { corpus, makeSample } from "./corpus/synthetic.mjs";
import { lostTranslation } from "./lost-translation.mjs";
import { nearText, ocr, psnr, shareRead } from "./scores.mjs";
import { bundleWithWasm } from "./typeset/bundle.mjs";

/** The last commit before the layout stage: erase found lettering only inside the reader's box. */
const BASELINE = "557db43";
const OUT = "bench/out/layout";
const seedsAt = process.argv.indexOf("--seeds");
const SEEDS = (seedsAt >= 0 ? process.argv[seedsAt + 1] : "1,3,7,11,23").split(",").map(Number);
/** tesseract's language per source language of the pages. */
const TESSERACT = { en: "eng", ja: "jpn", ko: "kor", zh: "chi_sim" };
const useOcr = !process.argv.includes("--no-ocr");
const ROOT = resolve(import.meta.dirname, "..");

mkdirSync(OUT, { recursive: true });
const after = await bundleWithWasm(
	`export { layOut } from "./test/support/lay-out.ts"; export { roomFrame } from "./src/pipeline/typeset/room.ts"; export { ART_GAP_EM } from "./src/pipeline/typeset/plan.ts";`,
	ROOT,
	"layout-after",
);
const before = await baseline();

const inputs = [];
for (const spec of corpus()) inputs.push(fromCorpus(await makeSample(spec)));
for (const page of await makePages()) inputs.push(fromPage(page));

const rows = [];
for (const input of inputs) {
	for (const seed of [undefined, ...SEEDS]) {
		const boxes = seed === undefined ? "exact" : "rough";
		const regions = seed === undefined ? input.regions : roughRegions(input, seed);
		const timed = bestOf(
			before
				? { before: () => runBefore(input, regions), after: () => runAfter(input, regions) }
				: { after: () => runAfter(input, regions) },
		);
		for (const [stage, result] of Object.entries(timed)) {
			const row = { name: input.name, kind: input.kind, boxes, seed, stage, ...score(input, result) };
			if (result.blocks) {
				const { characters, lost, regions: lossy } = lostTranslation(regions, result.blocks);
				Object.assign(row, { characters, lost, lossy });
			}
			const drawn = seed === undefined ? boxes : `rough-${seed}`;
			if (useOcr) row.residue = residue(input, result.image, `${input.name}.${drawn}.${stage}`);
			rows.push(row);
			console.error(
				`${input.name.padEnd(20)} ${drawn.padEnd(8)} ${stage.padEnd(6)} PSNR ${row.psnr.toFixed(1).padStart(5)} dB  left ${pct(row.left)}  art ${pct(row.art)}  overprinted ${row.overprinted}/${row.blocks}  stubs ${row.stubs}${row.lost ? `  text lost ${row.lost}/${row.characters}` : ""}  ${row.ms.toFixed(1)} ms${useOcr ? `  residue ${pct(row.residue)}` : ""}`,
			);
		}
	}
}
report();

/** The baseline's erase, bundled from its sources (undefined when git cannot give them). */
async function baseline() {
	const dir = join(ROOT, "bench/out/layout-baseline");
	try {
		rmSync(dir, { recursive: true, force: true });
		mkdirSync(dir, { recursive: true });
		execFileSync("sh", ["-c", `git archive ${BASELINE} src | tar -x -C ${dir}`], { cwd: ROOT, stdio: "ignore" });
	} catch {
		console.error(`No baseline: commit ${BASELINE} is not in this clone; "before" rows are left out.`);
		return undefined;
	}
	return bundleWithWasm(`export { eraseRegions } from "./src/pipeline/erase/index.ts";`, dir, "layout-before");
}

/**
 * Each stage's best of five runs (each part's best), the stages taking turns so that load, JIT warm-up
 * and garbage left by one stage weigh on both alike; a collection before each run when node was started
 * with --expose-gc (bench/run.mjs does). The image of each stage's last run.
 */
function bestOf(stages) {
	const best = {};
	for (let k = 0; k < 5; k++) {
		for (const [stage, run] of Object.entries(stages)) {
			globalThis.gc?.();
			const result = run();
			const was = best[stage];
			const eraseMs = Math.min(was?.eraseMs ?? Number.POSITIVE_INFINITY, result.ms - result.layoutMs);
			const layoutMs = Math.min(was?.layoutMs ?? Number.POSITIVE_INFINITY, result.layoutMs);
			best[stage] = { ...result, eraseMs, layoutMs };
		}
	}
	for (const result of Object.values(best)) result.ms = result.eraseMs + result.layoutMs;
	return best;
}

function runBefore(input, regions) {
	const image = copy(input.image);
	const started = performance.now();
	const erased = before.eraseRegions(image, regions, input.mode);
	const ms = performance.now() - started;
	// Typesetting drew in the erased area (and the text box); keep-alike regions did not exist.
	const areas = erased.map((e) => ({ box: union(e.textBox, e.erasedBox), cover: false }));
	return { image, ms, layoutMs: 0, areas };
}

function runAfter(input, regions) {
	const image = copy(input.image);
	const { blocks, ms } = after.layOut(image, regions, input.mode);
	const areas = blocks
		.filter((b) => b.treatment !== "keep")
		.map((b) => ({
			box: b.treatment === "cover" ? b.textBox : b.container.box,
			cover: b.treatment === "cover",
			inkReach: b.treatment === "cover" ? undefined : inkReach(b, image),
		}));
	return { image, ms: ms.layout + ms.erase, layoutMs: ms.layout, areas, blocks };
}

/** Whether the typesetter may put ink on pixel (x, y): inside the block's room, its gap in from the edge. */
function inkReach(block, image) {
	const room = after.roomFrame(block, image);
	if (!room) return () => false;
	const gap = Math.max(1, after.ART_GAP_EM * (Number.isFinite(block.sourceSize) ? block.sourceSize : 0));
	const rows = new Map();
	return (x, y) => {
		if (!rows.has(y)) rows.set(y, room.across(y, y + 1, gap));
		const span = rows.get(y);
		return span !== null && x + 0.5 >= span.from && x + 0.5 <= span.to;
	};
}

function score(input, { image, ms, layoutMs, areas }) {
	const { width, height, plate } = input;
	// Lettering meant to stay: blocks the model left unchanged (kept) and blocks covered by a panel.
	const coverage = input.coverage.slice();
	const unscored = [
		...input.regions.filter((r) => normalised(r.text) === normalised(r.translation)).map((r) => r.box),
		...areas.filter((a) => a.cover).map((a) => grow(a.box, 3)),
	];
	for (const b of unscored)
		for (let y = Math.max(0, b.y0); y < Math.min(height, b.y1); y++)
			for (let x = Math.max(0, b.x0); x < Math.min(width, b.x1); x++) coverage[y * width + x] = 0;
	const differs = (i) =>
		Math.max(
			Math.abs(image.data[i * 4] - plate.data[i * 4]),
			Math.abs(image.data[i * 4 + 1] - plate.data[i * 4 + 1]),
			Math.abs(image.data[i * 4 + 2] - plate.data[i * 4 + 2]),
		);
	const left = new Uint8Array(width * height);
	let letters = 0;
	let lettersLeft = 0;
	let others = 0;
	let artChanged = 0;
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			const i = y * width + x;
			if (coverage[i] > 128) {
				letters++;
				if (differs(i) > 60) {
					left[i] = 1;
					lettersLeft++;
				}
			} else if (!nearText(coverage, width, height, x, y, 3)) {
				others++;
				if (differs(i) > 24) artChanged++;
			}
		}
	}
	const leftIn = (b, reach = () => true) => {
		let n = 0;
		for (let y = Math.max(0, b.y0); y < Math.min(height, b.y1); y++)
			for (let x = Math.max(0, b.x0); x < Math.min(width, b.x1); x++) if (reach(x, y)) n += left[y * width + x];
		return n;
	};
	// A cover panel (3 px past the text box) hides the lettering under it.
	const printed = areas.filter((a) => !a.cover);
	const over = printed.filter((a) => leftIn(a.box, a.inkReach) >= 20);
	const overprinted = over.length;
	const stubs = printed.filter((a) => !over.includes(a) && leftIn(a.box) >= 20).length;
	const mp = (width * height) / 1e6;
	return {
		psnr: psnr({ ...input, coverage }, image),
		covered: areas.filter((a) => a.cover).length,
		left: lettersLeft / Math.max(1, letters),
		art: artChanged / Math.max(1, others),
		overprinted,
		stubs,
		blocks: areas.length,
		ms,
		msPerMp: ms / mp,
		layoutMsPerMp: layoutMs / mp,
		eraseMsPerMp: (ms - layoutMs) / mp,
	};
}

function residue(input, image, name) {
	const file = join(OUT, `${name}.erased.png`);
	writeFileSync(file, writePng(image));
	// Lettering meant to stay (a brand the model left unchanged) is not residue.
	const source = input.regions
		.filter((r) => normalised(r.text) !== normalised(r.translation))
		.map((r) => r.text)
		.join("");
	return shareRead(source, ocr(file, input.tesseract));
}

function report() {
	const machine = `${process.version}`;
	const mean = (of, f) => of.reduce((sum, r) => sum + f(r), 0) / Math.max(1, of.length);
	const select = (f) => rows.filter(f);
	console.log(
		`Erase with exact and with rough boxes (test/fakes/rough.mjs, seeds ${SEEDS.join(", ")}, averaged: centre off by up to 12% of the box, size -20% to +30%, some boxes cut short, merged, split, repeated), before the layout stage (erase within the reader's boxes, commit ${BASELINE}) and after (layout + erase), in one run (node ${machine}), on the synthetic corpus and the real-looking pages (bench/corpus/pages). ` +
			"PSNR over the lettering dilated by 2 px against the clean plate; residue: share of the source's characters tesseract reads on the erased image; left: lettering pixels still as drawn; art: other pixels (3 px and more from lettering) changed; overprinted: blocks whose translation's ink can land (its room, the typesetter's gap in from the edge) on 20 or more lettering pixels left; stubs: other blocks with 20 or more left in their container's box; text lost: characters of the regions' translations (repeats once, spaces aside) no block listing the region carries, of all. Images: bench/out/layout/.\n",
	);
	const kinds = [...new Set(rows.map((r) => r.kind))];
	console.log(
		`| background | boxes | PSNR before | PSNR after |${useOcr ? " residue before | residue after |" : ""} left before | left after | art after | overprinted before | overprinted after | stubs after | covered after | text lost after |`,
	);
	console.log(`|---|---|---|---|${useOcr ? "---|---|" : ""}---|---|---|---|---|---|---|---|`);
	for (const kind of kinds) {
		for (const boxes of ["exact", "rough"]) {
			const b = select((r) => r.kind === kind && r.boxes === boxes && r.stage === "before");
			const a = select((r) => r.kind === kind && r.boxes === boxes && r.stage === "after");
			const dB = (of) => (of.length ? `${mean(of, (r) => r.psnr).toFixed(1)} dB` : "n/a");
			const share = (of, f) => (of.length ? pct(mean(of, f)) : "n/a");
			const count = (of) =>
				of.length ? `${of.reduce((n, r) => n + r.overprinted, 0)}/${of.reduce((n, r) => n + r.blocks, 0)}` : "n/a";
			const ocrCells = useOcr ? ` ${share(b, (r) => r.residue)} | ${share(a, (r) => r.residue)} |` : "";
			console.log(
				`| ${kind === "page" ? "real-looking pages" : kind} | ${boxes} | ${dB(b)} | ${dB(a)} |${ocrCells} ${share(b, (r) => r.left)} | ${share(a, (r) => r.left)} | ${share(a, (r) => r.art)} | ${count(b)} | ${count(a)} | ${a.reduce((n, r) => n + r.stubs, 0)} | ${a.reduce((n, r) => n + r.covered, 0)} | ${lostOf(a)} |`,
			);
		}
	}
	console.log("\nReal-looking pages, one by one (after; rough: the seeds averaged, counts added):\n");
	console.log(
		`| page | boxes | PSNR |${useOcr ? " residue |" : ""} left | art | overprinted | stubs | covered | text lost |`,
	);
	console.log(`|---|---|---|${useOcr ? "---|" : ""}---|---|---|---|---|---|`);
	for (const name of new Set(select((r) => r.kind === "page").map((r) => r.name))) {
		for (const boxes of ["exact", "rough"]) {
			const of = select((r) => r.name === name && r.boxes === boxes && r.stage === "after");
			const sum = (f) => of.reduce((n, r) => n + f(r), 0);
			console.log(
				`| ${name} | ${boxes} | ${mean(of, (r) => r.psnr).toFixed(1)} dB |${useOcr ? ` ${pct(mean(of, (r) => r.residue))} |` : ""} ${pct(mean(of, (r) => r.left))} | ${pct(mean(of, (r) => r.art))} | ${sum((r) => r.overprinted)}/${sum((r) => r.blocks)} | ${sum((r) => r.stubs)} | ${sum((r) => r.covered)} | ${lostOf(of)} |`,
			);
		}
	}
	const marked = select(
		(r) => r.stage === "after" && (r.overprinted > 0 || r.stubs > 0 || r.covered > 0 || r.lost > 0),
	);
	console.log(
		"\nInputs where a block was printed over lettering left, left stubs, or was covered, or a translation lost text (after), by draw:\n",
	);
	console.log("| input | boxes | overprinted | stubs | covered | text lost |");
	console.log("|---|---|---|---|---|---|");
	for (const r of marked)
		console.log(
			`| ${r.name} | ${r.seed === undefined ? "exact" : `rough, seed ${r.seed}`} | ${r.overprinted}/${r.blocks} | ${r.stubs} | ${r.covered} | ${r.lost ? `${r.lost}/${r.characters}: ${r.lossy.map((l) => JSON.stringify(l.translation)).join(", ")}` : 0} |`,
		);
	console.log("\nSpeed, ms per megapixel of image (best of 5 runs each, before and after taking turns, node):\n");
	console.log("| inputs | boxes | erase before | layout after | erase after | added by layout + erase |");
	console.log("|---|---|---|---|---|---|");
	for (const [label, test] of [
		["synthetic corpus (720×540)", (r) => r.kind !== "page"],
		["real-looking pages", (r) => r.kind === "page"],
	]) {
		for (const boxes of ["exact", "rough"]) {
			const b = select((r) => test(r) && r.boxes === boxes && r.stage === "before");
			const a = select((r) => test(r) && r.boxes === boxes && r.stage === "after");
			const perMp = (of, f) => mean(of, f);
			const beforeMs = b.length ? perMp(b, (r) => r.msPerMp) : undefined;
			const added = beforeMs === undefined ? "n/a" : (perMp(a, (r) => r.msPerMp) - beforeMs).toFixed(1);
			console.log(
				`| ${label} | ${boxes} | ${beforeMs === undefined ? "n/a" : beforeMs.toFixed(1)} | ${perMp(a, (r) => r.layoutMsPerMp).toFixed(1)} | ${perMp(a, (r) => r.eraseMsPerMp).toFixed(1)} | ${added} |`,
			);
		}
	}
}

/** Translation characters lost of all (text lost), summed over rows. */
function lostOf(rows) {
	const lost = rows.reduce((n, r) => n + r.lost, 0);
	const characters = rows.reduce((n, r) => n + r.characters, 0);
	return `${lost}/${characters}`;
}

/**
 * A synthetic sample as an input: regions with the line boxes its coverage shows, a translation
 * each, its own (a translation lost is then not hidden by another region's, the same), and never
 * the source's words: the rough reader's halves of a region would then be translated as their own
 * text, and kept unchanged.
 */
function fromCorpus(sample) {
	const regions = sample.regions.map((r) => ({
		id: r.id,
		text: r.text,
		box: r.box,
		vertical: r.vertical,
		translation: `Translated text ${r.id + 1}`,
		lines: linesOf(sample, r),
	}));
	return { ...sample, mode: "manga", regions };
}

/** A real-looking page as an input: its blocks as the reader's regions, exact. */
function fromPage(page) {
	const regions = page.blocks.map((b) => ({
		id: b.id,
		text: b.text,
		box: b.box,
		vertical: b.vertical,
		translation: b.translation,
		lines: b.lines,
	}));
	return { ...page, kind: "page", tesseract: TESSERACT[page.source], regions };
}

/** The rough reader's version of the input's regions, in whole pixels. */
function roughRegions(input, seed) {
	const round = (b) => ({ x0: Math.floor(b.x0), y0: Math.floor(b.y0), x1: Math.ceil(b.x1), y1: Math.ceil(b.y1) });
	return roughen(input.regions, { seed, width: input.width, height: input.height }).map((r, id) => ({
		...r,
		id,
		box: round(r.box),
		lines: r.lines?.map((l) => ({ ...l, box: round(l.box) })),
	}));
}

/** Lines (or columns) of a region's ink, as the coverage shows them, when there are as many as its lines. */
function linesOf(sample, region) {
	const { width, coverage } = sample;
	const b = region.exactBox;
	const bands = [];
	const across = region.vertical ? [b.x0, b.x1] : [b.y0, b.y1];
	let start = -1;
	for (let a = across[0]; a <= across[1]; a++) {
		let ink = false;
		if (a < across[1]) {
			const [from, to] = region.vertical ? [b.y0, b.y1] : [b.x0, b.x1];
			for (let k = from; k < to && !ink; k++) ink = coverage[region.vertical ? k * width + a : a * width + k] > 64;
		}
		if (ink && start < 0) start = a;
		if (!ink && start >= 0) {
			bands.push([start, a]);
			start = -1;
		}
	}
	// Glyphs with gaps across (Korean jamo, accents) split lines: keep bands at least a third of a line thick.
	const thick = bands.filter(([s, e]) => e - s >= (across[1] - across[0]) / (3 * region.lines.length));
	if (thick.length !== region.lines.length) return undefined;
	const ordered = region.vertical ? [...thick].reverse() : thick;
	return ordered.map(([s, e], k) => ({
		text: region.lines[k],
		box: region.vertical ? { x0: s, y0: b.y0, x1: e, y1: b.y1 } : { x0: b.x0, y0: s, x1: b.x1, y1: e },
	}));
}

function normalised(text) {
	return text.normalize("NFKC").toLowerCase().replace(/\s+/gu, "");
}

function grow(b, d) {
	return { x0: b.x0 - d, y0: b.y0 - d, x1: b.x1 + d, y1: b.y1 + d };
}

function copy(image) {
	return { width: image.width, height: image.height, data: image.data.slice() };
}

function union(a, b) {
	return { x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) };
}

function pct(v) {
	return `${(100 * v).toFixed(1)}%`;
}
