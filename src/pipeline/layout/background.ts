import type { Box, Patch } from "../types";
import { labelComponents } from "./components";
import { medianRgba } from "./median";
import { findRepeats } from "./periodic";

/**
 * What lies behind the lettering, read from the patch:
 * - "flat": one colour (a balloon, a label), the most common colour inside the reader's box;
 * - "gradient": a plane per channel fitted to the border ring (flat art counts too);
 * - "periodic": a pattern that repeats (screentone, line tones, weaves), predicted at each pixel
 *   from the pixels a period away (periodic.ts); `planes` then hold the border ring's mean;
 * - "texture": none fits; the lettering is then found by its own colour instead.
 */
export interface Background {
	kind: "flat" | "gradient" | "periodic" | "texture";
	/** For "periodic": the shifts by which it repeats, [dx, dy] pairs. */
	repeats?: Int16Array;
	/** Per channel RGBA: value = a + b·x + c·y in patch coordinates (constant for flat). */
	planes: [number, number, number][];
	/** RMS distance of the ring's inliers from the plane: 0 for clean art, high for texture. */
	noise: number;
}

/** The background's colour at the patch's origin, a value per channel (its planes' constants). */
export function colourOf(bg: Background): number[] {
	return bg.planes.map((p) => p[0]);
}

const RING = 2;
/** A channel difference within which two pixels count as the same background. */
const SAME = 16;
/** Within this of one colour, pixels are flat art (JPEG noise included); a gradient spreads wider. */
const FLAT = 8;
/**
 * Share of the reader's box within FLAT of its commonest colour from which the background is one
 * colour (or a gradient): dense lettering in a tight balloon leaves under half of it to the
 * background; photo texture measures under a quarter on bench/corpus.
 */
const MOSTLY = 0.33;

/** The same background for a patch whose origin lies (dx, dy) from the one it was fitted on. */
export function shiftBackground(bg: Background, dx: number, dy: number): Background {
	const planes = bg.planes.map(([a, b, c]): [number, number, number] => [a + b * dx + c * dy, b, c]);
	return { ...bg, planes };
}

export function predict(bg: Background, x: number, y: number, channel: number): number {
	const [a, b, c] = bg.planes[channel]!;
	return a + b * x + c * y;
}

/**
 * The background of the patch around the lettering in `readerBox` (patch coordinates). When the
 * lettering is known (`lettering`, 1 on its pixels), the box's background is measured without it
 * (bold glyphs fill over a third of their own tight box and would pass for a flat background), and
 * only told flat from gradient or texture: it was measured once, and did not repeat.
 */
export function fitBackground(patch: Patch, readerBox: Box, lettering?: Uint8Array): Background {
	const ring = ringPixels(patch);
	const { planes, noise, inliers } = fitRing(patch, ring);
	// Checked first: screentone of dots on paper also reads as flat by its dominant colour. Known
	// lettering was found on a background already measured, and not found to repeat.
	const repeats = lettering ? undefined : findRepeats(patch, readerBox);
	if (repeats) return { kind: "periodic", planes, noise, repeats };
	const smooth = noise <= 6 && inliers >= 0.5;
	const inside = boxPixels(patch, readerBox, lettering);
	const mode = dominantColour(patch.data, inside);
	// On texture, a colour filling a third of the box yet rare on two sides of the ring round it, filling
	// none (a side on paper is all paper; lettering crossed leaves gaps) and in pieces is no background
	// the box lies on: bold lettering filling its own tight box on a photo, the ring crossing only the
	// lines the box was cut short of. Taken for the background, the photo in its counters would be
	// erased as ink.
	const inkFilled =
		mode && mode.share >= MOSTLY && !smooth && !lettering && strokesOnly(patch, mode.colour, mode.share);
	if (mode && mode.share >= MOSTLY && !inkFilled) {
		// Mostly one colour inside: flat art, unless the ring shows a real slope across the box that
		// the inside follows too (a ring half on a tight balloon, half on the paper beyond, slopes).
		const { x0, y0, x1, y1 } = readerBox;
		const slope = (c: number) => Math.abs(planes[c]![1] * (x1 - x0)) + Math.abs(planes[c]![2] * (y1 - y0));
		const sloped = smooth && [0, 1, 2, 3].some((c) => slope(c) > FLAT);
		if (sloped && followsPlane(patch, inside, mode.colour, planes)) return { kind: "gradient", planes, noise };
		return flatBackground(mode.colour);
	}
	if (smooth && inliers >= 0.6) return { kind: "gradient", planes, noise };
	return { kind: "texture", planes, noise };
}

