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
 * Square dilation by `radius` (separable: rows then columns). Each pass remembers how far it has
 * filled, so no pixel is set twice: linear in the patch, whatever the radius and the mask's density.
 */
export function dilate(mask: Uint8Array, w: number, h: number, radius: number): Uint8Array {
	const rows = new Uint8Array(mask.length);
	for (let y = 0; y < h; y++) {
		const row = y * w;
		let filled = 0;
		for (let x = 0; x < w; x++) {
			if (!mask[row + x]) continue;
			const end = Math.min(w, x + radius + 1);
			for (let k = Math.max(filled, x - radius); k < end; k++) rows[row + k] = 1;
			filled = end;
		}
	}
	const out = new Uint8Array(mask.length);
	const filled = new Int32Array(w);
	for (let y = 0; y < h; y++) {
		for (let x = 0; x < w; x++) {
			if (!rows[y * w + x]) continue;
			const end = Math.min(h, y + radius + 1);
			for (let k = Math.max(filled[x]!, y - radius); k < end; k++) out[k * w + x] = 1;
			filled[x] = end;
		}
	}
	return out;
}

export function boundingBox(mask: Uint8Array, w: number, h: number): Box | undefined {
	let x0 = w;
	let y0 = h;
	let x1 = 0;
	let y1 = 0;
	for (let y = 0; y < h; y++) {
		for (let x = 0; x < w; x++) {
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
	const stack = spreadStack(n);
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
 * The stack of runs to spread from, kept between calls and grown to the largest mask: a balloon's
 * inside is filled for each shape found, and a fresh array (four bytes a pixel) cost more to
 * allocate and collect than the spread read of it. One isolate runs one call at a time.
 */
let spreadScratch = new Int32Array(0);

function spreadStack(n: number): Int32Array {
	if (spreadScratch.length < n) spreadScratch = new Int32Array(n);
	return spreadScratch;
}

/**
 * Spreads from the `top` pixels on `stack` through pixels unset in `mask` (4-connected), marking
 * them `seen`; `reached`, when given, gets each pixel reached. A plain function of its arrays, not a
 * closure changing its caller's stack top: it visits every pixel outside the mask. A run at a time:
 * a pixel taken from the stack is extended left and right, and the rows above and below that run
 * give one new seed per stretch of unset pixels.
 */
function spread(mask: Uint8Array, seen: Uint8Array, stack: Int32Array, top: number, w: number, reached?: number[]) {
	const h = mask.length / w;
	while (top > 0) {
		const i = stack[--top]!;
		const y = (i / w) | 0;
		const row = y * w;
		reached?.push(i);
		let left = i - row;
		while (left > 0 && !mask[row + left - 1] && !seen[row + left - 1]) {
			seen[row + --left] = 1;
			reached?.push(row + left);
		}
		let right = i - row;
		while (right < w - 1 && !mask[row + right + 1] && !seen[row + right + 1]) {
			seen[row + ++right] = 1;
			reached?.push(row + right);
		}
		for (let other = y - 1; other <= y + 1; other += 2) {
			if (other < 0 || other >= h) continue;
			let inRun = false;
			for (let j = other * w + left, end = other * w + right; j <= end; j++) {
				if (mask[j] || seen[j]) inRun = false;
				else if (!inRun) {
					seen[j] = 1;
					stack[top++] = j;
					inRun = true;
				}
			}
		}
	}
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
 * rim); pixels set in `blocked` score 0.
 */
export function growInto(
	seeds: Uint8Array,
	score: Uint8Array,
	weak: number,
	w: number,
	h: number,
	steps: number,
	blocked?: Uint8Array,
): Uint8Array {
	const mask = seeds.slice();
	let frontier: number[] = [];
	for (let i = 0; i < mask.length; i++) if (mask[i]) frontier.push(i);
	for (let step = 0; step < steps && frontier.length > 0; step++) {
		const next: number[] = [];
		for (const i of frontier) {
			const x = i % w;
			const y = (i - x) / w;
			for (let dy = -1; dy <= 1; dy++) {
				for (let dx = -1; dx <= 1; dx++) {
					const nx = x + dx;
					const ny = y + dy;
					if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
					const j = ny * w + nx;
					if (mask[j] || (blocked?.[j] ? 0 : score[j]!) < weak) continue;
					mask[j] = 1;
					next.push(j);
				}
			}
		}
		frontier = next;
	}
	return mask;
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
