/** Levels of a breadth-first walk over a patch: how many steps each pixel lies from a set of seeds. */
import { forEachEdgePixel, neighboursOr } from "./masks";

/** Steps of pixels no walk reached. */
export const UNREACHED = 0xffff;

/**
 * Chessboard steps (8-neighbours) from the nearest pixel set in `seed`, walking only through pixels
 * set in `passable`: 0 on the seeds, UNREACHED where no walk of at most `reach` steps leads. With
 * `fromEdge`, the world past the patch edge is a seed too: passable pixels on the edge are 1 step away.
 *
 * The first step is taken from whichever side is smaller: from the seeds to their passable neighbours,
 * or from each passable pixel to a seed next to it (a balloon's whole inside seeds the walk through
 * its few lettering pixels). Breadth first after that, so the steps are the same either way.
 */
export function stepsFrom(
	seed: Uint8Array,
	passable: Uint8Array,
	w: number,
	h: number,
	{ reach = UNREACHED - 1, fromEdge = false }: { reach?: number; fromEdge?: boolean } = {},
): Uint16Array {
	const n = w * h;
	// Seeds at 0 as the array starts, the rest unreached, set as the seeds are counted; the passable
	// pixels that are no seed are listed as they are met, for the first step from their side.
	const steps = new Uint16Array(n);
	const queue = queueOf(n);
	const open = openOf(n);
	let seeds = 0;
	let opened = 0;
	for (let i = 0; i < n; i++) {
		if (seed[i]) seeds++;
		else {
			steps[i] = UNREACHED;
			if (passable[i]) open[opened++] = i;
		}
	}
	if (reach < 1) return steps;
	let end = 0;
	// From the seeds, the walk itself takes the first step: they are queued at 0 steps. From the
	// passable pixels, in raster order as listed, a pixel's neighbours asked with its column known.
	if (seeds <= opened) {
		for (let i = 0; i < n; i++) if (seed[i]) queue[end++] = i;
	} else end = stepNextToSeeds(steps, open, opened, passable, w, h, queue);
	if (fromEdge) end = stepFromEdge(steps, passable, w, h, queue, end);
	walk(steps, passable, w, n, queue, end, reach);
	return steps;
}

/**
 * The steps through `ink` from the inside and from the world beyond a balloon's outline, as
 * stepsFrom(inside background, ink, { reach: reachIn }) and stepsFrom(world beyond, ink, { fromEdge:
 * true, reach: reachOut }) give them (both reaches 1 or more), `outside` holding the ink and the
 * world beyond (1, else 0; ink 0 or 1). Every pixel that is no ink seeds one of the two walks: both
 * are set up in one pass over the patch, and both first steps taken in one more, from the ink (the
 * steps are the same from either side).
 */
export function stepsAcrossInk(
	outside: Uint8Array,
	ink: Uint8Array,
	w: number,
	h: number,
	reachIn: number,
	reachOut: number,
): { dIn: Uint16Array; dOut: Uint16Array } {
	const n = w * h;
	const dIn = new Uint16Array(n);
	const dOut = new Uint16Array(n);
	// Which walk each pixel seeds: 1 the inside's, 2 the world beyond's, 0 none (ink). Both masks hold
	// 0 or 1, ink within outside: worked out without a branch.
	const seeds = new Uint8Array(n);
	for (let i = 0; i < n; i++) {
		const out = outside[i]!;
		const seedIn = 1 - out;
		const seedOut = out & (1 - ink[i]!);
		dIn[i] = (1 - seedIn) * UNREACHED;
		dOut[i] = (1 - seedOut) * UNREACHED;
		seeds[i] = seedIn | (seedOut << 1);
	}
	// The ink next to either walk's seeds, in one look at each ink pixel's neighbours (past the patch
	// edge clamped back to the pixel's own row or column, neighboursOr): each walk's first step.
	const queue = queueOf(n);
	const beyond = openOf(n);
	let endIn = 0;
	let endOut = 0;
	for (let y = 0; y < h; y++) {
		const row = y * w;
		const above = y > 0 ? row - w : row;
		const below = y < h - 1 ? row + w : row;
		for (let x = 0; x < w; x++) {
			const i = row + x;
			if (!ink[i]) continue;
			const l = x > 0 ? x - 1 : x;
			const r = x < w - 1 ? x + 1 : x;
			const next = neighboursOr(seeds, above, row, below, l, x, r);
			if (next & 1) {
				dIn[i] = 1;
				queue[endIn++] = i;
			}
			if (next & 2) {
				dOut[i] = 1;
				beyond[endOut++] = i;
			}
		}
	}
	walk(dIn, ink, w, n, queue, endIn, reachIn);
	walk(dOut, ink, w, n, beyond, stepFromEdge(dOut, ink, w, h, beyond, endOut), reachOut);
	return { dIn, dOut };
}

