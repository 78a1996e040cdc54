import type { Box } from "../types";
import { labelComponents } from "./components";

/**
 * The ink that belongs to a balloon's outline (or to art beyond it), told from lettering by its
 * geometry, so that a glyph touching the outline can be erased without the outline.
 *
 * The balloon's inside is the background region that holds most of the reader's box, with the
 * background enclosed near it (counters, pockets between glyphs and the outline). Everything else
 * is outside: ink, and the background beyond the outline. A square a little over twice the stroke
 * width fits nowhere in a glyph, but fits where the outline lies against the world beyond it: the
 * opening of the outside by that square, where it reaches past the patch or beyond the outline,
 * holds the outline and the art, and leaves out the glyphs that touch them. Out of the patch counts
 * as outside, so an outline running along the patch edge is found too. A stroke lying along the
 * outline thickens it and stays in the opening: it is peeled off afterwards (peelStrokes).
 *
 * `ink` holds 1 for ink pixels. Undefined when nothing outside the balloon reaches the patch edge
 * (text well inside its balloon or on open background: no outline to find).
 */
export function findOutline(ink: Uint8Array, w: number, h: number, readerBox: Box): Uint8Array | undefined {
	const n = w * h;
	const regions = new Int32Array(n);
	const background = labelComponents((i) => !ink[i], w, h, regions, 4);
	const interior = mostInside(regions, background.length, w, readerBox);
	const insideRegion = background.map((c, k) => k + 1 === interior || (!c.touchesEdge && intersects(c, readerBox)));
	const outside = new Uint8Array(n);
	for (let i = 0; i < n; i++) outside[i] = ink[i] || !insideRegion[regions[i]! - 1] ? 1 : 0;
	if (!reachesEdge(outside, w, h)) return undefined;

	const radius = Math.max(2, Math.round(strokeWidth(ink, w, readerBox)));
	const opened = dilateSquare(erodeSquare(outside, w, h, radius, 1), w, h, radius);
	// Only what joins the world beyond: a heavy glyph enclosed by the balloon stays lettering.
	const parts = new Int32Array(n);
	const found = labelComponents((i) => opened[i] === 1, w, h, parts);
	const beyond = found.map((c) => c.touchesEdge);
	for (let i = 0; i < n; i++) if (parts[i] && !ink[i]) beyond[parts[i]! - 1] = true;
	const outline = new Uint8Array(n);
	for (let i = 0; i < n; i++) if (ink[i] && parts[i] && beyond[parts[i]! - 1]) outline[i] = 1;
	peelStrokes(outline, ink, outside, w, h, radius);
	return outline.includes(1) ? outline : undefined;
}

/**
 * Takes glyph strokes that lie along the outline off it. Across the outline, count ink pixels from
 * the balloon's inside (dIn) and from the world beyond it (dOut); the outline's own width there is
 * the median dOut of its inner rim nearby (within eight strokes: longer than a stroke laid along
 * it, so a stroke does not count as the outline's width, yet local, as outlines vary and art may
 * back them). Where the band is wider than that by up to two strokes, its outer part of the
 * outline's width is the outline and the rest a stroke laid against it, if that rest joins a glyph
 * (else it is the outline a pixel wider there). Wider bands, and outlines measured wider than two
 * strokes (art drawn against them), are beyond telling apart and stay.
 */
function peelStrokes(outline: Uint8Array, ink: Uint8Array, outside: Uint8Array, w: number, h: number, stroke: number) {
	const dIn = inkDistance(w, h, (i) => !outside[i], ink, false);
	const dOut = inkDistance(w, h, (i) => outside[i] === 1 && !ink[i], ink, true);
	const thick = 4 * stroke + 4;
	const rim: number[] = [];
	for (let i = 0; i < outline.length; i++) if (outline[i] && dIn[i] === 1) rim.push(i);
	const reach = 8 * stroke;
	const counts = new Uint32Array(thick + 1);
	const localWidth = (i: number) => {
		const x = i % w;
		const y = (i - x) / w;
		counts.fill(0);
		let n = 0;
		for (const r of rim) {
			const rx = r % w;
			if (Math.abs(rx - x) > reach || Math.abs((r - rx) / w - y) > reach) continue;
			counts[Math.min(thick, dOut[r]!)]!++;
			n++;
		}
		for (let d = 0, seen = 0; d <= thick; d++) {
			seen += counts[d]!;
			if (2 * seen >= n && n > 0) return d;
		}
		return thick;
	};
	const peeled: number[] = [];
	for (let i = 0; i < outline.length; i++) {
		if (!outline[i] || dIn[i]! > 2 * stroke + 2) continue;
		const band = dIn[i]! + dOut[i]! - 1;
		const width = localWidth(i);
		if (width <= 2 * stroke && band > width && band <= width + 2 * stroke + 2 && dOut[i]! > width) {
			outline[i] = 2;
			peeled.push(i);
		}
	}
	// Grow the glyphs into the peeled pixels; what they do not reach goes back to the outline.
	let frontier: number[] = [];
	for (let i = 0; i < outline.length; i++) if (ink[i] && !outline[i]) frontier.push(i);
	while (frontier.length > 0) {
		const next: number[] = [];
		for (const i of frontier) {
			forNeighbours(i, w, h, (j) => {
				if (outline[j] !== 2) return;
				outline[j] = 0;
				next.push(j);
			});
		}
		frontier = next;
	}
	for (const i of peeled) if (outline[i] === 2) outline[i] = 1;
}