/** A colour's share of a side of the ring, against its share of the box, below which that side lacks it. */
const RING_SHARE = 0.25;
/** Share of a side of the ring a background the box lies on fills, at least, where the side lies on it. */
const SIDE_FILLED = 0.75;
/** Share of a colour's pixels inside the ring its largest piece holds, at least, when it is paper. */
const ONE_PIECE = 0.5;

/**
 * Whether `colour` (a `boxShare` of the reader's box) is lacking on two sides of the patch's ring (RING
 * px each) at least, fills none of them, and lies in pieces within it: lettering's strokes.
 */
function strokesOnly(patch: Patch, colour: number[], boxShare: number): boolean {
	const { width: w, height: h, data } = patch;
	const [r, g, b, a] = colour as [number, number, number, number];
	const share = (x0: number, y0: number, x1: number, y1: number) => {
		let near = 0;
		for (let y = y0; y < y1; y++)
			for (let x = x0; x < x1; x++) if (offColour(data, (y * w + x) * 4, r, g, b, a) <= FLAT) near++;
		return near / Math.max(1, (x1 - x0) * (y1 - y0));
	};
	const sides = [share(0, 0, w, RING), share(0, h - RING, w, h), share(0, 0, RING, h), share(w - RING, 0, w, h)];
	if (sides.filter((s) => s < RING_SHARE * boxShare).length < 2 || sides.some((s) => s >= SIDE_FILLED)) return false;
	// A tight label's paper lacks on every side too, but it is one piece round its lettering; ink is
	// split in glyphs.
	const box = { x0: RING, y0: RING, x1: w - RING, y1: h - RING };
	const bw = box.x1 - box.x0;
	const member = new Uint8Array(Math.max(0, bw * (box.y1 - box.y0)));
	let count = 0;
	for (let y = box.y0; y < box.y1; y++)
		for (let x = box.x0; x < box.x1; x++)
			if (offColour(data, (y * w + x) * 4, r, g, b, a) <= FLAT) {
				member[(y - box.y0) * bw + x - box.x0] = 1;
				count++;
			}
	const pieces = labelComponents(member, bw, box.y1 - box.y0, new Int32Array(member.length));
	return pieces.reduce((most, p) => Math.max(most, p.area), 0) < ONE_PIECE * count;
}

/**
 * The reader's box's commonest colours (each filling a twentieth of the box or more) as flat
 * backgrounds, commonest first: a box that crosses a panel's edge onto screentone, or holds two
 * signs on a wall, is measured as pattern or gradient, yet its lettering sits in flat shapes.
 */
export function boxColours(patch: Patch, readerBox: Box): Background[] {
	const { data } = patch;
	const pixels = boxPixels(patch, readerBox);
	const total = pixels.length;
	let count = total;
	const out: Background[] = [];
	while (out.length < BOX_COLOURS) {
		const colour = commonestColour(data, pixels, count);
		if (!colour) break;
		const [r, g, b, a] = colour as [number, number, number, number];
		// In one pass: the pixels near the colour (its share), and those left for the next colour, in
		// order, in place. Shades of one colour (paper under a gradient) are one colour to a flood:
		// the next is another.
		let near = 0;
		let left = 0;
		for (let k = 0; k < count; k++) {
			const i = pixels[k]!;
			const off = offColour(data, i * 4, r, g, b, a);
			if (off <= FLAT) near++;
			if (off > SAME) pixels[left++] = i;
		}
		if (near < SHAPE_SHARE * total) break;
		out.push(flatBackground(colour));
		count = left;
	}
	return out;
}

const BOX_COLOURS = 4;

/** One colour (RGBA) as a background: planes with no slope. */
function flatBackground(colour: number[]): Background {
	return { kind: "flat", planes: colour.map((v): [number, number, number] => [v, 0, 0]), noise: 0 };
}

/**
 * The box's colours flat as paper, commonest first (BOX_COLOURS at most), each filling a twentieth
 * of the box or more: a balloon's inside is one colour to a level or two, however far the box ran
 * past it onto art, so its pixels fall in one bin of a 4-bit histogram, the bins next to it holding
 * little more than its anti-aliased rim; photo texture and painted art spread evenly over the bins
 * around any colour (sensor noise over several levels). Two passes over the box when none is found:
 * on a photo nothing more is looked at, and nothing is flooded.
 */
