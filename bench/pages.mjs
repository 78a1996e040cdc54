#!/usr/bin/env node
/**
 * Real-looking pages (bench/corpus/pages) lettered by the production stages from the reader's boxes,
 * once with exact boxes (each block's ink box and per-line boxes) and once with rough ones
 * (test/fakes/rough.mjs: moved, scaled, cut short, merged, split, repeated), side by side in one run.
 * Per page and box kind:
 *   - residue: share of the source glyphs' pixels (alpha >= 128) still visible in the output (the erased
 *     image still differs from the clean plate there, and no new lettering or panel covers them);
 *   - PSNR (RGB) of the erased image against the clean plate over the lettering dilated by 2 px;
 *   - overprint: blocks with new lettering drawn in their container while more than 2% of their source
 *     glyphs are still visible (the issue's "printed over unerased lettering", stubs included);
 *   - ink inside containers: share of the new lettering's pixels inside some block's container;
 *   - size spread: within a page, (largest - smallest) / largest of the dialogue balloons' line height;
 *   - CER: tesseract (target language) on each container's crop of the output, against the translation;
 *   - text lost: characters of the regions' translations (repeats counted once, spaces aside) that no
 *     block listing the region carries (bench/lost-translation.mjs);
 *   - erase (and layout, once the stage exists) time per megapixel, node.
 * Blocks whose translation equals their text (a brand, a price) must keep their pixels: counted apart.
 * Writes bench/out/pages/<page>.<exact|rough>.png (and .erased.png) to look at.
 *
 * Rough boxes are drawn with several seeds (one row each), so that no one draw of the rough reader
 * decides the figures.
 *
 *   node bench/pages.mjs [--no-ocr] [--seeds 1,3,7,11,23] [page names...]
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { editDistance } from "../scripts/local-reader/stand-in.mjs";
import { roughen } from "../test/fakes/rough.mjs";
import { insideContainer } from "./corpus/pages/draw.mjs";
import { makePages } from "./corpus/pages/index.mjs";
import { writePng } from "./corpus/png.mjs";
import { lostTranslation } from "./lost-translation.mjs";
import { bundleTypeset, loadFontFromDisk } from "./typeset/bundle.mjs";

const args = process.argv.slice(2);
const useOcr = !args.includes("--no-ocr");
const seedsAt = args.indexOf("--seeds");
const SEEDS = (seedsAt >= 0 ? args[seedsAt + 1] : "1,3,7,11,23").split(",").map(Number);
const names = args.filter((a, i) => !a.startsWith("--") && args[i - 1] !== "--seeds");
/** "exact", then "rough N" for each seed. */
const KINDS = ["exact", ...SEEDS.map((seed) => `rough ${seed}`)];
const OUT = "bench/out/pages";
const TESSERACT = { en: "eng", ja: "jpn", zh: "chi_sim", ko: "kor" };
/** A block counts as printed over its lettering when more than this share of its glyphs stays visible. */
const OVERPRINT_RESIDUE = 0.02;
/** How far in from a container's edge (px) the CER crop keeps pixels: past any outline the pages draw. */
const OUTLINE_MARGIN = 6;

mkdirSync(OUT, { recursive: true });
const stages = await bundleTypeset();
const pages = await makePages(names.length ? names : undefined);

/** What the reader hands over: the exact blocks, or the rough reader's version of them. */
function regionsFor(page, kind) {
	const exact = page.blocks.map((b) => ({
		text: b.text,
		box: b.box,
		vertical: b.vertical,
		lines: b.lines,
		translation: b.translation,
	}));
	const seed = Number(kind.split(" ")[1]);
	const regions = kind === "exact" ? exact : roughen(exact, { seed, width: page.width, height: page.height });
	return regions.map((r, id) => ({
		...r,
		id,
		box: roundBox(r.box),
		lines: r.lines?.map((l) => ({ ...l, box: roundBox(l.box) })),
	}));
}