function forNeighbours(i: number, w: number, h: number, visit: (j: number) => void): void {
	const x = i % w;
	const y = (i - x) / w;
	for (let dy = -1; dy <= 1; dy++) {
		for (let dx = -1; dx <= 1; dx++) {
			const nx = x + dx;
			const ny = y + dy;
			if ((dx || dy) && nx >= 0 && ny >= 0 && nx < w && ny < h) visit(ny * w + nx);
		}
	}
}

/**
 * Chessboard distance, through ink only, from the nearest seed pixel (0 at seeds; pixels that no
 * path reaches stay at the maximum). With `fromBeyond`, the world past the patch edge seeds too.
 */
function inkDistance(w: number, h: number, seed: (i: number) => boolean, ink: Uint8Array, fromBeyond: boolean) {
	const far = 0xffff;
	const distance = new Uint16Array(w * h).fill(far);
	let frontier: number[] = [];
	for (let i = 0; i < w * h; i++) {
		if (seed(i)) distance[i] = 0;
		else if (fromBeyond && ink[i] && onEdge(i, w, h)) {
			distance[i] = 1;
			frontier.push(i);
		}
	}
	for (let i = 0; i < w * h; i++) if (distance[i] === 0) frontier.push(i);
	while (frontier.length > 0) {
		const next: number[] = [];
		for (const i of frontier) {
			forNeighbours(i, w, h, (j) => {
				if (!ink[j] || distance[j]! <= distance[i]! + 1) return;
				distance[j] = distance[i]! + 1;
				next.push(j);
			});
		}
		frontier = next;
	}
	return distance;
}

function onEdge(i: number, w: number, h: number): boolean {
	const x = i % w;
	return x === 0 || x === w - 1 || i < w || i >= (h - 1) * w;
}

/** The 1-based region label with the most pixels inside the box (0 when none). */
function mostInside(regions: Int32Array, count: number, w: number, box: Box): number {
	const inside = new Uint32Array(count + 1);
	for (let y = box.y0; y < box.y1; y++) for (let x = box.x0; x < box.x1; x++) inside[regions[y * w + x]!]!++;
	let best = 0;
	for (let k = 1; k <= count; k++) if (inside[k]! > inside[best]!) best = k;
	return best;
}

function intersects(c: Box, box: Box): boolean {
	return c.x1 > box.x0 && c.x0 < box.x1 && c.y1 > box.y0 && c.y0 < box.y1;
}

function reachesEdge(set: Uint8Array, w: number, h: number): boolean {
	for (let x = 0; x < w; x++) if (set[x] || set[(h - 1) * w + x]) return true;
	for (let y = 0; y < h; y++) if (set[y * w] || set[y * w + w - 1]) return true;
	return false;
}

/** Typical stroke width of the ink in the box: 2·area / boundary length (a stroke has two sides). */
function strokeWidth(ink: Uint8Array, w: number, box: Box): number {
	let area = 0;
	let boundary = 0;
	for (let y = box.y0; y < box.y1; y++) {
		for (let x = box.x0; x < box.x1; x++) {
			const i = y * w + x;
			if (!ink[i]) continue;
			area++;
			if (x === box.x0 || !ink[i - 1]) boundary++;
			if (x === box.x1 - 1 || !ink[i + 1]) boundary++;
			if (y === box.y0 || !ink[i - w]) boundary++;
			if (y === box.y1 - 1 || !ink[i + w]) boundary++;
		}
	}
	return boundary === 0 ? 0 : (2 * area) / boundary;
}

/**
 * 1 where the whole square of side 2·radius+1 around the pixel is set; pixels beyond the patch
 * count as `beyond`. Separable: a row pass, then a column pass over its result.
 */
function erodeSquare(set: Uint8Array, w: number, h: number, radius: number, beyond: 0 | 1): Uint8Array {
	const rows = new Uint8Array(set.length);
	for (let y = 0; y < h; y++) erodeLine(set, rows, y * w, 1, w, radius, beyond);
	const out = new Uint8Array(set.length);
	for (let x = 0; x < w; x++) erodeLine(rows, out, x, w, h, radius, beyond);
	return out;
}

/** Square dilation: the complement of the erosion of the complement, nothing set beyond the patch. */
function dilateSquare(set: Uint8Array, w: number, h: number, radius: number): Uint8Array {
	const unset = set.map((v) => 1 - v);
	return erodeSquare(unset, w, h, radius, 1).map((v) => 1 - v);
}

/** One line of an erosion: `length` pixels from `start`, `step` apart. */
function erodeLine(
	from: Uint8Array,
	to: Uint8Array,
	start: number,
	step: number,
	length: number,
	radius: number,
	beyond: 0 | 1,
): void {
	// Distance to the nearest unset pixel before (and then after) each one; beyond the line is unset or not.
	let lastUnset = beyond ? Number.NEGATIVE_INFINITY : -1;
	for (let k = 0; k < length; k++) {
		const i = start + k * step;
		if (!from[i]) lastUnset = k;
		to[i] = k - lastUnset > radius ? 1 : 0;
	}
	let nextUnset = beyond ? Number.POSITIVE_INFINITY : length;
	for (let k = length - 1; k >= 0; k--) {
		const i = start + k * step;
		if (!from[i]) nextUnset = k;
		if (nextUnset - k <= radius) to[i] = 0;
	}
}
