/**
 * A balloon's body: its inside without its tail, the room a letterer sets the text in. A tail (or
 * any limb thinner than the body: a fat tail's root, a spike) is what the round discs the body
 * holds cannot reach: the inside opened by a disc a share of the body's own inscribed radius wide.
 * What the opening trims at the body's rim (the pointed ends of a flat ellipse, a cloud's scallops)
 * lies close to what stays, and is kept; a limb reaches further, and is cut off whole.
 */
import type { Box } from "../types";
import { labelComponents } from "./components";
import { boundingBox, reframe } from "./masks";

/** The disc's radius, as a share of the largest disc the inside holds: tails thinner than this go. */
const BODY_RADIUS = 0.7;
/**
 * A trimmed piece reaching further than this many disc radii beyond what stays is a limb (a tail),
 * not the rim: a flat ellipse's pointed ends reach less, unless it is some six times as wide as high;
 * the tails of bench/corpus/pages reach 1.5 to 5.
 */
const LIMB_REACH = 1.5;
/** A limb leaves the body through a root at most this share of the shape's narrower side wide. */
const ROOT_SHARE = 0.3;
/** A balloon has a tail, rarely two; more limbs than this are something else... */
const MAX_LIMBS = 2;
/** ...as is cutting off more than this share of the inside (the tails of bench/corpus/pages: 27% at most). */
const MAX_CUT = 0.4;
/** Chamfer steps: a pixel across, and diagonally (Euclidean distance to within a tenth). */
const ACROSS = 1;
const DIAGONAL = Math.SQRT2;

/**
 * The body of a shape given as one byte per pixel of `box` (1 inside), `area` of them set: its box
 * and inside, or the shape as given when it has no limb.
 *
 * A body is found at half size first (a quarter of the pixels), where a balloon's tail is still
 * many cells long and wide: there each pixel of the shape cut off is one whose cell is. A shape
 * whose tests at half size fall within the error of halving (a limb reaching about LIMB_REACH, a
 * root about as narrow as ROOT_SHARE allows) is looked at again at full size, as is a small one.
 */
export function bodyOf(box: Box, inside: Uint8Array, area: number): { box: Box; inside: Uint8Array } {
	const w = box.x1 - box.x0;
	const h = box.y1 - box.y0;
	const half = w * h >= MIN_HALVED ? halved(inside, w, h) : undefined;
	let cut = half ? limbsOf(half.mask, half.w, half.h, half.area, 2) : "unsure";
	if (cut === "unsure") cut = limbsOf(inside, w, h, area, 1);
	if (cut === "none" || cut === "unsure") return { box, inside };
	const { labels, isLimb, scale, w: lw } = cut;
	const body = inside.slice();
	for (let y = 0, i = 0; y < h; y++) {
		const row = ((y / scale) | 0) * lw;
		for (let x = 0; x < w; x++, i++) if (body[i] && isLimb[labels[row + ((x / scale) | 0)]!]) body[i] = 0;
	}
	const kept = boundingBox(body, w, h);
	if (!kept) return { box, inside };
	const bodyBox = { x0: box.x0 + kept.x0, y0: box.y0 + kept.y0, x1: box.x0 + kept.x1, y1: box.y0 + kept.y1 };
	return { box: bodyBox, inside: reframe(body, box, bodyBox) };
}

/** Shapes of fewer pixels than this (their box) are looked at at full size only: it costs little there. */
const MIN_HALVED = 64 * 64;
/**
 * How far (cells of the half-size mask) a distance measured there may be from half the one at full
 * size: the cells a pixel's edge moves by, the chamfer's own error over a few cells, and the centres
 * of discs moved by as much.
 */
const HALVING_ERROR = 3;

/** The limbs a mask's inside has: each pixel's piece (`labels`, 0 for none) and which pieces are limbs. */
interface Limbs {
	labels: Int32Array;
	isLimb: Uint8Array;
	/** Pixels of the shape a pixel of the mask stands for, each way. */
	scale: number;
	/** The mask's width. */
	w: number;
}

