#!/usr/bin/env node
/**
 * The real-looking pages (pages.mjs) rendered with their ground truth: the page, its clean plate
 * (the same page without lettering), the lettering's coverage, and per block its text, translation,
 * ink box, per-line boxes and container. Deterministic: the same fonts give the same pixels.
 *
 *   import { makePages } from "./bench/corpus/pages/index.mjs";
 *   for (const page of await makePages()) { page.image, page.plate, page.blocks ... }
 *
 * A page is { name, description, source, target, mode, width, height, image, plate, coverage, blocks }
 * with images as { width, height, data: RGBA8 }, `coverage` the lettering's alpha (0..255) per pixel,
 * and each block { id, text, translation, vertical, role, keep, box, lines: [{ text, box }],
 * container: { kind, shape, box }, ink: { box, alpha } } (alpha over the block's own ink box).
 *
 *   node bench/corpus/pages/index.mjs [outDir]   writes <name>.png, <name>.plate.png, <name>.json
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { writePng } from "../png.mjs";
import { renderSvg } from "../text.mjs";
import { containerSvg, letteringSvg } from "./draw.mjs";
import { PAGES } from "./pages.mjs";

export { PAGES };

export async function makePages(names) {
	const chosen = names ? PAGES.filter((p) => names.includes(p.name)) : PAGES;
	const pages = [];
	for (const def of chosen) pages.push(await makePage(def));
	return pages;
}

export async function makePage(def) {
	const { width, height } = def;
	const svgOf = (body) => `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${body}</svg>`;
	const coverage = new Uint8Array(width * height);
	const blocks = [];
	const containers = [];
	const letterings = [];
	for (const [id, block] of def.blocks.entries()) {
		const lettering = letteringSvg(block);
		const alone = await renderSvg(svgOf(lettering), block.family);
		const alpha = new Uint8Array(width * height);
		for (let i = 0; i < alpha.length; i++) alpha[i] = alone.data[i * 4 + 3];
		const box = inkBox(alpha, width, height);
		if (!box) throw new Error(`${def.name}: block ${id} has no ink`);
		for (let i = 0; i < alpha.length; i++) if (alpha[i] > coverage[i]) coverage[i] = alpha[i];
		const container = containerSvg(box, block.container);
		containers.push(container.svg);
		letterings.push(lettering);
		const text = block.lines.join("\n");
		blocks.push({
			id,
			text,
			translation: block.translation,
			vertical: Boolean(block.vertical),
			role: block.role ?? "dialogue",
			keep: block.translation.replace(/\s+/g, "").toLowerCase() === text.replace(/\s+/g, "").toLowerCase(),
			box,
			lines: lineBoxes(alpha, width, box, block),
			container: container.inside,
			ink: { box, alpha: crop(alpha, width, box) },
		});
	}
	const plateSvg = svgOf(def.art + containers.join(""));
	const plate = await renderSvg(plateSvg);
	const image = await renderSvg(svgOf(def.art + containers.join("") + letterings.join("")));
	return {
		name: def.name,
		description: def.description,
		source: def.source,
		target: def.target,
		mode: def.mode,
		width,
		height,
		image,
		plate,
		coverage,
		blocks,
	};
}

/**
 * Per-line boxes from the ink's profile across the reading direction (rows for horizontal lines,
 * columns for vertical ones, right to left); evenly divided when the profile does not show the
 * lines apart.
 */
function lineBoxes(alpha, width, box, block) {
	const vertical = Boolean(block.vertical);
	const [from, to] = vertical ? [box.x0, box.x1] : [box.y0, box.y1];
	const runs = [];
	let start = -1;
	for (let v = from; v <= to; v++) {
		let inked = false;
		if (v < to) {
			for (let u = vertical ? box.y0 : box.x0; u < (vertical ? box.y1 : box.x1) && !inked; u++)
				inked = alpha[vertical ? u * width + v : v * width + u] > 0;
		}
		if (inked && start < 0) start = v;
		if (!inked && start >= 0) {
			runs.push([start, v]);
			start = -1;
		}
	}
	const n = block.lines.length;
	const spans =
		runs.length === n
			? runs
			: Array.from({ length: n }, (_, k) => [from + ((to - from) * k) / n, from + ((to - from) * (k + 1)) / n]);
	if (vertical) spans.reverse();
	return block.lines.map((text, k) => {
		const [a, b] = spans[k];
		return { text, box: vertical ? { ...box, x0: a, x1: b } : { ...box, y0: a, y1: b } };
	});
}

function inkBox(alpha, width, height) {
	let x0 = width;
	let y0 = height;
	let x1 = 0;
	let y1 = 0;
	for (let y = 0; y < height; y++)
		for (let x = 0; x < width; x++) {
			if (!alpha[y * width + x]) continue;
			if (x < x0) x0 = x;
			if (x >= x1) x1 = x + 1;
			if (y < y0) y0 = y;
			if (y >= y1) y1 = y + 1;
		}
	return x1 > x0 ? { x0, y0, x1, y1 } : undefined;
}

function crop(alpha, width, box) {
	const w = box.x1 - box.x0;
	const out = new Uint8Array(w * (box.y1 - box.y0));
	for (let y = box.y0; y < box.y1; y++)
		out.set(alpha.subarray(y * width + box.x0, y * width + box.x1), (y - box.y0) * w);
	return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const out = process.argv[2] ?? "bench/out/pages";
	mkdirSync(out, { recursive: true });
	for (const page of await makePages()) {
		writeFileSync(join(out, `${page.name}.png`), writePng(page.image));
		writeFileSync(join(out, `${page.name}.plate.png`), writePng(page.plate));
		const truth = page.blocks.map(({ ink, ...block }) => block);
		writeFileSync(
			join(out, `${page.name}.json`),
			`${JSON.stringify({ ...page, image: undefined, plate: undefined, coverage: undefined, blocks: truth }, null, 1)}\n`,
		);
		console.log(`${page.name}: ${page.width}x${page.height}, ${page.blocks.length} blocks`);
	}
}
