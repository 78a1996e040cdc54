/**
 * How far along its line a cover must reach. A block is covered where its lettering could not be
 * told from the art pixel by pixel (a scanned screen, texture), and the reader's box is then all
 * that says where the lettering is: a box cut short or moved leaves letters beside the panel ("Tha"
 * and "so m" before a caption's panel). Pixel by pixel the lettering is lost in the art, but a few
 * glyphs' worth of it at once is not: lettering darkens (or lightens) the strip of the line it
 * runs along, where art of one kind averages to the same tone in every cell of that size; dark
 * lettering in a light outline may average to the art's very tone, yet its cells hold darker and
 * lighter pixels than the art's do. So the cover grows along the line, cell by cell beyond the
 * box, while cells' tone or contrast (their luma's mean or spread) differ from those of the same
 * cells above and below the line, across word spaces, and never further than a box cut short could
 * have missed. Contrast counts only where the art's cells are alike in it (a screen, a tint): a
 * photo's changes from cell to cell as lettering's does (a cloud's edge, a balloon drawn in the art).
 */
import { clipBox, union } from "../patch";
import type { Box, Patch } from "../types";

/** Cells beyond the box read as lettering: their luma's mean or spread this many spreads of the art's cells' away... */
const SPREADS = 4;
/** ...and at least this many levels away (flat art has no spread). */
const MIN_LEVELS = 10;
/**
 * The lettering runs on past the box at most this many times the box's length, or a line's
 * thickness (a box keeps two fifths of its lettering's columns at least, then is a fifth too small).
 */
const MAX_RUN = 1.8;
/** The art's cells are alike in contrast when its spread across them is at most this share of its mean (a screen's is a twentieth). */
const REGULAR = 0.08;

interface Luma {
	mean: number;
	spread: number;
}

/** Cells without lettering in a row that end the line: a line's thickness (a wide word space fits). */
const GAP_CELLS = 4;
/** Cells along the line are this share of the line's thickness (a glyph holds about three). */
const CELL_SHARE = 1 / GAP_CELLS;

/**
 * The reader's box (image px) run on along its line as far as its lettering goes, within `bounds`
 * (the crop's part the search may read). Unchanged where the art beside the line varies as much as
 * lettering would (a photo), or where nothing runs past the box.
 */
export function lineReach(crop: Patch, box: Box, vertical: boolean, bounds: Box): Box {
	const limit = clipBox(bounds, crop.box);
	// u runs along the line, v across it.
	const [u0, u1, v0, v1] = vertical ? [box.y0, box.y1, box.x0, box.x1] : [box.x0, box.x1, box.y0, box.y1];
	const [lu0, lu1, lv0, lv1] = vertical
		? [limit.y0, limit.y1, limit.x0, limit.x1]
		: [limit.x0, limit.x1, limit.y0, limit.y1];
	const thick = v1 - v0;
	const cell = Math.max(3, Math.round(CELL_SHARE * thick));
	const most = Math.round(Math.max(thick, MAX_RUN * (u1 - u0)));
	const reachFrom = Math.max(lu0, u0 - most);
	const reachTo = Math.min(lu1, u1 + most);
	/** The luma's mean and spread over a cell (u along the line, v across it). */
	const lumaOf = (a0: number, a1: number, b0: number, b1: number): Luma | undefined => {
		const [x0, x1, y0, y1] = vertical ? [b0, b1, a0, a1] : [a0, a1, b0, b1];
		const [cx0, cy0] = [Math.max(x0, limit.x0), Math.max(y0, limit.y0)];
		const [cx1, cy1] = [Math.min(x1, limit.x1), Math.min(y1, limit.y1)];
		if (cx1 <= cx0 || cy1 <= cy0) return undefined;
		let sum = 0;
		let squares = 0;
		for (let y = cy0; y < cy1; y++) {
			let i = ((y - crop.box.y0) * crop.width + (cx0 - crop.box.x0)) * 4;
			for (let x = cx0; x < cx1; x++, i += 4) {
				const v = 0.299 * crop.data[i]! + 0.587 * crop.data[i + 1]! + 0.114 * crop.data[i + 2]!;
				sum += v;
				squares += v * v;
			}
		}
		const n = (cx1 - cx0) * (cy1 - cy0);
		const mean = sum / n;
		return { mean, spread: Math.sqrt(Math.max(0, squares / n - mean * mean)) };
	};
	// The art: the same cells a line's thickness above and below the line, all along its reach.
	const art: Luma[] = [];
	for (let u = reachFrom; u + cell <= reachTo; u += cell) {
		for (const [a, b] of [
			[v0 - thick, v0],
			[v1, v1 + thick],
		] as const) {
			if (a < lv0 || b > lv1) continue;
			const m = lumaOf(u, u + cell, a, b);
			if (m) art.push(m);
		}
	}
	if (art.length < 4) return box;
	const usual = (values: number[]) => {
		const mean = values.reduce((s, m) => s + m, 0) / values.length;
		const spread = Math.sqrt(values.reduce((s, m) => s + (m - mean) ** 2, 0) / values.length);
		return { mean, spread, holds: (v: number) => Math.abs(v - mean) < Math.max(MIN_LEVELS, SPREADS * spread) };
	};
	const tone = usual(art.map((m) => m.mean));
	const contrast = usual(art.map((m) => m.spread));
	const regular = contrast.spread <= REGULAR * contrast.mean;
	const lettered = (u: number) => {
		const m = lumaOf(Math.max(u, reachFrom), Math.min(u + cell, reachTo), v0, v1);
		return m !== undefined && !(tone.holds(m.mean) && (!regular || contrast.holds(m.spread)));
	};
	// Each way: the last lettered cell before GAP_CELLS empty ones, and half a cell past it (a
	// glyph's edge, too little of it in the next cell to tell it from the art).
	const edge = Math.round(cell / 2);
	let start = u0;
	for (let u = u0 - cell, empty = 0; u + cell > reachFrom && empty < GAP_CELLS; u -= cell) {
		if (lettered(u)) [start, empty] = [Math.max(u - edge, reachFrom), 0];
		else empty++;
	}
	let end = u1;
	for (let u = u1, empty = 0; u < reachTo && empty < GAP_CELLS; u += cell) {
		if (lettered(u)) [end, empty] = [Math.min(u + cell + edge, reachTo), 0];
		else empty++;
	}
	const run = vertical ? { ...box, y0: start, y1: end } : { ...box, x0: start, x1: end };
	return union(box, run);
}
