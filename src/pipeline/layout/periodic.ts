import type { Box, Patch } from "../types";
import { grain } from "./pattern";

/** Longest shift (px, each way) tried as a period: screentone and line tones repeat within a few px to a dozen. */
const SPAN = 12;
/** Shortest shift that predicts a pixel: a glyph stroke shifted by less overlaps itself. */
const MIN_SHIFT = 4;
/** Shifts that vote on each pixel (both signs of each): enough that glyph strokes are a minority among them. */
const VOTERS = 16;
/** Best shift's mean difference, against the median shift's, under which the background repeats. */
const REPEATS = 0.3;
/** Median grain (pattern.ts) from which a surface may be a pattern: flat art and photo texture are far below. */
const GRAINY = 8;
/** Share of a typical shift's difference under which the difference of two periods still repeats. */
const LATTICE = 0.25;
/** Pixels sampled to measure the differences: enough for a stable mean, few enough to stay at a few ms. */
const SAMPLES = 4000;
/** Share of the margin's swing between tones the inside must show: the tone goes on under the lettering. */
const TONE_INSIDE = 0.75;
/** Levels within which a pixel is what the pattern predicts. */
const FITS = 16;
/** Fewest pixel pairs that measure a shift: a shift across a thin margin may find none. */
const MIN_PAIRS = 40;
/** Share of a shift's pixel pairs its difference is measured on, the most different left out. */
const TRIM = 0.9;
/** Side (differences) of the padding around a patch: neither the margin (0) nor the inside (1). */
const NEITHER = 2;

/**
 * The shifts by which the background repeats (screentone, line tones, weaves), as [dx, dy] pairs,
 * or undefined when it does not. Measured on the margin around the reader's box, where lettering
 * rarely is: the difference in brightness between margin pixels `d` apart, for every d within SPAN;
 * a pattern has shifts (its periods) where it nearly vanishes while a typical shift leaves a full
 * swing between tones. The inside of the reader's box must repeat by the same shifts too, so that a
 * white balloon framed by hatched art is not taken for a pattern.
 */
export function findRepeats(patch: Patch, readerBox: Box): Int16Array | undefined {
	const { width: w, height: h } = patch;
	const inReader = new Uint8Array(w * h);
	for (let y = readerBox.y0; y < readerBox.y1; y++) inReader.fill(1, y * w + readerBox.x0, y * w + readerBox.x1);
	if (grain(patch, inReader) < GRAINY) return undefined;

	const luma = lumaOf(patch);
	const margin = differences(luma, w, h, inReader, 0, everyShift());
	const best = Math.min(...margin.shifts.filter((s) => Math.max(Math.abs(s.dx), s.dy) >= 2).map((s) => s.diff));
	if (!(best < REPEATS * margin.typical)) return undefined;
	// Each shift's difference by (dx, dy), both signs; 0 where it was not measured (too few pairs, or past SPAN).
	const side = 2 * SPAN + 1;
	const table = new Float64Array(side * side);
	for (const s of margin.shifts) {
		table[(s.dy + SPAN) * side + s.dx + SPAN] = s.diff;
		table[(SPAN - s.dy) * side + SPAN - s.dx] = s.diff;
	}
	const diffAt = (dx: number, dy: number) =>
		Math.abs(dx) > SPAN || Math.abs(dy) > SPAN ? 0 : table[(dy + SPAN) * side + dx + SPAN]!;
	// Every shift about as good as the best may be a period (or, on line tones, a move along the lines).
	const good = best + 0.05 * (margin.typical - best) + 1;
	const candidates = margin.shifts.filter((s) => s.diff <= good && Math.hypot(s.dx, s.dy) >= MIN_SHIFT);
	const periods = latticeOf(candidates, diffAt, Math.max(good, LATTICE * margin.typical))
		.sort((a, b) => Math.hypot(a.dx, a.dy) - Math.hypot(b.dx, b.dy) || a.diff - b.diff)
		.slice(0, VOTERS / 2);
	if (periods.length < 2) return undefined;
	// The tone must go on inside the box, between the glyphs: pixels the pattern predicts well there
	// must differ, at the pattern's opposite phase, about as much as the margin's do. A white balloon
	// framed by hatching is predicted well too (white from white), but is one tone.
	const halves = periods.map((p) => [Math.round(p.dx / 2), Math.round(p.dy / 2)] as [number, number]);
	const [ox, oy] = halves.reduce((a, b) => (diffAt(b[0], b[1]) > diffAt(a[0], a[1]) ? b : a));
	const repeats = Int16Array.from(periods.flatMap((s) => [s.dx, s.dy, -s.dx, -s.dy]));
	const predicted = predictFromRepeats(patch, repeats);
	const swing = (side: 0 | 1) => {
		let sum = 0;
		let n = 0;
		for (let y = Math.max(0, -oy); y < Math.min(h, h - oy); y++) {
			for (let x = Math.max(0, -ox); x < Math.min(w, w - ox); x++) {
				const i = y * w + x;
				const j = i + oy * w + ox;
				if (inReader[i] !== side || inReader[j] !== side || !fits(patch, predicted, i) || !fits(patch, predicted, j))
					continue;
				sum += Math.abs(luma[i]! - luma[j]!);
				n++;
			}
		}
		return n >= MIN_PAIRS ? sum / n : 0;
	};
	if (!(swing(1) >= TONE_INSIDE * swing(0))) return undefined;
	return repeats;
}