/** The stages after the read: layout and erase (each timed), typeset, compose. */
async function letter(page, regions) {
	const erased = { ...page.image, data: page.image.data.slice() };
	const { blocks, ms } = stages.layOut(erased, regions, page.mode);
	const { overlays } = await stages.typesetPage(blocks, {
		mode: page.mode,
		sourceLanguage: page.source,
		targetLanguage: page.target,
		imageWidth: page.width,
		imageHeight: page.height,
		loadFont: loadFontFromDisk,
	});
	const output = { ...erased, data: erased.data.slice() };
	for (const overlay of overlays) stages.drawOverlay({ ...output, top: 0 }, overlay);
	return { erased, output, blocks, covered: coverage(page, overlays), eraseMs: ms.erase, layoutMs: ms.layout };
}

/**
 * 1 where an overlay (new lettering, a cover panel) is mostly opaque: what lies under it is hidden,
 * even where the new pixel happens to be the colour of the old one (white lettering on a cover
 * panel over white source lettering).
 */
function coverage(page, overlays) {
	const covered = new Uint8Array(page.width * page.height);
	for (const { x, y, raster } of overlays)
		for (let ty = Math.max(0, y); ty < Math.min(page.height, y + raster.height); ty++)
			for (let tx = Math.max(0, x); tx < Math.min(page.width, x + raster.width); tx++)
				if (raster.data[((ty - y) * raster.width + (tx - x)) * 4 + 3] >= 128) covered[ty * page.width + tx] = 1;
	return covered;
}

// One untimed page first, so that the first page's figures are not the compiler warming up.
await letter(pages[0], regionsFor(pages[0], "exact"));
const rows = [];
for (const page of pages) {
	for (const kind of KINDS) {
		const regions = regionsFor(page, kind);
		const file = kind.replace(" ", "-");
		const { erased, output, blocks, covered, eraseMs, layoutMs } = await letter(page, regions);
		writeFileSync(join(OUT, `${page.name}.${file}.png`), writePng(output));
		writeFileSync(join(OUT, `${page.name}.${file}.erased.png`), writePng(erased));
		const row = { page: page.name, kind, regions: regions.length, ...score(page, erased, output, covered) };
		const { characters, lost } = lostTranslation(regions, blocks);
		Object.assign(row, { characters, lost });
		row.eraseMsPerMp = eraseMs / ((page.width * page.height) / 1e6);
		row.layoutMsPerMp = layoutMs / ((page.width * page.height) / 1e6);
		if (useOcr) row.cer = cer(page, output, file);
		rows.push(row);
		console.error(
			`${page.name.padEnd(14)} ${kind}  ${regions.length} regions  residue ${pct(row.residue)}  PSNR ${row.psnr.toFixed(1)} dB  overprint ${row.overprinted}/${row.replaced}  inside ${pct(row.inside)}  spread ${pct(row.spread)}  text lost ${row.lost}/${row.characters}${useOcr ? `  CER ${pct(row.cer)}` : ""}`,
		);
	}
}

function score(page, erased, output, covered) {
	const { width } = page;
	const differs = (a, b, i, t) => Math.max(...[0, 1, 2].map((c) => Math.abs(a.data[i + c] - b.data[i + c]))) > t;
	// New lettering (or a cover panel): where the output differs from the erased image.
	const drawn = (i) => differs(output, erased, i * 4, 24);
	let visible = 0;
	let glyphs = 0;
	let overprinted = 0;
	let replaced = 0;
	let keptIntact = 0;
	const kept = page.blocks.filter((b) => b.keep);
	const lineHeights = [];
	for (const block of page.blocks) {
		const { box, alpha } = block.ink;
		const w = box.x1 - box.x0;
		let left = 0;
		let total = 0;
		let changedPixels = 0;
		for (let y = box.y0; y < box.y1; y++)
			for (let x = box.x0; x < box.x1; x++) {
				if (alpha[(y - box.y0) * w + (x - box.x0)] < 128) continue;
				const i = y * width + x;
				total++;
				if (differs(output, page.image, i * 4, 24)) changedPixels++;
				if (differs(erased, page.plate, i * 4, 40) && !drawn(i) && !covered[i]) left++;
			}
		if (block.keep) {
			if (changedPixels === 0) keptIntact++;
			continue;
		}
		visible += left;
		glyphs += total;
		const c = clipped(block.container.box, page);
		let inkInContainer = 0;
		const rowsWithInk = [];
		for (let y = c.y0; y < c.y1; y++) {
			let inRow = false;
			for (let x = c.x0; x < c.x1; x++)
				if (insideContainer(block.container, x, y) && drawn(y * width + x)) {
					inkInContainer++;
					inRow = true;
				}
			rowsWithInk.push(inRow);
		}
		if (inkInContainer > 20) {
			replaced++;
			if (left / total > OVERPRINT_RESIDUE) overprinted++;
			if (block.role === "dialogue") lineHeights.push(medianRun(rowsWithInk));
		}
	}
	// Of all new lettering, the share inside some block's container.
	let ink = 0;
	let inside = 0;
	for (let y = 0; y < page.height; y++)
		for (let x = 0; x < width; x++) {
			if (!drawn(y * width + x)) continue;
			ink++;
			if (page.blocks.some((b) => insideContainer(b.container, x, y))) inside++;
		}
	const spread =
		lineHeights.length > 1 ? (Math.max(...lineHeights) - Math.min(...lineHeights)) / Math.max(...lineHeights) : 0;
	return {
		residue: glyphs ? visible / glyphs : 0,
		psnr: psnr(page, erased),
		overprinted,
		replaced,
		keptIntact,
		kept: kept.length,
		inside: ink ? inside / ink : 1,
		spread,
	};
}

