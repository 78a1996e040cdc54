import { grow } from "../patch";
import type { Box, Patch } from "../types";
import { type Background, binWithNeighbours, distanceMap, quantise } from "./background";
import { dilate } from "./masks";
import { medianRgba } from "./median";
import { farther, predictFromRepeats } from "./periodic";
import { twoTones } from "./two-tone";

/**
 * How much each pixel of the patch looks like lettering, 0..255, with the two hysteresis
 * thresholds that go with it. On flat art and gradients: the distance from the background,
 * thresholds scaled by the background's noise. On texture the background has no single value,
 * so the lettering is found by its own colour: the colour common inside the reader's box and
 * rare in the margin around it; the score is then closeness to that colour.
 */
export interface InkScore {
	score: Uint8Array;
	strong: number;
	weak: number;
	/** Measured against a repeating pattern: no balloon outline to look for (lettering sits on the tone). */
	onPattern?: boolean;
	/** On texture: the lettering's colour (RGBA) the score measures closeness to. */
	colour?: number[];
	/** On texture, lettering in two tones (two-tone.ts): the outline round it, scored alike, which its glyphs take in. */
	edging?: Edging;
}

/** The outline drawn round two-toned lettering: its colour, how thick it is (px), and the closeness to it. */
export interface Edging {
	colour: number[];
	thickness: number;
	score: Uint8Array;
}

/**
 * `like`, a score of the same lettering on a smaller patch, lends its thresholds and ink colour: the
 * lettering is what was found there, however much more art a larger patch shows. On texture only
 * pixels within `near` (patch coordinates, default the reader's box) may be ink. `marginBySide`: on
 * texture, the ink's colour is told from the margin's sides one by one (see inkByContrast). `oneTone`:
 * on texture, the colour found is the ink even when the lettering is two-toned (two-tone.ts).
 */
export function inkScore(
	patch: Patch,
	bg: Background,
	readerBox: Box,
	like?: InkScore,
	near = readerBox,
	marginBySide = false,
	oneTone = false,
): InkScore | undefined {
	if (bg.repeats) return patternScore(patch, bg.repeats, readerBox, like);
	if (bg.kind !== "texture") {
		const score = distanceMap(patch, bg.planes);
		return { score, strong: Math.max(40, 4 * bg.noise + 16), weak: Math.max(18, 2 * bg.noise + 8) };
	}
	const found = like?.colour ?? inkByContrast(patch, readerBox, marginBySide);
	if (!found) return undefined;
	// Lettering in two tones: its fill is the ink, whichever of the two stood out, and the outline is
	// taken in with the glyphs as far as it is thick.
	const tones = like || oneTone ? undefined : twoTones(patch, found);
	const ink = tones?.fill ?? found;
	// Texture of the ink's colour can join glyphs to blobs running off the patch, and such
	// components are dropped: so on texture, only pixels near the lettering can be ink.
	const area = grow(near, NEAR_MARGIN);
	const score = closeness(patch, ink, area);
	const { outline, thickness } = like?.edging
		? { outline: like.edging.colour, thickness: like.edging.thickness }
		: (tones ?? { outline: undefined, thickness: 0 });
	if (!outline) return { score, strong: 255 - 40, weak: 255 - 100, colour: ink };
	const edging = { colour: outline, thickness, score: closeness(patch, outline, area) };
	return { score, strong: 255 - 40, weak: 255 - 100, colour: ink, edging };
}

/** How far (px) past `near` pixels of the ink's colour may still be ink. */
const NEAR_MARGIN = 2;

/**
 * Closeness to the ink's colour (255 less the largest channel difference) of the pixels in `area`
 * (patch coordinates); 0 elsewhere, and nothing asked of the pixels there.
 */
