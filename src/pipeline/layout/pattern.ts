import type { Patch } from "../types";

/** Median grain (see `grain`) from which a smooth fill would leave a visible blank. */
const GRAINY = 8;
/** Separate marks (dots, lines, threads) it takes to call the grain a pattern rather than a few strokes of art. */
const MARKS = 16;
/** Brightness difference (levels) from the background's median at which a pixel belongs to a mark. */
const MARK = 24;

/**
 * Whether the known background is a pattern that a smooth fill would blank out: screentone,
 * hatching, stripes, weaves. It must be grainy all over (median grain, not a few edges) and made
 * of many separate marks, so that a balloon's outline through a small patch, which is grainy
 * around it but one mark, does not count.
 */
export function isPatterned(patch: Patch, mask: Uint8Array): boolean {
	return grain(patch, mask) >= GRAINY && countMarks(patch, mask) >= MARKS;
}

/**
 * How much fine detail the known background has: the median, over known pixels whose 3×3 neighbourhood is
 * all known (every other one each way), of the largest channel difference between the pixel and its neighbourhood's mean. The median
 * ignores the few strong edges of art and sees grain that covers the whole surface.
 * 0 on flat art and ramps, about 1 on smooth photo texture, tens on screentone, hatching and weaves.
 */
export function grain(patch: Patch, mask: Uint8Array): number {
	const { width: w, height: h, data } = patch;
	const histogram = new Uint32Array(256);
	let n = 0;
	// Every other row and column: a pattern covers the surface, and every region pays for this test.
	for (let y = 1; y < h - 1; y += 2) {
		for (let x = 1; x < w - 1; x += 2) {
			const i = y * w + x;
			if (mask[i - w - 1] || mask[i - w] || mask[i - w + 1] || mask[i - 1] || mask[i] || mask[i + 1]) continue;
			if (mask[i + w - 1] || mask[i + w] || mask[i + w + 1]) continue;
			let detail = 0;
			for (let c = 0, p = i * 4; c < 3; c++, p++) {
				// The 3×3 square's sum, its rows written out: a loop a pixel cost more than the reads.
				const above = p - w * 4;
				const below = p + w * 4;
				const sum =
					data[above - 4]! +
					data[above]! +
					data[above + 4]! +
					data[p - 4]! +
					data[p]! +
					data[p + 4]! +
					data[below - 4]! +
					data[below]! +
					data[below + 4]!;
				detail = Math.max(detail, Math.abs(data[p]! - sum / 9));
			}
			histogram[Math.round(detail)]!++;
			n++;
		}
	}
	return medianOf(histogram, n);
}

/**
 * Connected groups (4-neighbours) of known pixels darker, or lighter, than the known pixels' median
 * brightness by more than MARK: the larger of the two counts, counted up to MARKS. Relative to the
 * median rather than the fitted background, which on a two-tone weave is a tone between the two.
 */
function countMarks(patch: Patch, mask: Uint8Array): number {
	const { width: w, height: h, data } = patch;
	const luma = new Uint8Array(w * h);
	const histogram = new Uint32Array(256);
	let known = 0;
	for (let i = 0; i < w * h; i++) {
		luma[i] = Math.round(0.299 * data[i * 4]! + 0.587 * data[i * 4 + 1]! + 0.114 * data[i * 4 + 2]!);
		if (mask[i]) continue;
		histogram[luma[i]!]!++;
		known++;
	}
	const median = medianOf(histogram, known);
	const dark = count(w, h, (i) => !mask[i] && luma[i]! < median - MARK);
	return dark >= MARKS
		? dark
		: Math.max(
				dark,
				count(w, h, (i) => !mask[i] && luma[i]! > median + MARK),
			);
}

function count(w: number, h: number, inMark: (i: number) => boolean): number {
	const seen = new Uint8Array(w * h);
	const stack = new Int32Array(w * h);
	let marks = 0;
	for (let start = 0; start < w * h && marks < MARKS; start++) {
		if (seen[start] || !inMark(start)) continue;
		marks++;
		seen[start] = 1;
		let top = 0;
		stack[top++] = start;
		while (top > 0) {
			const i = stack[--top]!;
			const x = i % w;
			const visit = (j: number) => {
				if (seen[j] || !inMark(j)) return;
				seen[j] = 1;
				stack[top++] = j;
			};
			if (x > 0) visit(i - 1);
			if (x < w - 1) visit(i + 1);
			if (i >= w) visit(i - w);
			if (i + w < w * h) visit(i + w);
		}
	}
	return marks;
}

/** Median of the values counted in a 256-bin histogram of n values (0 for none). */
function medianOf(histogram: Uint32Array, n: number): number {
	let seen = 0;
	for (let v = 0; v < 256; v++) {
		seen += histogram[v]!;
		if (seen * 2 >= n && n > 0) return v;
	}
	return 0;
}
