/** Masks of one byte a pixel over a patch: their bounding box, dilation, holes and soft rims. */
import type { Box } from "../types";

/**
 * 1 where `mask` is set and `taken` is not (both one byte a pixel, 0 or 1). A plain loop: a typed
 * array's `map` calls a closure per pixel, several times slower on the patches layout works on.
 */
export function without(mask: Uint8Array, taken: Uint8Array): Uint8Array {
	const out = new Uint8Array(mask.length);
	for (let i = 0; i < out.length; i++) out[i] = mask[i]! & (1 - taken[i]!);
	return out;
}

/** 1 where `mask` is 0, 0 where it is 1. */
export function inverted(mask: Uint8Array): Uint8Array {
	const out = new Uint8Array(mask.length);
	for (let i = 0; i < out.length; i++) out[i] = 1 - mask[i]!;
	return out;
}

/**
 * Square dilation by `radius` (separable: rows then columns), by runs: each run of set pixels is
 * widened by the radius each way, and each pass remembers how far it has filled, so no pixel is set
 * twice: linear in the patch, whatever the radius and the mask's density. The columns' runs come from
 * forEachColumnRun.
 */
export function dilate(mask: Uint8Array, w: number, h: number, radius: number): Uint8Array {
	const rows = new Uint8Array(mask.length);
	for (let y = 0; y < h; y++) {
		const row = y * w;
		let filled = 0;
		let x = 0;
		while (x < w) {
			while (x < w && !mask[row + x]) x++;
			if (x === w) break;
			const start = x;
			while (x < w && mask[row + x]) x++;
			const end = Math.min(w, x + radius);
			for (let k = row + Math.max(filled, start - radius), to = row + end; k < to; k++) rows[k] = 1;
			filled = end;
		}
	}
	const out = new Uint8Array(mask.length);
	// How far down each column is filled.
	const filled = new Int32Array(w);
	forEachColumnRun(rows, w, h, (x, start, stop) => {
		const end = Math.min(h, stop + radius);
		for (let k = Math.max(filled[x]!, start - radius); k < end; k++) out[k * w + x] = 1;
		filled[x] = end;
	});
	return out;
}

/**
 * Calls `visit` with each column's runs of set pixels of `mask` (rows `start` to `end`, end
 * excluded), each as it ends. The columns are taken a row at a time, each one's open run start kept
 * in a row of counters, so that memory is read in order.
 */
export function forEachColumnRun(
	mask: Uint8Array,
	w: number,
	h: number,
	visit: (x: number, start: number, end: number) => void,
): void {
	// Where each column's current run started; -1 outside a run.
	const runStart = new Int32Array(w).fill(-1);
	for (let y = 0; y <= h; y++) {
		const row = y * w;
		for (let x = 0; x < w; x++) {
			if (y < h && mask[row + x]) {
				if (runStart[x]! < 0) runStart[x] = y;
				continue;
			}
			const start = runStart[x]!;
			if (start < 0) continue;
			runStart[x] = -1;
			visit(x, start, y);
		}
	}
}

/** The bounding box of `mask`'s set pixels; `within`, when given, is where they may be (only it is read). */
export function boundingBox(mask: Uint8Array, w: number, h: number, within?: Box): Box | undefined {
	let x0 = w;
	let y0 = h;
	let x1 = 0;
	let y1 = 0;
	for (let y = within?.y0 ?? 0, yEnd = within?.y1 ?? h; y < yEnd; y++) {
		for (let x = within?.x0 ?? 0, xEnd = within?.x1 ?? w; x < xEnd; x++) {
			if (!mask[y * w + x]) continue;
			if (x < x0) x0 = x;
			if (x >= x1) x1 = x + 1;
			if (y < y0) y0 = y;
			y1 = y + 1;
		}
	}
	return x1 > x0 ? { x0, y0, x1, y1 } : undefined;
}

/**
 * Sets, in place, every unset pixel that cannot reach the patch edge through unset pixels
 * (4-connected): the holes the mask encloses; with `maxHole`, only holes of at most that many pixels.
 */
export function fillHoles(mask: Uint8Array, w: number, h: number, maxHole = Number.POSITIVE_INFINITY): Uint8Array {
	const n = mask.length;
	const seen = new Uint8Array(n);
	const stack = stackOf(n);
	let top = 0;
	forEachEdgePixel(w, h, (i) => {
		if (mask[i] || seen[i]) return;
		seen[i] = 1;
		stack[top++] = i;
	});
	spread(mask, seen, stack, top, w);
	if (maxHole === Number.POSITIVE_INFINITY) {
		for (let i = 0; i < n; i++) if (!seen[i]) mask[i] = 1;
		return mask;
	}
	// Each hole in turn: its pixels are the ones the spread from its first pixel marks.
	const pixels: number[] = [];
	for (let start = 0; start < n; start++) {
		if (mask[start] || seen[start]) continue;
		seen[start] = 1;
		stack[0] = start;
		pixels.length = 0;
		spread(mask, seen, stack, 1, w, pixels);
		if (pixels.length <= maxHole) for (const i of pixels) mask[i] = 1;
	}
	return mask;
}