/**
 * The candidate shifts that are periods of one pattern. Periods form a lattice: the difference of two
 * is a period too. A margin only a few rows deep holds pairs that far apart at one phase of the
 * pattern only, where a shift by a period and a row matches too ((4, 4) and (4, 5) on a weave of 4 px
 * cells); the shift between those two, a row, has pairs in every row of the margin and is far from
 * repeating. So two candidates closer than MIN_SHIFT are both kept only when the shift between them
 * repeats (a line tone's move along its lines), within `loose` or twice their own differences (a
 * screen whose step is no whole number of pixels: the nearest shifts are off by a fraction of a
 * pixel). Longer differences are not asked: lettering a box cut short leaves in the margin spoils
 * some of them. Of two that disagree, the one agreeing with more others stays, else the better.
 */
function latticeOf(candidates: Shift[], diffAt: (dx: number, dy: number) => number, loose: number): Shift[] {
	const agree = (a: Shift, b: Shift) => {
		const [dx, dy] = [a.dx - b.dx, a.dy - b.dy];
		return Math.hypot(dx, dy) >= MIN_SHIFT || diffAt(dx, dy) <= Math.max(loose, 2 * (a.diff + b.diff) + 1);
	};
	const support = new Map(candidates.map((a) => [a, candidates.filter((b) => b !== a && agree(a, b)).length]));
	const ranked = [...candidates].sort((a, b) => support.get(b)! - support.get(a)! || a.diff - b.diff);
	const kept: Shift[] = [];
	for (const s of ranked) if (kept.every((k) => agree(s, k))) kept.push(s);
	return kept;
}

/** Whether the pixel is what the pattern predicts there, within a few levels. */
function fits(patch: Patch, predicted: { colour: Uint8Array; known: Uint8Array }, i: number): boolean {
	if (!predicted.known[i]) return false;
	for (let c = 0; c < 3; c++) if (Math.abs(patch.data[i * 4 + c]! - predicted.colour[i * 4 + c]!) > FITS) return false;
	return true;
}

interface Shift {
	dx: number;
	dy: number;
	/** Trimmed mean brightness difference between the pixels that far apart. */
	diff: number;
}

/**
 * For each shift tried, how much pixels of one side of the reader's box
 * (`side` 0: the margin, 1: the inside) differ from those that far away on the same side, both ways;
 * with the median of that over the shifts, the difference a shift that is no period leaves.
 * Sampled on a grid of about SAMPLES pixels; the shifts `tried` are within SPAN.
 */
function differences(
	luma: Uint8Array,
	w: number,
	h: number,
	inReader: Uint8Array,
	side: 0 | 1,
	tried: [number, number][],
) {
	let area = 0;
	for (let i = 0; i < inReader.length; i++) if (inReader[i] === side) area++;
	const step = Math.max(1, Math.floor(Math.sqrt(area / SAMPLES)));
	// Sampling every pixel (a small side: most boxes), the pair a sample finds behind it is the pair
	// another sample found ahead of it: each pair is looked at once and counted twice, the same counts.
	const pairs =
		step === 1 ? pairsAlongRuns(luma, w, h, inReader, side) : sampledPairs(luma, w, h, inReader, side, step);
	const shifts: Shift[] = [];
	const diffs = new Uint32Array(256);
	for (const [dx, dy] of tried) {
		diffs.fill(0);
		let n = pairs(dx, dy, diffs);
		if (step === 1) {
			for (let v = 0; v < 256; v++) diffs[v]! *= 2;
			n *= 2;
		}
		if (n >= MIN_PAIRS) shifts.push({ dx, dy, diff: trimmedMean(diffs, n) });
	}
	const typical = [...shifts].sort((a, b) => a.diff - b.diff)[shifts.length >> 1]?.diff ?? 0;
	return { shifts, typical };
}