export function paperColours(patch: Patch, readerBox: Box): Background[] {
	const { data, width } = patch;
	const { x0, y0, x1, y1 } = readerBox;
	const counts = colourCounts;
	for (let y = y0; y < y1; y++)
		for (let i = y * width + x0, end = y * width + x1; i < end; i++) counts[quantise(data, i)]!++;
	const common = SHAPE_SHARE * (x1 - x0) * (y1 - y0);
	const looked: number[] = [];
	const bins: { bin: number; share: number }[] = [];
	for (let y = y0; y < y1; y++) {
		for (let i = y * width + x0, end = y * width + x1; i < end; i++) {
			const bin = quantise(data, i);
			if (counts[bin]! < common || binLooked[bin]) continue;
			binLooked[bin] = 1;
			looked.push(bin);
			if (counts[bin]! >= PAPER_SHARE * binWithNeighbours(counts, bin)) bins.push({ bin, share: counts[bin]! });
		}
	}
	for (const bin of looked) binLooked[bin] = 0;
	for (let y = y0; y < y1; y++)
		for (let i = y * width + x0, end = y * width + x1; i < end; i++) counts[quantise(data, i)] = 0;
	// Only for a paper colour (none on a photo): its pixels, for its median.
	return bins
		.sort((p, q) => q.share - p.share)
		.slice(0, BOX_COLOURS)
		.map(({ bin, share }) => {
			const members = new Int32Array(share);
			let k = 0;
			for (let y = y0; y < y1; y++)
				for (let i = y * width + x0, end = y * width + x1; i < end; i++)
					if (quantise(data, i) === bin) members[k++] = i;
			return flatBackground(medianRgba(data, members)!);
		});
}

/** Pixels in a bin (quantise's layout) and the bins a step from it in each colour channel (alpha as it is). */
export function binWithNeighbours(counts: Uint32Array, bin: number): number {
	let sum = 0;
	const [r, g, b] = [(bin >> 12) & 15, (bin >> 8) & 15, (bin >> 4) & 15];
	for (let dr = -1; dr <= 1; dr++)
		for (let dg = -1; dg <= 1; dg++)
			for (let db = -1; db <= 1; db++) {
				const [nr, ng, nb] = [r + dr, g + dg, b + db];
				if (nr < 0 || ng < 0 || nb < 0 || nr > 15 || ng > 15 || nb > 15) continue;
				sum += counts[(nr << 12) | (ng << 8) | (nb << 4) | (bin & 15)]!;
			}
	return sum;
}

/** Share of the pixels in a paper colour's bin and those around it that its own bin holds, at least. */
const PAPER_SHARE = 0.8;
/** The bins paperColours has looked at (zeroed again after each use), beside colourCounts. */
const binLooked = new Uint8Array(65536);
const SHAPE_SHARE = 0.05;

/**
 * Whether the inside's background pixels (within SAME of its commonest colour) lie closer to the
 * ring's plane than to that one colour: a gradient runs on under the text, a flat fill does not.
 */
function followsPlane(patch: Patch, inside: Int32Array, colour: number[], planes: Plane[]): boolean {
	let fromColour = 0;
	let fromPlane = 0;
	for (let k = 0; k < inside.length; k++) {
		const i = inside[k]!;
		let off = 0;
		for (let c = 0; c < 4; c++) off = Math.max(off, Math.abs(patch.data[i * 4 + c]! - colour[c]!));
		if (off > SAME) continue;
		fromColour += off;
		fromPlane += distanceAt(patch, planes, i);
	}
	return fromPlane < fromColour;
}

/** Largest channel difference between each pixel of the patch and the background there, up to 255. */
export function distanceMap(patch: Patch, planes: [number, number, number][]): Uint8Array {
	if (planes.every(([, b, c]) => b === 0 && c === 0)) return distanceFromColour(patch, planes);
	const { width: w, height: h, data } = patch;
	const out = new Uint8Array(w * h);
	const [r, g, b, a] = planes as [Plane, Plane, Plane, Plane];
	for (let y = 0; y < h; y++) {
		for (let x = 0, i = y * w; x < w; x++, i++) {
			const dr = Math.abs(data[i * 4]! - (r[0] + r[1] * x + r[2] * y));
			const dg = Math.abs(data[i * 4 + 1]! - (g[0] + g[1] * x + g[2] * y));
			const db = Math.abs(data[i * 4 + 2]! - (b[0] + b[1] * x + b[2] * y));
			const da = Math.abs(data[i * 4 + 3]! - (a[0] + a[1] * x + a[2] * y));
			out[i] = Math.min(255, Math.max(dr, dg, db, da));
		}
	}
	return out;
}