/**
 * Spreads from the `top` pixels on `stack` through pixels unset in `mask` (4-connected), marking
 * them `seen`; `reached`, when given, gets each pixel reached.
 */
function spread(mask: Uint8Array, seen: Uint8Array, stack: Int32Array, top: number, w: number, reached?: number[]) {
	spreadThrough(mask, 0, 0, seen, stack, top, w, reached);
}

/**
 * Marks in `seen` every pixel of `member` (1 there) 8-connected to pixel `start`, itself a member
 * not yet seen; `reached`, when given, gets each pixel marked.
 */
export function markJoined(member: Uint8Array, seen: Uint8Array, start: number, w: number, reached?: number[]): void {
	const stack = stackOf(member.length);
	seen[start] = 1;
	stack[0] = start;
	spreadThrough(member, 1, 1, seen, stack, 1, w, reached);
}

/**
 * Spreads from the `top` pixels on `stack` through the pixels whose `mask` value is `through`, 4-connected
 * (`reach` 0) or 8-connected (`reach` 1), marking them `seen`. A plain function of its arrays, not a
 * closure changing its caller's stack top: it visits every pixel it reaches. A run at a time: a pixel
 * taken from the stack is extended left and right, and the rows above and below that run (a pixel
 * wider each side when 8-connected) give one new seed per stretch of pixels to spread to.
 */
function spreadThrough(
	mask: Uint8Array,
	through: number,
	reach: number,
	seen: Uint8Array,
	stack: Int32Array,
	top: number,
	w: number,
	reached?: number[],
) {
	const h = mask.length / w;
	while (top > 0) {
		const i = stack[--top]!;
		const y = (i / w) | 0;
		const row = y * w;
		reached?.push(i);
		let left = i - row;
		while (left > 0 && mask[row + left - 1] === through && !seen[row + left - 1]) {
			seen[row + --left] = 1;
			reached?.push(row + left);
		}
		let right = i - row;
		while (right < w - 1 && mask[row + right + 1] === through && !seen[row + right + 1]) {
			seen[row + ++right] = 1;
			reached?.push(row + right);
		}
		const from = Math.max(0, left - reach);
		const to = Math.min(w - 1, right + reach);
		for (let other = y - 1; other <= y + 1; other += 2) {
			if (other < 0 || other >= h) continue;
			let inRun = false;
			for (let j = other * w + from, end = other * w + to; j <= end; j++) {
				if (mask[j] !== through || seen[j]) inRun = false;
				else if (!inRun) {
					seen[j] = 1;
					stack[top++] = j;
					inRun = true;
				}
			}
		}
	}
}

/**
 * The stack of runs to spread from, kept between calls and grown to the largest patch (as
 * labelComponents keeps its own): a balloon's inside is filled for each shape found, and a fresh
 * array (four bytes a pixel) cost more to allocate and collect than the spread. Spreads run
 * synchronously, so no two use it at once, however many requests the isolate serves.
 */
let runs = new Int32Array(0);

function stackOf(n: number): Int32Array {
	if (runs.length < n) runs = new Int32Array(n);
	return runs;
}

/**
 * The eight neighbours of pixel (x, row) in `mask`, OR-ed: `above` and `below` are the starts of the
 * rows either side and `l`, `r` the columns either side, each clamped back to the pixel's own row or
 * column at the patch edge (the neighbour past it read as the pixel or another neighbour): no branch
 * per neighbour, which the callers' loops over every pixel of a patch need.
 */
export function neighboursOr(
	mask: Uint8Array,
	above: number,
	row: number,
	below: number,
	l: number,
	x: number,
	r: number,
): number {
	return (
		mask[above + l]! |
		mask[above + x]! |
		mask[above + r]! |
		mask[row + l]! |
		mask[row + r]! |
		mask[below + l]! |
		mask[below + x]! |
		mask[below + r]!
	);
}

/** Calls `visit` with each pixel on the edge of a patch `w` by `h` (corners more than once). */
export function forEachEdgePixel(w: number, h: number, visit: (i: number) => void): void {
	for (let x = 0; x < w; x++) {
		visit(x);
		visit((h - 1) * w + x);
	}
	for (let y = 0; y < h; y++) {
		visit(y * w);
		visit(y * w + w - 1);
	}
}