/**
 * The shape at half size: a cell is inside when any of its four pixels is, so that a tail one pixel
 * wide stays whole, and every pixel of the shape lies in a cell of it.
 */
function halved(inside: Uint8Array, w: number, h: number): { mask: Uint8Array; w: number; h: number; area: number } {
	const hw = (w + 1) >> 1;
	const hh = (h + 1) >> 1;
	const mask = new Uint8Array(hw * hh);
	for (let y = 0, i = 0; y < h; y++) {
		const row = (y >> 1) * hw;
		for (let x = 0; x < w; x++, i++) if (inside[i]) mask[row + (x >> 1)] = 1;
	}
	let area = 0;
	for (let i = 0; i < mask.length; i++) area += mask[i]!;
	return { mask, w: hw, h: hh, area };
}

/**
 * The limbs of a shape given as one byte per pixel (1 inside), `area` of them set, each pixel of
 * the mask `scale` px of the shape each way: "none" when it has none; at half size, "unsure" when a
 * test falls within HALVING_ERROR of its bound.
 *
 * Both distance maps are chamfer distances (two raster passes each) in one array a pixel wider on
 * every side: first each inside pixel's distance from the world outside it (past the box's edge
 * too), then, in place, each pixel's distance from the centres of the discs that fit. Each pass
 * also does what would otherwise take a pass of its own over the shape (seeding, the deepest pixel,
 * the centres, how far the inside reaches past them): most balloons end after these four.
 */
