/**
 * How much lettering a page holds, guessed from its pixels before any model sees it, from its
 * glyph-like ink components (small, compact, dark marks on a light surround, the way lettering
 * sits in balloons, captions and labels). Output tokens, and so a model's time, grow with it.
 *
 * Works on the reader copy (long edge ~1600 px) at half its resolution, each pixel the darkest
 * of its four (so thin strokes of small print stay ink), where screentone dots shrink below a
 * glyph's size; art strokes fail the size, shape or light-surround tests.
 * It is an estimate for planning, never a reading: a wrong count costs time or money, not text.
 */

import { freeBuffer } from "./free-buffer";

/** Darker than this (0..255 luma) is ink. */
const INK = 96;
/** The ring around a glyph's box is paper: at least this light on average. */
const PAPER = 160;
/** Glyph boxes at half resolution: from 4 px (small print) to 32 px (a large title is not body text). */
const MIN_SIDE = 4;
const MAX_SIDE = 32;
/** Ink over box area: a glyph is neither a hairline nor a filled blob. */
const MIN_FILL = 0.3;
const MAX_FILL = 0.85;
const MAX_ASPECT = 5;

/**
 * Characters of lettering on the page, estimated from glyph-like components in straight RGBA
 * pixels (alpha ignored: the reader copy is opaque). A large character breaks into several
 * components and a small one into fewer, so the estimate is the components' area over the area
 * of a character, a character being as large as the largest components (one-piece characters).
 */
export function estimateCharacters(pixels: Uint8Array, width: number, height: number): number {
	const w = width >> 1;
	const h = height >> 1;
	if (w < 4 || h < 4) return 0;
	const luma = halfDarkest(pixels, width, w, h);
	const seen = new Uint8Array(w * h);
	const stack = new Int32Array(w * h);
	const sides: number[] = [];
	let area = 0;
	for (let start = 0; start < luma.length; start++) {
		if (seen[start] || (luma[start] as number) >= INK) continue;
		// Flood the component (4-connected), keeping its box and size.
		let top = 0;
		stack[top++] = start;
		seen[start] = 1;
		let count = 0;
		let x0 = w;
		let y0 = h;
		let x1 = -1;
		let y1 = -1;
		while (top > 0) {
			const i = stack[--top] as number;
			const x = i % w;
			const y = (i - x) / w;
			count++;
			if (x < x0) x0 = x;
			if (x > x1) x1 = x;
			if (y < y0) y0 = y;
			if (y > y1) y1 = y;
			if (x > 0) top = push(i - 1, top);
			if (x < w - 1) top = push(i + 1, top);
			if (y > 0) top = push(i - w, top);
			if (y < h - 1) top = push(i + w, top);
		}
		if (glyphLike(count, x0, y0, x1, y1) && ringIsPaper(luma, w, h, x0, y0, x1, y1)) {
			sides.push(Math.max(x1 - x0, y1 - y0) + 1);
			area += (x1 - x0 + 1) * (y1 - y0 + 1);
		}
	}
	for (const done of [luma, seen, stack]) freeBuffer(done);
	if (sides.length === 0) return 0;
	sides.sort((a, b) => a - b);
	const character = sides[Math.floor(sides.length * 0.9)] as number;
	return area / (character * character);

	function push(i: number, top: number): number {
		if (seen[i] || (luma[i] as number) >= INK) return top;
		seen[i] = 1;
		stack[top] = i;
		return top + 1;
	}
}

function glyphLike(count: number, x0: number, y0: number, x1: number, y1: number): boolean {
	const bw = x1 - x0 + 1;
	const bh = y1 - y0 + 1;
	if (bw > MAX_SIDE || bh > MAX_SIDE || Math.max(bw, bh) < MIN_SIDE) return false;
	if (Math.max(bw, bh) > MAX_ASPECT * Math.min(bw, bh)) return false;
	const fill = count / (bw * bh);
	return fill >= MIN_FILL && fill <= MAX_FILL;
}

/** The mean luma of the one-pixel ring just outside the box. */
function ringIsPaper(luma: Uint8Array, w: number, h: number, x0: number, y0: number, x1: number, y1: number): boolean {
	let sum = 0;
	let n = 0;
	const add = (x: number, y: number) => {
		if (x < 0 || y < 0 || x >= w || y >= h) return;
		sum += luma[y * w + x] as number;
		n++;
	};
	for (let x = x0 - 1; x <= x1 + 1; x++) {
		add(x, y0 - 1);
		add(x, y1 + 1);
	}
	for (let y = y0; y <= y1; y++) {
		add(x0 - 1, y);
		add(x1 + 1, y);
	}
	return n > 0 && sum / n >= PAPER;
}

/** The darkest luma of each 2x2 block. */
function halfDarkest(pixels: Uint8Array, width: number, w: number, h: number): Uint8Array {
	const luma = new Uint8Array(w * h);
	for (let y = 0; y < h; y++) {
		for (let x = 0; x < w; x++) {
			let darkest = 255;
			for (let dy = 0; dy < 2; dy++) {
				let i = ((2 * y + dy) * width + 2 * x) * 4;
				for (let dx = 0; dx < 2; dx++, i += 4) {
					const l =
						((pixels[i] as number) * 77 + (pixels[i + 1] as number) * 150 + (pixels[i + 2] as number) * 29) >> 8;
					if (l < darkest) darkest = l;
				}
			}
			luma[y * w + x] = darkest;
		}
	}
	return luma;
}