/**
 * distanceMap for planes without slope (a flat background: a balloon, a label, most of layout's
 * calls): each channel's difference looked up by value, 256 of them, not computed per pixel. They
 * are looked up as the whole levels the map holds, capped at 255: the largest of the four truncated
 * is the largest truncated, and comparing bytes costs less than comparing doubles.
 */
function distanceFromColour(patch: Patch, planes: Plane[]): Uint8Array {
	const { width: w, height: h, data } = patch;
	const out = new Uint8Array(w * h);
	const off = new Uint8Array(4 * 256);
	for (let c = 0; c < 4; c++)
		for (let v = 0; v < 256; v++) off[c * 256 + v] = Math.min(255, Math.abs(v - planes[c]![0]));
	for (let i = 0, p = 0; i < out.length; i++, p += 4) {
		let d = off[data[p]!]!;
		const dg = off[256 + data[p + 1]!]!;
		if (dg > d) d = dg;
		const db = off[512 + data[p + 2]!]!;
		if (db > d) d = db;
		const da = off[768 + data[p + 3]!]!;
		if (da > d) d = da;
		out[i] = d;
	}
	return out;
}

type Plane = [number, number, number];

/** Same as distanceMap, for one pixel. */
function distanceAt(patch: Patch, planes: Plane[], i: number): number {
	const y = Math.floor(i / patch.width);
	const x = i - y * patch.width;
	let worst = 0;
	for (let c = 0; c < 4; c++) {
		const p = planes[c]!;
		const d = Math.abs(patch.data[i * 4 + c]! - (p[0] + p[1] * x + p[2] * y));
		if (d > worst) worst = d;
	}
	return worst;
}

/**
 * The histogram commonestColour counts in (4 bits a channel, 256 KB), zeroed again bin by bin after
 * each use: layout measures colours several times per region, mostly over far fewer pixels than bins.
 */
const colourCounts = new Uint32Array(65536);

/**
 * The most common colour among the pixels (4 bits a channel; its median exactly), with the share
 * of pixels within FLAT of it. Undefined for no pixels.
 */
export function dominantColour(data: Uint8Array, pixels: Int32Array): { colour: number[]; share: number } | undefined {
	const colour = commonestColour(data, pixels, pixels.length);
	if (!colour) return undefined;
	const [r, g, b, a] = colour as [number, number, number, number];
	let near = 0;
	for (let k = 0; k < pixels.length; k++) if (offColour(data, pixels[k]! * 4, r, g, b, a) <= FLAT) near++;
	return { colour, share: near / pixels.length };
}

/**
 * The most common colour among the first `count` pixels (4 bits a channel; its median exactly); of
 * two as common, the one that was first to be counted that often.
 */
function commonestColour(data: Uint8Array, pixels: Int32Array, count: number): number[] | undefined {
	if (count === 0) return undefined;
	const counts = colourCounts;
	const bins = binsOf(count);
	let best = 0;
	for (let k = 0; k < count; k++) {
		const bin = quantise(data, pixels[k]!);
		bins[k] = bin;
		const n = ++counts[bin]!;
		if (n > counts[best]!) best = bin;
	}
	const members = new Int32Array(counts[best]!);
	let m = 0;
	for (let k = 0; k < count; k++) {
		const bin = bins[k]!;
		if (bin === best) members[m++] = pixels[k]!;
		counts[bin] = 0;
	}
	return medianRgba(data, members);
}

/** Each pixel's bin, kept between commonestColour's two passes (grown to the most pixels asked of it), not quantised twice. */
let binScratch = new Uint16Array(0);

function binsOf(n: number): Uint16Array {
	if (binScratch.length < n) binScratch = new Uint16Array(n);
	return binScratch;
}