/** The median length of the runs of rows with ink: the height of a typeset line, outline included. */
function medianRun(rows) {
	const runs = [];
	let run = 0;
	for (const inked of [...rows, false]) {
		if (inked) run++;
		else if (run > 0) {
			runs.push(run);
			run = 0;
		}
	}
	runs.sort((a, b) => a - b);
	return runs.length ? runs[Math.floor(runs.length / 2)] : 0;
}

/** PSNR of the erased image against the plate, over the lettering of the blocks that are replaced, dilated by 2 px. */
function psnr(page, erased) {
	const { width, height } = page;
	const near = new Uint8Array(width * height);
	for (const block of page.blocks) {
		if (block.keep) continue;
		const { box, alpha } = block.ink;
		const w = box.x1 - box.x0;
		for (let y = box.y0; y < box.y1; y++)
			for (let x = box.x0; x < box.x1; x++) {
				if (!alpha[(y - box.y0) * w + (x - box.x0)]) continue;
				for (let dy = -2; dy <= 2; dy++)
					for (let dx = -2; dx <= 2; dx++) {
						const nx = x + dx;
						const ny = y + dy;
						if (nx >= 0 && ny >= 0 && nx < width && ny < height) near[ny * width + nx] = 1;
					}
			}
	}
	let sum = 0;
	let n = 0;
	for (let i = 0; i < near.length; i++) {
		if (!near[i]) continue;
		for (let c = 0; c < 3; c++) sum += (erased.data[i * 4 + c] - page.plate.data[i * 4 + c]) ** 2;
		n += 3;
	}
	return sum === 0 ? 99 : 10 * Math.log10((255 * 255 * n) / sum);
}

/** Character error rate of tesseract's reading of each replaced block's container in the output. */
function cer(page, output, file) {
	let edits = 0;
	let length = 0;
	for (const block of page.blocks) {
		if (block.keep) continue;
		// The container's inside, a few pixels in from its edge, on white: the balloon's outline and
		// tail are not read as letters, and a line set across an ellipse's widest part is read whole.
		const c = clipped(block.container.box, page);
		const { x0, y0, x1, y1 } = block.container.box;
		const m = OUTLINE_MARGIN;
		const inner = { ...block.container, box: { x0: x0 + m, y0: y0 + m, x1: x1 - m, y1: y1 - m } };
		const crop = join(OUT, `${page.name}.${file}.block-${block.id}.png`);
		writeFileSync(crop, writePng(scaled(output, c, 2, (x, y) => insideContainer(inner, x, y))));
		let read = "";
		try {
			read = execFileSync("tesseract", [crop, "stdout", "-l", TESSERACT[page.target], "--psm", "6"], {
				encoding: "utf8",
				stdio: ["ignore", "pipe", "ignore"],
			});
		} catch {}
		const intended = normalise(block.translation);
		edits += Math.min(editDistance(normalise(read), intended), intended.length);
		length += intended.length;
	}
	return length ? edits / length : 0;
}

