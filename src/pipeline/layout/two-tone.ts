/**
 * Lettering on texture in two tones: a fill and an outline (or halo) drawn round it in another
 * colour, so that it reads on any art. The ink score on texture looks for one colour (ink.ts), and
 * which of the two stands out from a rough box's margin depends on where the box fell: the fill
 * leaves the outline beside the erased glyphs (a dark rim the fill smears over the art), the outline
 * takes the art of its own colour it touches (a light halo runs into a photo's highlights). So the
 * fill is the ink, whichever was found, and the outline joins the glyphs as far as it is thick.
 */
import type { Patch } from "../types";
import { dominantColour } from "./background";
import { dilate } from "./masks";

export interface TwoTones {
	/** The fill's colour (RGBA): the glyphs' body. */
	fill: number[];
	/** The outline's colour (RGBA) round the fill. */
	outline: number[];
	/** How thick the outline is (px): how far from the fill its colour reaches all round. */
	thickness: number;
}

/** Levels (largest channel difference) within which a pixel is of a tone: the ink score's strong threshold. */
const TONE = 40;
/** Two tones lie at least this far apart: an outline is drawn to stand out from the fill. */
const APART = 96;
/** Share of the pixels two from the fill that are of the outline's colour (to EVEN levels), at least. */
const RINGED = 0.6;
/** Share of the outline's pixels lying along the fill (within its thickness), at least: art of that colour lies anywhere. */
const HUGS = 0.6;
/** Share of a step's ring round the fill of the outline's colour, at least, for the outline to reach that far. */
const REACHES = 0.5;
/** Share of the patch's edge a tone of the lettering covers, at most (lettering runs across it where a box was cut short). */
const ON_EDGE = 0.2;
/** Levels from the outline's colour within which the pixels round the fill lie: a drawn outline is one colour. */
const EVEN = 12;
/** Thickest outline looked for (px), and more. */
const MAX_THICKNESS = 8;

/**
 * The two tones of the lettering in the patch whose ink colour was found to be `found`, or undefined
 * when the lettering is of one tone (what lies beside it is the art's).
 */
export function twoTones(patch: Patch, found: number[]): TwoTones | undefined {
	const { data, width: w, height: h } = patch;
	/** The share of the patch's edge (the margin round the reader's box: the art) a mask holds. */
	const onEdge = (mask: Uint8Array) => {
		let of = 0;
		for (let x = 0; x < w; x++) of += mask[x]! + mask[(h - 1) * w + x]!;
		for (let y = 1; y < h - 1; y++) of += mask[y * w]! + mask[y * w + w - 1]!;
		return of / Math.max(1, 2 * w + 2 * (h - 2));
	};
	// Lettering lies within the margin, but where a box cut short ran through it; a colour all along
	// the margin is the art's.
	const foundTone = toneOf(data, w, h, found, TONE);
	if (onEdge(foundTone.mask) > ON_EDGE) return undefined;
	// Past the anti-aliased blend where one tone meets the next (two pixels out), what lies beside it.
	const beside = dilate(foundTone.mask, w, h, 2);
	const nextToFound = new Int32Array(beside.length);
	let n = 0;
	for (let i = 0; i < beside.length; i++) if (beside[i] && !foundTone.mask[i]) nextToFound[n++] = i;
	const other = dominantColour(data, nextToFound.subarray(0, n))?.colour;
	if (!other || distance(found, other) < APART) return undefined;
	const otherTone = toneOf(data, w, h, other, TONE);
	if (onEdge(otherTone.mask) > ON_EDGE) return undefined;
	const foundOne = dilate(foundTone.mask, w, h, 1);
	const otherOne = dilate(otherTone.mask, w, h, 1);
	const otherTwo = dilate(otherTone.mask, w, h, 2);
	const foundRinged = ringedBy(foundOne, beside, toneOf(data, w, h, other, EVEN).mask);
	const otherRinged = ringedBy(otherOne, otherTwo, toneOf(data, w, h, found, EVEN).mask);
	if (Math.max(foundRinged, otherRinged) < RINGED) return undefined;
	// The fill is ringed by the outline all round; the outline lies between the fill and the art.
	const foundIsFill = foundRinged >= otherRinged;
	const [fill, outline] = foundIsFill ? [found, other] : [other, found];
	const [fillTone, outlineTone] = foundIsFill ? [foundTone, otherTone] : [otherTone, foundTone];
	const fillMask = fillTone.mask;
	const outlineMask = outlineTone.mask;
	let thickness = 0;
	let reached: Uint8Array = fillMask;
	const steps = foundIsFill ? [foundOne, beside] : [otherOne, otherTwo];
	while (thickness < MAX_THICKNESS) {
		const next = steps[thickness] ?? dilate(reached, w, h, 1);
		let ring = 0;
		let ofOutline = 0;
		for (let i = 0; i < next.length; i++) {
			if (!next[i] || reached[i]) continue;
			ring++;
			// The first step is where the tones meet, their blend; past it, the outline's own colour.
			ofOutline += thickness === 0 ? blended(data, i * 4, fill, outline) : outlineMask[i]!;
		}
		if (ring === 0 || ofOutline < REACHES * ring) break;
		thickness++;
		reached = next;
	}
	// An outline ends where the art begins; a tone running on past the thickest outline is the art's.
	if (thickness === 0 || thickness === MAX_THICKNESS) return undefined;
	// A drawn outline lies along the fill; art of its colour lies anywhere.
	let hugging = 0;
	for (let i = 0; i < outlineMask.length; i++) hugging += outlineMask[i]! & reached[i]!;
	return hugging >= HUGS * outlineTone.count ? { fill, outline, thickness } : undefined;
}