/**
 * Counts into `diffs`, by their difference in brightness, the pairs of pixels of `side` (dx, dy)
 * apart, the first before the second, and returns how many there are: walked along the row's runs
 * of the side that meet the runs of the row dy below, so no pixel's side is tested per pair (every
 * shift walks the whole side, a few hundred times per region).
 */
function pairsAlongRuns(
	luma: Uint8Array,
	w: number,
	h: number,
	inReader: Uint8Array,
	side: 0 | 1,
): (dx: number, dy: number, diffs: Uint32Array) => number {
	// The runs of the side (x from, x to), row by row; row y's are rowRuns[y] to rowRuns[y + 1].
	const rowRuns = new Int32Array(h + 1);
	const from: number[] = [];
	const to: number[] = [];
	for (let y = 0; y < h; y++) {
		rowRuns[y] = from.length;
		for (let x = 0, i = y * w; x < w; ) {
			while (x < w && inReader[i] !== side) {
				x++;
				i++;
			}
			if (x === w) break;
			from.push(x);
			while (x < w && inReader[i] === side) {
				x++;
				i++;
			}
			to.push(x);
		}
	}
	rowRuns[h] = from.length;
	const starts = Int32Array.from(from);
	const ends = Int32Array.from(to);
	return (dx, dy, diffs) => {
		let n = 0;
		const reach = dy * w + dx;
		for (let y = Math.max(0, -dy); y < Math.min(h, h - dy); y++) {
			for (let a = rowRuns[y]!; a < rowRuns[y + 1]!; a++) {
				for (let b = rowRuns[y + dy]!; b < rowRuns[y + dy + 1]!; b++) {
					const x0 = Math.max(starts[a]!, starts[b]! - dx);
					const x1 = Math.min(ends[a]!, ends[b]! - dx);
					if (x0 >= x1) continue;
					n += x1 - x0;
					for (let i = y * w + x0, end = y * w + x1; i < end; i++) diffs[Math.abs(luma[i]! - luma[i + reach]!)]!++;
				}
			}
		}
		return n;
	};
}

/**
 * Counts into `diffs` the pairs of pixels of `side` (dx, dy) apart, ahead of and behind samples on
 * a grid `step` px apart, and returns how many there are.
 */
function sampledPairs(
	luma: Uint8Array,
	w: number,
	h: number,
	inReader: Uint8Array,
	side: 0 | 1,
	step: number,
): (dx: number, dy: number, diffs: Uint32Array) => number {
	// Sides and brightness on a grid padded by SPAN all round, the padding on neither side: a pair
	// reaching past the patch fails the side test, so no pair needs its bounds checked.
	const pw = w + 2 * SPAN;
	const sides = new Uint8Array(pw * (h + 2 * SPAN)).fill(NEITHER);
	const lumas = new Uint8Array(sides.length);
	for (let y = 0; y < h; y++) {
		sides.set(inReader.subarray(y * w, (y + 1) * w), (y + SPAN) * pw + SPAN);
		lumas.set(luma.subarray(y * w, (y + 1) * w), (y + SPAN) * pw + SPAN);
	}
	const at = new Int32Array(Math.ceil(w / step) * Math.ceil(h / step));
	let count = 0;
	for (let y = 0; y < h; y += step) {
		for (let x = 0; x < w; x += step) {
			if (inReader[y * w + x] !== side) continue;
			at[count++] = (y + SPAN) * pw + x + SPAN;
		}
	}
	return (dx, dy, diffs) => {
		let n = 0;
		const reach = dy * pw + dx;
		for (let k = 0; k < count; k++) {
			const i = at[k]!;
			const ahead = i + reach;
			if (sides[ahead] === side) {
				diffs[Math.abs(lumas[i]! - lumas[ahead]!)]!++;
				n++;
			}
			const behind = i - reach;
			if (sides[behind] === side) {
				diffs[Math.abs(lumas[i]! - lumas[behind]!)]!++;
				n++;
			}
		}
		return n;
	};
}