/**
 * Adds pixels whose score is at least `weak` within `steps` pixels of the seeds (the glyphs' soft
 * rim); pixels set in `blocked` score 0. `seedBounds`, when given, holds every seed.
 */
export function growInto(
	seeds: Uint8Array,
	score: Uint8Array,
	weak: number,
	w: number,
	h: number,
	steps: number,
	blocked?: Uint8Array,
	seedBounds: Box = { x0: 0, y0: 0, x1: w, y1: h },
): Uint8Array {
	const mask = seeds.slice();
	// Breadth first, a step at a time: the pixels added at one step are the next step's frontier.
	const queue = queueOf(mask.length);
	let end = 0;
	for (let y = seedBounds.y0; y < seedBounds.y1; y++)
		for (let i = y * w + seedBounds.x0, rowEnd = y * w + seedBounds.x1; i < rowEnd; i++) if (mask[i]) queue[end++] = i;
	let head = 0;
	for (let step = 0; step < steps && head < end; step++) {
		for (const stepEnd = end; head < stepEnd; head++) {
			const i = queue[head]!;
			const y = (i / w) | 0;
			const x = i - y * w;
			const x0 = x > 0 ? x - 1 : x;
			const x1 = x < w - 1 ? x + 1 : x;
			for (let ny = y > 0 ? y - 1 : y, y1 = y < h - 1 ? y + 1 : y; ny <= y1; ny++) {
				for (let j = ny * w + x0, jEnd = ny * w + x1; j <= jEnd; j++) {
					if (mask[j] || (blocked?.[j] ? 0 : score[j]!) < weak) continue;
					mask[j] = 1;
					queue[end++] = j;
				}
			}
		}
	}
	return mask;
}

/** growInto's queue, kept between calls likewise. */
let grown = new Int32Array(0);

function queueOf(n: number): Int32Array {
	if (grown.length < n) grown = new Int32Array(n);
	return grown;
}

/** The part of `mask` (over `from`, image px) that lies in `to`, as a mask over `to`; 0 where `from` does not reach. */
export function reframe(mask: Uint8Array, from: Box, to: Box): Uint8Array {
	const w = to.x1 - to.x0;
	const out = new Uint8Array(w * (to.y1 - to.y0));
	const fw = from.x1 - from.x0;
	const x0 = Math.max(from.x0, to.x0);
	const x1 = Math.min(from.x1, to.x1);
	if (x1 <= x0) return out;
	for (let y = Math.max(from.y0, to.y0); y < Math.min(from.y1, to.y1); y++) {
		const src = (y - from.y0) * fw + x0 - from.x0;
		out.set(mask.subarray(src, src + x1 - x0), (y - to.y0) * w + x0 - to.x0);
	}
	return out;
}

/** `fillHoles` on the part of the mask in `box`, its bounding box, grown by a pixel: holes lie within it. */
export function fillHolesInBounds(mask: Uint8Array, w: number, h: number, box: Box, maxHole?: number): Uint8Array {
	const x0 = Math.max(0, box.x0 - 1);
	const y0 = Math.max(0, box.y0 - 1);
	const x1 = Math.min(w, box.x1 + 1);
	const y1 = Math.min(h, box.y1 + 1);
	const bw = x1 - x0;
	const part = new Uint8Array(bw * (y1 - y0));
	for (let y = y0; y < y1; y++) part.set(mask.subarray(y * w + x0, y * w + x1), (y - y0) * bw);
	fillHoles(part, bw, y1 - y0, maxHole);
	for (let y = y0; y < y1; y++) mask.set(part.subarray((y - y0) * bw, (y - y0 + 1) * bw), y * w + x0);
	return mask;
}

/**
 * Typical stroke width of the ink in the box (of those pixels `within` marks, when given):
 * 2·area / boundary length (a stroke has two sides). The box's edges count as boundary.
 */
export function strokeWidth(ink: Uint8Array, w: number, box: Box, within?: Uint8Array): number {
	let area = 0;
	let boundary = 0;
	for (let y = box.y0; y < box.y1; y++) {
		for (let x = box.x0; x < box.x1; x++) {
			const i = y * w + x;
			if (!ink[i] || (within && !within[i])) continue;
			area++;
			if (x === box.x0 || !ink[i - 1]) boundary++;
			if (x === box.x1 - 1 || !ink[i + 1]) boundary++;
			if (y === box.y0 || !ink[i - w]) boundary++;
			if (y === box.y1 - 1 || !ink[i + w]) boundary++;
		}
	}
	return boundary === 0 ? 0 : (2 * area) / boundary;
}