/** Largest channel difference (RGBA) between the pixel at byte `p` and (r, g, b, a). */
function offColour(data: Uint8Array, p: number, r: number, g: number, b: number, a: number): number {
	let off = Math.abs(data[p]! - r);
	const dg = Math.abs(data[p + 1]! - g);
	if (dg > off) off = dg;
	const db = Math.abs(data[p + 2]! - b);
	if (db > off) off = db;
	const da = Math.abs(data[p + 3]! - a);
	if (da > off) off = da;
	return off;
}

export function quantise(data: Uint8Array, i: number): number {
	return (
		((data[i * 4]! >> 4) << 12) |
		((data[i * 4 + 1]! >> 4) << 8) |
		((data[i * 4 + 2]! >> 4) << 4) |
		(data[i * 4 + 3]! >> 4)
	);
}

/**
 * Plane fit to the ring, robust to a ring that crosses a balloon outline or art: start from the
 * ring's dominant colour, fit the plane to the pixels near it, then re-admit every ring pixel
 * near the plane and fit again.
 */
function fitRing(patch: Patch, ring: Int32Array): { planes: Plane[]; noise: number; inliers: number } {
	const { data } = patch;
	const [r, g, b, a] = dominantColour(data, ring)!.colour as [number, number, number, number];
	// Plain loops, not `filter`: a closure called per pixel of the ring cost more than the fit itself.
	const nearMode = new Int32Array(ring.length);
	let count = 0;
	for (let k = 0; k < ring.length; k++)
		if (offColour(data, ring[k]! * 4, r, g, b, a) <= NEAR_MODE) nearMode[count++] = ring[k]!;
	let use: Int32Array = nearMode.subarray(0, count);
	let planes = fitPlanes(patch, use.length >= 8 ? use : ring);
	for (let round = 0; round < 2; round++) {
		const next = nearPlanes(patch, planes, ring);
		if (next.length < 8) break;
		use = next;
		planes = fitPlanes(patch, use);
	}
	// A ring of texture leaves few inliers near any plane: its noise is measured over the whole ring.
	const measured = use.length >= 0.5 * ring.length ? use : ring;
	let squares = 0;
	for (let k = 0; k < measured.length; k++) squares += distanceAt(patch, planes, measured[k]!) ** 2;
	return {
		planes,
		noise: Math.sqrt(squares / Math.max(1, measured.length)),
		inliers: use.length / Math.max(1, ring.length),
	};
}

/** Levels (each channel) from the ring's commonest colour within which a pixel starts the fit. */
const NEAR_MODE = 24;

/** The pixels within SAME of the planes. */
function nearPlanes(patch: Patch, planes: Plane[], pixels: Int32Array): Int32Array {
	const out = new Int32Array(pixels.length);
	let count = 0;
	for (let k = 0; k < pixels.length; k++) if (distanceAt(patch, planes, pixels[k]!) <= SAME) out[count++] = pixels[k]!;
	return out.subarray(0, count);
}

function ringPixels(patch: Patch): Int32Array {
	const { width: w, height: h } = patch;
	const ring: number[] = [];
	for (let y = 0; y < h; y++) {
		for (let x = 0; x < w; x++) {
			if (x < RING || y < RING || x >= w - RING || y >= h - RING) ring.push(y * w + x);
			else if (x === RING) x = w - RING - 1; // skip the inside of the row
		}
	}
	return Int32Array.from(ring);
}

/** The indices of `box`'s pixels, row by row, those set in `without` left out. */
export function boxPixels(patch: Patch, box: Box, without?: Uint8Array): Int32Array {
	const out = new Int32Array(Math.max(0, (box.x1 - box.x0) * (box.y1 - box.y0)));
	let k = 0;
	for (let y = box.y0; y < box.y1; y++) {
		for (let x = box.x0; x < box.x1; x++) {
			const i = y * patch.width + x;
			if (!without?.[i]) out[k++] = i;
		}
	}
	return out.subarray(0, k);
}

/** Least squares for a + b·x + c·y per channel over the given pixels (3×3 normal equations). */
function fitPlanes(patch: Patch, pixels: Int32Array): Plane[] {
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
	const { width, data } = patch;
	const cx = width / 2;
	const cy = patch.height / 2;
	for (let k = 0; k < pixels.length; k++) {
		const i = pixels[k]!;
		const row = Math.floor(i / width);
		const x = i - row * width - cx;
		const y = row - cy;
		n++;
		sx += x;
		sy += y;
		sxx += x * x;
		sxy += x * y;
		syy += y * y;
		for (let c = 0; c < 4; c++) {
			const v = data[i * 4 + c]!;
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