/**
 * The background a periodic pattern predicts at each pixel: of the pixels one period (of `repeats`)
 * away that are not `excluded`, the one of median brightness, RGBA. Glyph strokes rarely lie a whole
 * period apart in most directions, so the median is the pattern. `known` is 1 where there was a vote;
 * with `only`, just the pixels set there are predicted. A whole-patch prediction takes, from the last
 * one made with the same shifts, the pixels whose voters all lie within both patches.
 */
export function predictFromRepeats(
	patch: Patch,
	repeats: Int16Array,
	excluded?: Uint8Array,
	only?: Uint8Array,
): { colour: Uint8Array; known: Uint8Array } {
	const { width: w, height: h, data } = patch;
	const whole = !excluded && !only;
	const earlier = whole ? lastWhole.get(repeats) : undefined;
	if (earlier && sameBox(earlier.box, patch.box)) return earlier;
	const colour = new Uint8Array(w * h * 4);
	const known = new Uint8Array(w * h);
	const voters = repeats.length >> 1;
	// Each pixel's vote (its brightness) on a grid padded by the longest shift, -1 where there is
	// none (excluded, or past the patch): a voter is then one read, with no bounds to check.
	let pad = 0;
	for (const v of repeats) pad = Math.max(pad, Math.abs(v));
	const pw = w + 2 * pad;
	const votes = new Int16Array(pw * (h + 2 * pad)).fill(-1);
	for (let y = 0; y < h; y++) {
		for (let x = 0, i = y * w, p = (y + pad) * pw + pad; x < w; x++, i++, p++) {
			if (excluded?.[i]) continue;
			votes[p] = (77 * data[i * 4]! + 150 * data[i * 4 + 1]! + 29 * data[i * 4 + 2]!) >> 8;
		}
	}
	const reach = new Int32Array(voters);
	const from = new Int32Array(voters);
	for (let k = 0; k < voters; k++) {
		reach[k] = repeats[2 * k + 1]! * pw + repeats[2 * k]!;
		from[k] = repeats[2 * k + 1]! * w + repeats[2 * k]!;
	}
	// The votes as brightness · 256 + voter (a few dozen voters at most): the median key is the
	// median vote, ties going to the earlier voter, as a stable sort by brightness would. The mask
	// not given is tested by flag, so that every read is of a typed array.
	const keys = new Int32Array(voters);
	const some = only !== undefined;
	const wanted = only ?? NO_PIXELS;
	const pixels = pixelWords(data);
	const out = new Uint32Array(colour.buffer);
	const shared = earlier ? sharedInterior(repeats, earlier.box, patch.box) : undefined;
	const before = earlier ? new Uint32Array(earlier.colour.buffer) : out;
	const earlierWidth = earlier ? earlier.box.x1 - earlier.box.x0 : 0;
	for (let y = 0; y < h; y++) {
		// Where this row shares pixels with the earlier prediction (patch x), -1 when it does not.
		const inShared = shared !== undefined && y >= shared.y0 && y < shared.y1;
		const sharedFrom = inShared ? shared.x0 : -1;
		const sharedTo = inShared ? shared.x1 : -1;
		for (let x = 0, i = y * w, p = (y + pad) * pw + pad; x < w; x++, i++, p++) {
			if (x === sharedFrom) {
				const from = (y + patch.box.y0 - earlier!.box.y0) * earlierWidth + x + patch.box.x0 - earlier!.box.x0;
				out.set(before.subarray(from, from + sharedTo - sharedFrom), i);
				known.fill(1, i, i + sharedTo - sharedFrom);
				const skipped = sharedTo - sharedFrom - 1;
				x += skipped;
				i += skipped;
				p += skipped;
				continue;
			}
			if (some && !wanted[i]) continue;
			let n = 0;
			for (let k = 0; k < voters; k++) {
				const vote = votes[p + reach[k]!]!;
				if (vote >= 0) keys[n++] = (vote << 8) | k;
			}
			if (n === 0) continue;
			out[i] = pixels[i + from[keys[medianOf(keys, n)]! & 0xff]!]!;
			known[i] = 1;
		}
	}
	if (whole) lastWhole.set(repeats, { box: patch.box, colour, known });
	return { colour, known };
}