function limbsOf(inside: Uint8Array, w: number, h: number, area: number, scale: number): Limbs | "none" | "unsure" {
	const error = scale > 1 ? HALVING_ERROR : 0;
	const pw = w + 2;
	// The frame around the box, and every pixel outside the shape, is 0: the world outside it.
	const d = new Float32Array(pw * (h + 2));
	for (let y = 1, j = 0; y <= h; y++) {
		for (let i = y * pw + 1, end = i + w; i < end; i++, j++)
			if (inside[j]) d[i] = relaxed(Number.POSITIVE_INFINITY, d[i - 1]!, d[i - pw]!, d[i - pw - 1]!, d[i - pw + 1]!);
	}
	let deepest = 0;
	for (let y = h; y >= 1; y--) {
		for (let i = y * pw + w, end = y * pw; i > end; i--) {
			const v = d[i]!;
			if (v === 0) continue;
			d[i] = relaxed(v, d[i + 1]!, d[i + pw]!, d[i + pw + 1]!, d[i + pw - 1]!);
			if (d[i]! > deepest) deepest = d[i]!;
		}
	}
	const radius = BODY_RADIUS * deepest;
	if (radius < 2 + error) return error > 0 ? "unsure" : "none";
	// From the centres of the discs that fit: the opening is every inside pixel within a radius of one.
	// Past the box lies no centre.
	for (let x = 0; x < pw; x++) {
		d[x] = Number.POSITIVE_INFINITY;
		d[(h + 1) * pw + x] = Number.POSITIVE_INFINITY;
	}
	for (let y = 1; y <= h; y++) {
		d[y * pw] = Number.POSITIVE_INFINITY;
		d[y * pw + w + 1] = Number.POSITIVE_INFINITY;
		for (let i = y * pw + 1, end = i + w; i < end; i++) {
			if (d[i]! > radius) d[i] = 0;
			else d[i] = relaxed(Number.POSITIVE_INFINITY, d[i - 1]!, d[i - pw]!, d[i - pw - 1]!, d[i - pw + 1]!);
		}
	}
	let farthest = 0;
	for (let y = h; y >= 1; y--) {
		for (let i = y * pw + w, end = y * pw, j = (y - 1) * w + w - 1; i > end; i--, j--) {
			const v = d[i]!;
			if (v === 0) continue;
			d[i] = relaxed(v, d[i + 1]!, d[i + pw]!, d[i + pw + 1]!, d[i + pw - 1]!);
			if (inside[j] && d[i]! > farthest) farthest = d[i]!;
		}
	}
	// Nothing reaches far enough to be a limb: most balloons.
	if (farthest - radius <= LIMB_REACH * radius - error) return "none";
	/** Distance of pixel (x, y) of the box from the nearest centre. */
	const fromCentres = (x: number, y: number) => d[(y + 1) * pw + x + 1]!;
	const trimmed = new Uint8Array(w * h);
	for (let y = 0, i = 0; y < h; y++)
		for (let x = 0; x < w; x++, i++) if (inside[i] && fromCentres(x, y) > radius) trimmed[i] = 1;
	const labels = new Int32Array(w * h);
	const pieces = labelComponents(trimmed, w, h, labels);
	const reach = new Float32Array(pieces.length + 1);
	// Pixels of each piece next to what stays: how wide its root is.
	const root = new Float32Array(pieces.length + 1);
	const stays = (j: number) => inside[j] === 1 && trimmed[j] === 0;
	for (let y = 0, i = 0; y < h; y++) {
		for (let x = 0; x < w; x++, i++) {
			const piece = labels[i]!;
			if (!piece) continue;
			if (fromCentres(x, y) > reach[piece]!) reach[piece] = fromCentres(x, y);
			if (
				(x > 0 && stays(i - 1)) ||
				(x < w - 1 && stays(i + 1)) ||
				(y > 0 && stays(i - w)) ||
				(y < h - 1 && stays(i + w))
			)
				root[piece]!++;
		}
	}
	// Far beyond what stays, through a narrow root: a strip along the rim (a tight label's inside
	// notched by glyphs touching its outline) meets the rest along much of the shape's width. Each
	// test a margin `error` either side of its bound: beyond it, as at full size; within it, unsure.
	const rootLimit = ROOT_SHARE * Math.min(w, h);
	const limb = (piece: number) =>
		reach[piece]! - radius > LIMB_REACH * radius + error && root[piece]! <= rootLimit - error;
	const notLimb = (piece: number) =>
		reach[piece]! - radius <= LIMB_REACH * radius - error || root[piece]! > rootLimit + error;
	if (pieces.some((_, k) => !limb(k + 1) && !notLimb(k + 1))) return "unsure";
	const limbs = pieces.filter((_, k) => limb(k + 1));
	const cut = limbs.reduce((sum, p) => sum + p.area, 0);
	// Many limbs, or most of the shape, are not tails: the teeth of a tight balloon's inside between
	// glyphs that touch its outline (never part of the inside), around a body too small to hold text.
	if (error > 0 && Math.abs(cut - MAX_CUT * area) <= error * Math.sqrt(area)) return "unsure";
	if (limbs.length === 0 || limbs.length > MAX_LIMBS || cut > MAX_CUT * area) return "none";
	const isLimb = Uint8Array.from({ length: pieces.length + 1 }, (_, piece) => (piece > 0 && limb(piece) ? 1 : 0));
	return { labels, isLimb, scale, w };
}

/**
 * A pixel's distance `v` lowered to a step across from the nearer of two neighbours beside it, or
 * a step diagonally from the nearer of two corners. Comparisons rather than Math.min, whose care
 * for NaN and -0 (neither occurs here) made the chamfer passes several times slower.
 */
function relaxed(v: number, side: number, otherSide: number, corner: number, otherCorner: number): number {
	let across = side;
	if (otherSide < across) across = otherSide;
	let diagonal = corner;
	if (otherCorner < diagonal) diagonal = otherCorner;
	let out = v;
	if (across + ACROSS < out) out = across + ACROSS;
	if (diagonal + DIAGONAL < out) out = diagonal + DIAGONAL;
	return out;
}
