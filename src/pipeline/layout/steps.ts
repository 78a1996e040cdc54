/** Levels of a breadth-first walk over a patch: how many steps each pixel lies from a set of seeds. */
import { forEachEdgePixel } from "./masks";

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
	const first = (j: number) => {
		if (steps[j] !== UNREACHED || !passable[j]) return;
		steps[j] = 1;
		queue[end++] = j;
	};
	// From the seeds, the walk itself takes the first step: they are queued at 0 steps. From the
	// passable pixels, in raster order as listed, a pixel's neighbours asked with its column known.
	if (seeds <= opened) {
		for (let i = 0; i < n; i++) if (seed[i]) queue[end++] = i;
	} else {
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
			if (byASeed) first(i);
		}
	}
	if (fromEdge) forEachEdgePixel(w, h, first);
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
	return steps;
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
