/**
 * Glyph strokes laid against the outline of a balloon the reader's box holds, told from the outline
 * by how dark the ink is. The work patch around such a box reaches into the art beyond the balloon,
 * and grey art is ink against a white balloon: counted as ink, the band across the outline runs on
 * into the art, the outline seems as wide as the art, and the strokes laid against it stay with it
 * (outline.ts, peelStrokes). Counted only where the ink is as dark as the lettering (balloons are
 * outlined in the lettering's black), and its anti-aliased rim, the band ends where the art begins.
 *
 * The outline's width is read once for the balloon: the median band at its inner rim (strokes laid
 * against it widen it where they lie, and so does grain as dark as the lettering where it touches
 * the outline; a lower share took the outline itself for a stroke there). An outline pixel is a stroke's when the
 * band there is wider by a stroke (of the lettering inside the balloon), the pixel lies within that
 * excess and a pixel clear of the outline's width (the width read at one place and another differs
 * by a pixel: that pixel is left to the outline, never taken from it), and the world beyond lies
 * straight across the outline from it (where the nearest light is along the outline instead, the
 * art against it is as dark as the lettering, and the band measures the art).
 */
import { dilate, strokeWidth, without } from "./masks";
import { stepsFrom } from "./steps";

/** A balloon the reader's box holds, over the work patch. */
export interface HeldBalloon {
	/** 1 inside the balloon as its flood found it (the lettering it encloses included). */
	inside: Uint8Array;
	/** 1 where the ink is as dark as the lettering. */
	dark: Uint8Array;
}

/** Share of the inner rim's bands at most as thin as the outline's width: the median. */
const RIM_SHARE = 0.5;

/**
 * The outline pixels (`outline` 1) that are strokes laid against it, marked 2 and returned. `outside`
 * is the ink and the world beyond the balloon, `ink` the strong ink, `dIn` the steps through ink
 * from the balloon's inside.
 */
export function shelvesOnOutline(
	outline: Uint8Array,
	outside: Uint8Array,
	ink: Uint8Array,
	dIn: Uint16Array,
	held: HeldBalloon,
	w: number,
	h: number,
): number[] {
	const stroke = Math.max(2, Math.round(strokeWidth(ink, w, { x0: 0, y0: 0, x1: w, y1: h }, held.inside)));
	const reach = 4 * stroke + 4;
	// Dark ink and its anti-aliased rim are the wall; the rest of the outside is the world beyond.
	const wall = dilate(held.dark, w, h, 1);
	for (let i = 0; i < wall.length; i++) if (!outside[i] || !ink[i]) wall[i] = 0;
	const dOut = stepsFrom(without(outside, wall), wall, w, h, { reach });
	const width = rimWidth(outline, dIn, dOut, reach);
	if (width < 1) return [];
	const shelf: number[] = [];
	for (let i = 0; i < outline.length; i++) {
		if (outline[i] !== 1 || dOut[i]! > reach) continue;
		const excess = dIn[i]! + dOut[i]! - 1 - width;
		if (excess < Math.max(2, stroke - 1) || excess > stroke + 1 || dIn[i]! > excess - 1) continue;
		if (lightAcross(i, dIn, dOut, wall, w, h)) shelf.push(i);
	}
	for (const i of shelf) outline[i] = 2;
	// The shelf's ends, where the inside lies beside the stroke and the band is read short: the
	// pixels next to it as far from the world beyond.
	const ends: number[] = [];
	for (let i = 0; i < outline.length; i++) {
		if (outline[i] !== 1 || dOut[i]! <= width + 1 || dOut[i]! > width + stroke + 1 || dIn[i]! > stroke + 1) continue;
		if (nextTo(outline, i, w, 2)) ends.push(i);
	}
	for (const i of ends) outline[i] = 2;
	return [...shelf, ...ends];
}

/** The outline's width: RIM_SHARE of its inner rim's bands (dIn 1) are this thin or thinner; 0 when none is read. */
function rimWidth(outline: Uint8Array, dIn: Uint16Array, dOut: Uint16Array, reach: number): number {
	const counts = new Uint32Array(reach + 1);
	let n = 0;
	for (let i = 0; i < outline.length; i++) {
		if (!outline[i] || dIn[i] !== 1 || dOut[i]! > reach) continue;
		counts[dOut[i]!]!++;
		n++;
	}
	for (let d = 0, seen = 0; d <= reach && n > 0; d++) {
		seen += counts[d]!;
		if (seen >= RIM_SHARE * n) return d;
	}
	return 0;
}

/**
 * Whether the world beyond lies straight across the outline from pixel i: walking from i away from
 * the inside (the way dIn falls, to the nearest of eight ways), a pixel off the wall comes within
 * dOut(i) + 1 steps.
 */
function lightAcross(i: number, dIn: Uint16Array, dOut: Uint16Array, wall: Uint8Array, w: number, h: number): boolean {
	const x = i % w;
	const y = (i - x) / w;
	let sx = 0;
	let sy = 0;
	for (let dy = -1; dy <= 1; dy++) {
		for (let dx = -1; dx <= 1; dx++) {
			const nx = x + dx;
			const ny = y + dy;
			if ((dx === 0 && dy === 0) || nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
			const fall = dIn[i]! - Math.min(dIn[i]!, dIn[ny * w + nx]!);
			sx -= fall * dx;
			sy -= fall * dy;
		}
	}
	if (sx === 0 && sy === 0) return false;
	const way = (Math.round((4 * Math.atan2(sy, sx)) / Math.PI) * Math.PI) / 4;
	const bx = Math.round(Math.cos(way));
	const by = Math.round(Math.sin(way));
	for (let step = 1, cx = x + bx, cy = y + by; step <= dOut[i]! + 1; step++, cx += bx, cy += by) {
		if (cx < 0 || cy < 0 || cx >= w || cy >= h) return false;
		if (wall[cy * w + cx]) continue;
		// Light for a pixel more: a speck of lighter art among art as dark as the lettering is no world beyond.
		const nx = cx + bx;
		const ny = cy + by;
		return nx >= 0 && ny >= 0 && nx < w && ny < h && !wall[ny * w + nx];
	}
	return false;
}

/** Whether one of pixel i's eight neighbours holds `value`. */
function nextTo(mask: Uint8Array, i: number, w: number, value: number): boolean {
	const x = i % w;
	for (let dy = -1; dy <= 1; dy++) {
		const row = i + dy * w;
		if (row < 0 || row >= mask.length) continue;
		for (let dx = x > 0 ? -1 : 0; dx <= (x < w - 1 ? 1 : 0); dx++) if (mask[row + dx] === value) return true;
	}
	return false;
}