function closeness(patch: Patch, colour: number[], area: Box): Uint8Array {
	const { width: w, height: h, data } = patch;
	const score = new Uint8Array(w * h);
	// A channel's closeness by value, truncated to a byte as a byte array holds the difference.
	const close = new Uint8Array(4 * 256);
	for (let c = 0; c < 4; c++)
		for (let v = 0; v < 256; v++) close[c * 256 + v] = 255 - Math.trunc(Math.min(255, Math.abs(v - colour[c]!)));
	const [x0, x1] = [Math.max(0, Math.ceil(area.x0)), Math.min(w, Math.ceil(area.x1))];
	for (let y = Math.max(0, Math.ceil(area.y0)), y1 = Math.min(h, Math.ceil(area.y1)); y < y1; y++) {
		for (let i = y * w + x0, end = y * w + x1, p = i * 4; i < end; i++, p += 4) {
			let s = close[data[p]!]!;
			const g = close[256 + data[p + 1]!]!;
			if (g < s) s = g;
			const b = close[512 + data[p + 2]!]!;
			if (b < s) s = b;
			const a = close[768 + data[p + 3]!]!;
			if (a < s) s = a;
			score[i] = s;
		}
	}
	return score;
}

/**
 * Ink scores made on a pattern, by its shifts (so they go with the background they were measured
 * on) and the patch, reader's box and thresholds they were made for: a box looked at again with the
 * same background (a probe of a box whose lettering was not found, captions.ts) scores the same
 * patches, and predicting the pattern is the costliest step there.
 */
const patternScores = new WeakMap<Int16Array, Map<string, InkScore>>();

function patternScore(patch: Patch, repeats: Int16Array, readerBox: Box, like?: InkScore): InkScore {
	const { box } = patch;
	const key = [
		box.x0,
		box.y0,
		box.x1,
		box.y1,
		readerBox.x0,
		readerBox.y0,
		readerBox.x1,
		readerBox.y1,
		like?.weak,
		like?.strong,
	].join();
	const scores = patternScores.get(repeats) ?? new Map<string, InkScore>();
	patternScores.set(repeats, scores);
	const known = scores.get(key);
	if (known) return known;
	const score = inkOnPattern(patch, repeats, readerBox, like);
	scores.set(key, score);
	return score;
}

/**
 * On a pattern: the distance from what the pixels a period away predict, thresholds scaled by how
 * well that prediction holds in the margin around the reader's box (exact on digital screentone,
 * looser on scanned or non-integer periods).
 */
function inkOnPattern(patch: Patch, repeats: Int16Array, readerBox: Box, like?: InkScore): InkScore {
	const { width: w, height: h, data } = patch;
	const predicted = predictFromRepeats(patch, repeats);
	const score = new Uint8Array(w * h);
	const misses = new Uint32Array(256);
	let n = 0;
	for (let y = 0; y < h; y++) {
		const rowInside = y >= readerBox.y0 && y < readerBox.y1;
		for (let x = 0, i = y * w; x < w; x++, i++) {
			if (!predicted.known[i]) continue;
			let d = 0;
			for (let c = 0; c < 4; c++) d = Math.max(d, Math.abs(data[i * 4 + c]! - predicted.colour[i * 4 + c]!));
			score[i] = d;
			if (rowInside && x >= readerBox.x0 && x < readerBox.x1) continue;
			misses[d]!++;
			n++;
		}
	}
	// A percentile rather than the RMS: a glyph reaching past a tight reader's box is no miss of the pattern.
	let miss = 0;
	for (let seen = misses[0]!; miss < 255 && seen < 0.75 * n; seen += misses[miss]!) miss++;
	const weak = like?.weak ?? Math.max(18, miss + 8);
	// Heavy or outlined glyphs, wider than a period, vote for themselves: near what stands out, predict
	// again from pixels up to two periods away, what stood out left out of the vote.
	// Twice: pixels of a glyph that voted for themselves at first stand out the second time.
	for (let round = 0; round < 2; round++) {
		const suspect = new Uint8Array(w * h);
		for (let i = 0; i < score.length; i++) if (score[i]! >= weak) suspect[i] = 1;
		const near = dilate(suspect, w, h, 2);
		const again = predictFromRepeats(patch, farther(repeats), dilate(suspect, w, h, 1), near);
		for (let i = 0; i < score.length; i++) {
			if (!near[i] || !again.known[i]) continue;
			let d = 0;
			for (let c = 0; c < 4; c++) d = Math.max(d, Math.abs(data[i * 4 + c]! - again.colour[i * 4 + c]!));
			score[i] = d;
		}
	}
	return { score, strong: like?.strong ?? Math.max(40, 2 * miss + 16), weak, onPattern: true };
}