/**
 * The first step taken from the passable side: each of the `opened` pixels listed in `open` (passable,
 * no seed, raster order) next to a seed is 1 step away, queued from the start; the queue's end.
 */
function stepNextToSeeds(
	steps: Uint16Array,
	open: Int32Array,
	opened: number,
	passable: Uint8Array,
	w: number,
	h: number,
	queue: Int32Array,
): number {
	let end = 0;
	for (let k = 0; k < opened; k++) {
		const i = open[k]!;
		const y = (i / w) | 0;
		const x = i - y * w;
		const left = x > 0;
		const right = x < w - 1;
		const byASeed =
			(left && steps[i - 1] === 0) ||
			(right && steps[i + 1] === 0) ||
			(y > 0 && (steps[i - w] === 0 || (left && steps[i - w - 1] === 0) || (right && steps[i - w + 1] === 0))) ||
			(y < h - 1 && (steps[i + w] === 0 || (left && steps[i + w - 1] === 0) || (right && steps[i + w + 1] === 0)));
		if (byASeed && steps[i] === UNREACHED && passable[i]) {
			steps[i] = 1;
			queue[end++] = i;
		}
	}
	return end;
}

/** The world past the patch edge as a seed: passable edge pixels not yet reached are 1 step away, queued after `end`; the new end. */
function stepFromEdge(
	steps: Uint16Array,
	passable: Uint8Array,
	w: number,
	h: number,
	queue: Int32Array,
	end: number,
): number {
	let last = end;
	forEachEdgePixel(w, h, (j) => {
		if (steps[j] !== UNREACHED || !passable[j]) return;
		steps[j] = 1;
		queue[last++] = j;
	});
	return last;
}

/** Breadth first from the `end` pixels queued, through `passable`, at most `reach` steps. */
function walk(
	steps: Uint16Array,
	passable: Uint8Array,
	w: number,
	n: number,
	queue: Int32Array,
	end: number,
	reach: number,
): void {
	// Each neighbour in turn, unrolled: the walk visits every pixel it reaches.
	for (let head = 0; head < end; head++) {
		const i = queue[head]!;
		const next = steps[i]! + 1;
		if (next > reach) continue;
		const x = i % w;
		const left = x > 0;
		const right = x < w - 1;
		const up = i >= w;
		const down = i + w < n;
		let j = i + w + 1;
		if (down && right && steps[j]! > next && passable[j]) {
			steps[j] = next;
			queue[end++] = j;
		}
		j = i + w;
		if (down && steps[j]! > next && passable[j]) {
			steps[j] = next;
			queue[end++] = j;
		}
		j = i + w - 1;
		if (down && left && steps[j]! > next && passable[j]) {
			steps[j] = next;
			queue[end++] = j;
		}
		j = i + 1;
		if (right && steps[j]! > next && passable[j]) {
			steps[j] = next;
			queue[end++] = j;
		}
		j = i - 1;
		if (left && steps[j]! > next && passable[j]) {
			steps[j] = next;
			queue[end++] = j;
		}
		j = i - w + 1;
		if (up && right && steps[j]! > next && passable[j]) {
			steps[j] = next;
			queue[end++] = j;
		}
		j = i - w;
		if (up && steps[j]! > next && passable[j]) {
			steps[j] = next;
			queue[end++] = j;
		}
		j = i - w - 1;
		if (up && left && steps[j]! > next && passable[j]) {
			steps[j] = next;
			queue[end++] = j;
		}
	}
}

/**
 * The walk's queue, kept between calls and grown to the largest patch walked (as labelComponents
 * keeps its stack): a walk over a patch its seeds cover allocated more than it visited.
 */
let waiting = new Int32Array(0);
/** The passable pixels that are no seed, kept between calls likewise. */
let passableOnly = new Int32Array(0);

function queueOf(n: number): Int32Array {
	if (waiting.length < n) waiting = new Int32Array(n);
	return waiting;
}

function openOf(n: number): Int32Array {
	if (passableOnly.length < n) passableOnly = new Int32Array(n);
	return passableOnly;
}
