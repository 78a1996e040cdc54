import type { Box } from "../types";
import type { Patch } from "./patch";

/**
 * What lies behind the lettering, read from the patch:
 * - "flat": one colour (a balloon, a label), the most common colour inside the reader's box;
 * - "gradient": a plane per channel fitted to the border ring (flat art counts too);
 * - "texture": neither fits; the lettering is then found by its own colour instead.
 */
export interface Background {
	kind: "flat" | "gradient" | "texture";
	/** Per channel RGBA: value = a + b·x + c·y in patch coordinates (constant for flat). */
	planes: [number, number, number][];
	/** RMS distance of the ring's inliers from the plane: 0 for clean art, high for texture. */
	noise: number;
}

const RING = 2;
/** A channel difference within which two pixels count as the same background. */
const SAME = 16;
/** Within this of one colour, pixels are flat art (JPEG noise included); a gradient spreads wider. */
const FLAT = 8;

export function predict(bg: Background, x: number, y: number, channel: number): number {
	const [a, b, c] = bg.planes[channel]!;
	return a + b * x + c * y;
}

export function fitBackground(patch: Patch, readerBox: Box): Background {
	const ring = ringPixels(patch);
	const inner = boxPixels(patch, readerBox);
	const { planes, noise, inliers } = fitRing(patch, ring);
	const smooth = noise <= 6 && inliers >= 0.5;
	const mode = dominantColour(patch, inner);
	if (mode && mode.share >= 0.4) {
		// Mostly one colour inside: flat art, unless the ring shows a real slope across the box.
		const { x0, y0, x1, y1 } = readerBox;
		const slope = (c: number) => Math.abs(planes[c]![1] * (x1 - x0)) + Math.abs(planes[c]![2] * (y1 - y0));
		if (smooth && [0, 1, 2, 3].some((c) => slope(c) > FLAT)) return { kind: "gradient", planes, noise };
		return { kind: "flat", planes: mode.colour.map((v): [number, number, number] => [v, 0, 0]), noise: 0 };
	}
	if (smooth && inliers >= 0.6) return { kind: "gradient", planes, noise };
	return { kind: "texture", planes, noise };
}

/** Largest channel difference between a pixel and the background there. */
export function distanceFromBackground(patch: Patch, bg: Pick<Background, "planes">, i: number): number {
	const x = i % patch.width;
	const y = (i - x) / patch.width;
	let worst = 0;
	for (let c = 0; c < 4; c++) {
		const d = Math.abs(patch.data[i * 4 + c]! - evaluate(bg.planes[c]!, x, y));
		if (d > worst) worst = d;
	}
	return worst;
}

function evaluate([a, b, c]: [number, number, number], x: number, y: number): number {
	return a + b * x + c * y;
}

/**
 * The most common colour among the pixels (4 bits a channel), with the share of pixels within
 * FLAT of it. Undefined for no pixels.
 */
export function dominantColour(patch: Patch, pixels: number[]): { colour: number[]; share: number } | undefined {
	if (pixels.length === 0) return undefined;
	const counts = new Uint32Array(65536);
	let best = 0;
	for (const i of pixels) {
		const bin = quantise(patch.data, i);
		counts[bin]!++;
		if (counts[bin]! > counts[best]!) best = bin;
	}
	const members = pixels.filter((i) => quantise(patch.data, i) === best);
	const colour = [0, 1, 2, 3].map((c) => median(members.map((i) => patch.data[i * 4 + c]!)));
	const near = pixels.filter((i) => [0, 1, 2, 3].every((c) => Math.abs(patch.data[i * 4 + c]! - colour[c]!) <= FLAT));
	return { colour, share: near.length / pixels.length };
}

export function quantise(data: Uint8Array, i: number): number {
	return (
		((data[i * 4]! >> 4) << 12) |
		((data[i * 4 + 1]! >> 4) << 8) |
		((data[i * 4 + 2]! >> 4) << 4) |
		(data[i * 4 + 3]! >> 4)
	);
}

function median(values: number[]): number {
	return values.sort((a, b) => a - b)[values.length >> 1] ?? 0;
}