/**
 * The colour (4 bits a channel) over-represented inside the reader's box against its margin. A
 * photo's colours drift across the box, so a colour of the art inside it may be missing from its
 * thin margin, yet its neighbouring colours are there; the lettering's colour stands apart from
 * all of them, however anti-aliasing and JPEG noise spread it over several bins. So the margin
 * counts against a colour with its neighbours' share there as well.
 *
 * `bySide`: a box cut short leaves the rest of its lettering in the margin on the sides it was cut
 * on, where it counts against the lettering's own colour as much as the art does. The art's colours
 * lie all round the box; so each side of the margin is counted apart, and a colour is held against
 * the second fewest of the sides: a box cut on two sides (a corner) still finds its colour.
 */
function inkByContrast(patch: Patch, readerBox: Box, bySide: boolean): number[] | undefined {
	const { width: w, height: h, data } = patch;
	const inside = new Uint32Array(65536);
	const sides = Array.from({ length: bySide ? 4 : 1 }, () => ({ counts: new Uint32Array(65536), total: 0 }));
	// Each pixel's bin, kept for the ink's pixels once its bin is known, and the bins held
	// MIN_INSIDE times or more in the box: the only ones a colour can be found in.
	const bins = new Uint16Array(w * h);
	const common: number[] = [];
	const [bx0, by0] = [Math.min(w, Math.max(0, readerBox.x0)), Math.max(0, readerBox.y0)];
	const bx1 = Math.max(bx0, Math.min(w, readerBox.x1));
	/** Counts row y's pixels from..to (end exclusive) into a side of the margin. */
	const margin = (y: number, from: number, to: number, side: number) => {
		const { counts } = sides[bySide ? side : 0]!;
		for (let i = y * w + from, end = y * w + to; i < end; i++) {
			const bin = quantise(data, i);
			bins[i] = bin;
			counts[bin]!++;
		}
		sides[bySide ? side : 0]!.total += to - from;
	};
	for (let y = 0; y < h; y++) {
		if (y < by0 || y >= readerBox.y1) {
			margin(y, 0, w, y < by0 ? ABOVE : BELOW);
			continue;
		}
		margin(y, 0, bx0, LEFT);
		for (let i = y * w + bx0, end = y * w + bx1; i < end; i++) {
			const bin = quantise(data, i);
			bins[i] = bin;
			if (++inside[bin]! === MIN_INSIDE) common.push(bin);
		}
		margin(y, bx1, w, RIGHT);
	}
	const insideCount = Math.max(0, Math.min(h, readerBox.y1) - by0) * (bx1 - bx0);
	// Lowest bin first, as a scan of every bin asks them: of colours standing out as much, the first wins.
	common.sort((a, b) => a - b);
	const counted = sides.filter((side) => side.total > 0);
	const shares = new Float64Array(counted.length);
	// Three times the colour's share of the margin (of its second fewest side).
	const againstMargin = (bin: number, weight: number): number => {
		for (const [k, { counts, total }] of counted.entries()) {
			const own = counts[bin]!;
			shares[k] = (3 * (own + weight * (binWithNeighbours(counts, bin) - own))) / total;
		}
		if (shares.length === 0) return 0;
		shares.sort();
		return shares[Math.min(1, shares.length - 1)]!;
	};
	let best = -1;
	for (const weight of NEIGHBOURS_WEIGHTS) {
		let bestScore = 0.005;
		for (const bin of common) {
			const s = inside[bin]! / insideCount - againstMargin(bin, weight);
			if (s > bestScore) {
				bestScore = s;
				best = bin;
			}
		}
		if (best >= 0) break;
	}
	if (best < 0) return undefined;
	let members = inside[best]!;
	for (const { counts } of sides) members += counts[best]!;
	const pixels = new Int32Array(members);
	let k = 0;
	for (let i = 0; i < bins.length; i++) if (bins[i] === best) pixels[k++] = i;
	return medianRgba(data, pixels, k);
}

/** Times a colour's bin is held in the reader's box, at least, for it to be the lettering's. */
const MIN_INSIDE = 12;
/** The sides of the margin around the reader's box. */
const [ABOVE, BELOW, LEFT, RIGHT] = [0, 1, 2, 3];

/**
 * How much a margin colour's neighbouring bins count against it, against its own bin's 1: as much
 * first; half when then no colour stands out (lettering a box was cut short of fills the margin,
 * and its own anti-aliased shades count against it).
 */
const NEIGHBOURS_WEIGHTS = [1, 0.5];