/**
 * The last whole-patch prediction made with each set of shifts, and the patch (image px) it was
 * made for: the ink score on the patch findRepeats measured (the work patch around free lettering
 * starts as the one the background was fitted on) takes it whole, and each larger work patch after
 * it the pixels a period or more inside both. Keyed by the shifts, so it goes with them.
 */
const lastWhole = new WeakMap<Int16Array, { box: Box; colour: Uint8Array; known: Uint8Array }>();

/**
 * The pixels (patch coordinates of `box`) at least the longest shift each way inside both `earlier`
 * and `box` (image px): every voter of theirs lies within both patches, so their prediction is the
 * same in both. Undefined when there are none.
 */
function sharedInterior(repeats: Int16Array, earlier: Box, box: Box): Box | undefined {
	let reachX = 0;
	let reachY = 0;
	for (let k = 0; k < repeats.length; k += 2) {
		reachX = Math.max(reachX, Math.abs(repeats[k]!));
		reachY = Math.max(reachY, Math.abs(repeats[k + 1]!));
	}
	const x0 = Math.max(earlier.x0, box.x0) + reachX;
	const x1 = Math.min(earlier.x1, box.x1) - reachX;
	const y0 = Math.max(earlier.y0, box.y0) + reachY;
	const y1 = Math.min(earlier.y1, box.y1) - reachY;
	if (x1 <= x0 || y1 <= y0) return undefined;
	return { x0: x0 - box.x0, y0: y0 - box.y0, x1: x1 - box.x0, y1: y1 - box.y0 };
}

function sameBox(a: Box, b: Box): boolean {
	return a.x0 === b.x0 && a.y0 === b.y0 && a.x1 === b.x1 && a.y1 === b.y1;
}

/**
 * Where the key of rank (n - 1) >> 1 among the first n `keys` (all different) ends up once they are
 * partly reordered in place (quickselect): the median, without sorting every vote.
 */
function medianOf(keys: Int32Array, n: number): number {
	const m = (n - 1) >> 1;
	let lo = 0;
	let hi = n - 1;
	while (lo < hi) {
		const pivot = keys[(lo + hi) >> 1]!;
		let a = lo;
		let b = hi;
		while (a <= b) {
			while (keys[a]! < pivot) a++;
			while (keys[b]! > pivot) b--;
			if (a <= b) {
				const t = keys[a]!;
				keys[a++] = keys[b]!;
				keys[b--] = t;
			}
		}
		if (m <= b) hi = b;
		else if (m >= a) lo = a;
		else break;
	}
	return m;
}

/** The pixels of RGBA data as one 32-bit word each, to copy a pixel in one read (a copy when the data is not aligned for it). */
function pixelWords(data: Uint8Array): Uint32Array {
	const aligned = data.byteOffset % 4 === 0 ? data : data.slice();
	return new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.length >> 2);
}

/** Stands for a mask not given: never read. */
const NO_PIXELS = new Uint8Array(0);

/** Every shift within SPAN, one of d and -d (they measure the same). */
function everyShift(): [number, number][] {
	const out: [number, number][] = [];
	for (let dy = 0; dy <= SPAN; dy++) for (let dx = dy === 0 ? 1 : -SPAN; dx <= SPAN; dx++) out.push([dx, dy]);
	return out;
}

/**
 * Mean of the smallest TRIM share of the differences counted: lettering that spills past a tight
 * reader's box into the margin spoils a few pairs of every shift, and is left out.
 */
function trimmedMean(counts: Uint32Array, n: number): number {
	const keep = TRIM * n;
	let taken = 0;
	let sum = 0;
	for (let v = 0; v < 256 && taken < keep; v++) {
		const k = Math.min(counts[v]!, keep - taken);
		taken += k;
		sum += k * v;
	}
	return sum / Math.max(1, taken);
}

function lumaOf(patch: Patch): Uint8Array {
	const { data } = patch;
	const luma = new Uint8Array(patch.width * patch.height);
	for (let i = 0; i < luma.length; i++) {
		luma[i] = (77 * data[i * 4]! + 150 * data[i * 4 + 1]! + 29 * data[i * 4 + 2]!) >> 8;
	}
	return luma;
}

/** The shifts and their doubles: a pixel under a glyph wider than a period has known pixels two periods away. */
export function farther(repeats: Int16Array): Int16Array {
	return Int16Array.from([...repeats, ...repeats.map((v) => 2 * v)]);
}
