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
	if (bg.repeats) return inkOnPattern(patch, bg.repeats, readerBox, like);
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
 * Closeness to a colour (255 less the largest channel difference) of the pixels in `area` (patch
 * coordinates); 0 elsewhere.
 */
function closeness(patch: Patch, colour: number[], area: Box): Uint8Array {
	// The distance from a "plane" that is the colour everywhere.
	const score = distanceMap(
		patch,
		colour.map((v): [number, number, number] => [v, 0, 0]),
	);
	for (let y = 0; y < patch.height; y++) {
		const rows = y >= area.y0 && y < area.y1;
		for (let x = 0; x < patch.width; x++) {
			const i = y * patch.width + x;
			score[i] = rows && x >= area.x0 && x < area.x1 ? 255 - score[i]! : 0;
		}
	}
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
	const inside = new Uint32Array(65536);
	const sides = Array.from({ length: bySide ? 4 : 1 }, () => ({ counts: new Uint32Array(65536), total: 0 }));
	let insideCount = 0;
	for (let y = 0; y < patch.height; y++) {
		for (let x = 0; x < patch.width; x++) {
			const i = y * patch.width + x;
			const bin = quantise(patch.data, i);
			if (x >= readerBox.x0 && x < readerBox.x1 && y >= readerBox.y0 && y < readerBox.y1) {
				inside[bin]!++;
				insideCount++;
			} else {
				const side = sides[bySide ? sideOf(readerBox, x, y) : 0]!;
				side.counts[bin]!++;
				side.total++;
			}
		}
	}
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
		for (let bin = 0; bin < 65536; bin++) {
			if (inside[bin]! < 12) continue;
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
	for (let i = 0; i < patch.width * patch.height; i++) if (quantise(patch.data, i) === best) pixels[k++] = i;
	return medianRgba(patch.data, pixels, k);
}

/** Which side of the margin around `box` (above, below, left, right) a pixel outside it lies on. */
function sideOf(box: Box, x: number, y: number): number {
	if (y < box.y0) return 0;
	if (y >= box.y1) return 1;
	return x < box.x0 ? 2 : 3;
}

/**
 * How much a margin colour's neighbouring bins count against it, against its own bin's 1: as much
 * first; half when then no colour stands out (lettering a box was cut short of fills the margin,
 * and its own anti-aliased shades count against it).
 */
const NEIGHBOURS_WEIGHTS = [1, 0.5];