/** The box of the image scaled up, pixels outside `keep` (image px) white. */
function scaled(image, box, scale, keep = () => true) {
	const w = (box.x1 - box.x0) * scale;
	const h = (box.y1 - box.y0) * scale;
	const data = new Uint8Array(w * h * 4).fill(255);
	for (let y = 0; y < h; y++)
		for (let x = 0; x < w; x++) {
			const [ix, iy] = [box.x0 + Math.floor(x / scale), box.y0 + Math.floor(y / scale)];
			if (!keep(ix, iy)) continue;
			const s = (iy * image.width + ix) * 4;
			data.set(image.data.subarray(s, s + 4), (y * w + x) * 4);
		}
	return { width: w, height: h, data };
}

function normalise(text) {
	return text.normalize("NFKC").replace(/\s+/g, "");
}

function clipped(box, { width, height }) {
	return {
		x0: Math.max(0, Math.floor(box.x0)),
		y0: Math.max(0, Math.floor(box.y0)),
		x1: Math.min(width, Math.ceil(box.x1)),
		y1: Math.min(height, Math.ceil(box.y1)),
	};
}

function roundBox(b) {
	return { x0: Math.floor(b.x0), y0: Math.floor(b.y0), x1: Math.ceil(b.x1), y1: Math.ceil(b.y1) };
}

function pct(v) {
	return v === undefined ? "n/a" : `${(100 * v).toFixed(1)}%`;
}

// Markdown on stdout (npm run bench puts it in docs/benchmarks.md); progress went to stderr.
console.log(
	`${pages.length} real-looking pages (bench/corpus/pages: ${pages.map((p) => p.name).join(", ")}), lettered by the production stages from exact boxes and from the rough reader's (seeds ${SEEDS.join(", ")}, a row each: centre off by up to 12%, size -20%..+30%, some cut short, merged, split, repeated). ` +
		"Residue: source glyph pixels still visible. PSNR: erased image against the clean plate over the lettering (2 px). Overprint: blocks with new lettering over more than 2% of their source glyphs left. " +
		"Inside: new lettering's pixels inside the blocks' containers. Spread: (largest - smallest) / largest line height of a page's dialogue balloons. CER: tesseract on each container. Kept: unchanged blocks (brands, prices) whose pixels stayed. Text lost: characters of the regions' translations (repeats once, spaces aside) no block listing the region carries. Outputs: bench/out/pages/.\n",
);
console.log(
	"| page | boxes | regions | residue | PSNR | overprint | inside | spread | kept | text lost |" +
		(useOcr ? " CER |" : "") +
		" erase ms/MP | layout ms/MP |",
);
console.log(`|---|---|---|---|---|---|---|---|---|---|${useOcr ? "---|" : ""}---|---|`);
for (const r of rows) {
	console.log(
		`| ${r.page} | ${r.kind} | ${r.regions} | ${pct(r.residue)} | ${r.psnr.toFixed(1)} dB | ${r.overprinted}/${r.replaced} | ${pct(r.inside)} | ${pct(r.spread)} | ${r.keptIntact}/${r.kept} | ${r.lost}/${r.characters} |` +
			(useOcr ? ` ${pct(r.cer)} |` : "") +
			` ${r.eraseMsPerMp.toFixed(1)} | ${r.layoutMsPerMp.toFixed(1)} |`,
	);
}
for (const kind of ["exact", "rough"]) {
	const of = rows.filter((r) => r.kind.split(" ")[0] === kind);
	const mean = (f) => of.reduce((s, r) => s + f(r), 0) / of.length;
	console.log(
		`| all | ${kind} | ${of.reduce((s, r) => s + r.regions, 0)} | ${pct(mean((r) => r.residue))} | ${mean((r) => r.psnr).toFixed(1)} dB | ${of.reduce((s, r) => s + r.overprinted, 0)}/${of.reduce((s, r) => s + r.replaced, 0)} | ${pct(mean((r) => r.inside))} | ${pct(Math.max(...of.map((r) => r.spread)))} max | ${of.reduce((s, r) => s + r.keptIntact, 0)}/${of.reduce((s, r) => s + r.kept, 0)} | ${of.reduce((s, r) => s + r.lost, 0)}/${of.reduce((s, r) => s + r.characters, 0)} |` +
			(useOcr ? ` ${pct(mean((r) => r.cer))} |` : "") +
			` ${mean((r) => r.eraseMsPerMp).toFixed(1)} | ${mean((r) => r.layoutMsPerMp).toFixed(1)} |`,
	);
}