/**
 * The share of the ring between `one` and `two` (a tone's mask grown by one and by two: the pixels
 * two from it, past the blend where it meets the next) that `of` holds: an outline is one colour all
 * round its fill, where the art beside lettering of one tone changes along it.
 */
function ringedBy(one: Uint8Array, two: Uint8Array, of: Uint8Array): number {
	let ring = 0;
	let held = 0;
	for (let i = 0; i < two.length; i++) {
		const r = two[i]! & (1 - one[i]!);
		ring += r;
		held += r & of[i]!;
	}
	return held / Math.max(1, ring);
}

/** 1 on the pixels within `levels` of `colour` in every channel (RGBA), and how many they are. */
function toneOf(
	data: Uint8Array,
	w: number,
	h: number,
	colour: number[],
	levels: number,
): { mask: Uint8Array; count: number } {
	const near = new Uint8Array(4 * 256);
	for (let c = 0; c < 4; c++)
		for (let v = 0; v < 256; v++) near[c * 256 + v] = Math.abs(v - colour[c]!) <= levels ? 1 : 0;
	const mask = new Uint8Array(w * h);
	let count = 0;
	for (let i = 0, p = 0; i < mask.length; i++, p += 4) {
		const m = near[data[p]!]! & near[256 + data[p + 1]!]! & near[512 + data[p + 2]!]! & near[768 + data[p + 3]!]!;
		mask[i] = m;
		count += m;
	}
	return { mask, count };
}

/** 1 when the pixel at byte `p` is `a`, `b` or a blend of the two (within TONE of the line between them), else 0. */
function blended(data: Uint8Array, p: number, a: number[], b: number[]): number {
	let along = 0;
	let length = 0;
	for (let c = 0; c < 3; c++) {
		along += (data[p + c]! - b[c]!) * (a[c]! - b[c]!);
		length += (a[c]! - b[c]!) ** 2;
	}
	const t = Math.min(1, Math.max(0, along / Math.max(1, length)));
	let d = 0;
	for (let c = 0; c < 3; c++) d = Math.max(d, Math.abs(data[p + c]! - (b[c]! + t * (a[c]! - b[c]!))));
	return d <= TONE ? 1 : 0;
}

function distance(a: number[], b: number[]): number {
	let d = 0;
	for (let c = 0; c < 4; c++) d = Math.max(d, Math.abs(a[c]! - b[c]!));
	return d;
}