/**
 * Plane fit to the ring, robust to a ring that crosses a balloon outline or art: start from the
 * ring's dominant colour, fit the plane to the pixels near it, then re-admit every ring pixel
 * near the plane and fit again.
 */
function fitRing(patch: Patch, ring: number[]): { planes: [number, number, number][]; noise: number; inliers: number } {
	const mode = dominantColour(patch, ring)!;
	let use = ring.filter((i) => [0, 1, 2, 3].every((c) => Math.abs(patch.data[i * 4 + c]! - mode.colour[c]!) <= 24));
	let planes = fitPlanes(patch, use.length >= 8 ? use : ring);
	for (let round = 0; round < 2; round++) {
		const next = ring.filter((i) => distanceFromBackground(patch, { planes }, i) <= SAME);
		if (next.length < 8) break;
		use = next;
		planes = fitPlanes(patch, use);
	}
	const squares = use.reduce((sum, i) => sum + distanceFromBackground(patch, { planes }, i) ** 2, 0);
	// A ring of texture leaves few inliers near any plane: its noise is measured over the whole ring.
	const measured = use.length >= 0.5 * ring.length ? use : ring;
	const noise =
		measured === use
			? Math.sqrt(squares / Math.max(1, use.length))
			: Math.sqrt(ring.reduce((s, i) => s + distanceFromBackground(patch, { planes }, i) ** 2, 0) / ring.length);
	return { planes, noise, inliers: use.length / Math.max(1, ring.length) };
}

function ringPixels(patch: Patch): number[] {
	const { width: w, height: h } = patch;
	const ring: number[] = [];
	for (let y = 0; y < h; y++) {
		for (let x = 0; x < w; x++) {
			if (x < RING || y < RING || x >= w - RING || y >= h - RING) ring.push(y * w + x);
		}
	}
	return ring;
}

export function boxPixels(patch: Patch, box: Box): number[] {
	const pixels: number[] = [];
	for (let y = box.y0; y < box.y1; y++) for (let x = box.x0; x < box.x1; x++) pixels.push(y * patch.width + x);
	return pixels;
}

/** Least squares for a + b·x + c·y per channel over the given pixels (3×3 normal equations). */
function fitPlanes(patch: Patch, pixels: number[]): [number, number, number][] {
	let n = 0;
	let sx = 0;
	let sy = 0;
	let sxx = 0;
	let sxy = 0;
	let syy = 0;
	const sv = [0, 0, 0, 0];
	const svx = [0, 0, 0, 0];
	const svy = [0, 0, 0, 0];
	// Centred coordinates keep the system well conditioned.
	const cx = patch.width / 2;
	const cy = patch.height / 2;
	for (const i of pixels) {
		const x = (i % patch.width) - cx;
		const y = Math.floor(i / patch.width) - cy;
		n++;
		sx += x;
		sy += y;
		sxx += x * x;
		sxy += x * y;
		syy += y * y;
		for (let c = 0; c < 4; c++) {
			const v = patch.data[i * 4 + c]!;
			sv[c]! += v;
			svx[c]! += v * x;
			svy[c]! += v * y;
		}
	}
	const planes: [number, number, number][] = [];
	for (let c = 0; c < 4; c++) {
		const solved = solve3([n, sx, sy, sx, sxx, sxy, sy, sxy, syy], [sv[c]!, svx[c]!, svy[c]!]);
		const [a, b, d] = solved ?? [sv[c]! / Math.max(1, n), 0, 0];
		planes.push([a - b * cx - d * cy, b, d]);
	}
	return planes;
}

/** Cramer's rule; undefined when the pixels do not span a plane (a single row or column). */
function solve3(m: number[], r: number[]): [number, number, number] | undefined {
	const det = (a: number[]) =>
		a[0]! * (a[4]! * a[8]! - a[5]! * a[7]!) -
		a[1]! * (a[3]! * a[8]! - a[5]! * a[6]!) +
		a[2]! * (a[3]! * a[7]! - a[4]! * a[6]!);
	const d = det(m);
	if (Math.abs(d) < 1e-9) return undefined;
	const column = (k: number) => m.map((v, i) => (i % 3 === k ? r[Math.floor(i / 3)]! : v));
	return [det(column(0)) / d, det(column(1)) / d, det(column(2)) / d];
}
