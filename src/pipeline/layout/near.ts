/**
 * Closed shapes near a reader's box that holds none: a box the rough reader moved off its container
 * (or cut from a merged box, past the page between two balloons) misses a tight panel by a few pixels,
 * so no flood starts on its paper. The shapes looked at are those a box off by the reader's usual
 * misses would have met.
 */
import { clipBox, cutPatch, grow, toPatchBox } from "../patch";
import type { Box, Patch } from "../types";
import { type Background, colourOf, paperColours } from "./background";
import { closedShapes, type Shape } from "./container";

/**
 * Share of the box's side, on each axis, by which it may lie off the lettering it was read for: a
 * box whose centre is off by 12% of its lettering's size and each side 20% short (issue 10's rough
 * reader) leaves up to (0.12 + 0.1) / 0.8 of its own side of that lettering beyond each edge.
 */
const MISS = 0.275;

/**
 * Closed shapes of a paper colour (paperColours) found around `readerBox`, within MISS of its sides,
 * whose enclosed ink lies within that reach of the box, nearest first; never one `claimed` (another
 * region's). The pieces lettering fitted tight to a panel cuts its paper into are joined (closedShapes,
 * lines `vertical` or not).
 */
export function shapesNear(
	crop: Patch,
	search: Box,
	readerBox: Box,
	claimed: (shape: Shape) => boolean,
	tolerance: number,
	vertical: boolean,
): { shape: Shape; bg: Background }[] {
	const reachX = Math.ceil(MISS * (readerBox.x1 - readerBox.x0));
	const reachY = Math.ceil(MISS * (readerBox.y1 - readerBox.y0));
	const near = clipBox(grow(readerBox, reachX, reachY), search);
	const patch = cutPatch(crop, near);
	const inner = toPatchBox(patch, readerBox);
	// The colours of the ring around the box, side by side: a panel beside the box fills a good share
	// of the side it lies on, little of the whole.
	const sides: Box[] = [
		{ x0: 0, y0: 0, x1: inner.x0, y1: patch.height },
		{ x0: inner.x1, y0: 0, x1: patch.width, y1: patch.height },
		{ x0: inner.x0, y0: 0, x1: inner.x1, y1: inner.y0 },
		{ x0: inner.x0, y0: inner.y1, x1: inner.x1, y1: patch.height },
	];
	const colours: Background[] = [];
	for (const side of sides) {
		if (side.x1 - side.x0 < 1 || side.y1 - side.y0 < 1) continue;
		for (const bg of paperColours(patch, side)) {
			const colour = colourOf(bg);
			const seen = colours.some((c) => colourOf(c).every((v, k) => Math.abs(v - colour[k]!) <= tolerance));
			if (!seen) colours.push(bg);
		}
	}
	const out: { shape: Shape; bg: Background; gap: number }[] = [];
	for (const bg of colours) {
		for (const shape of closedShapes(crop, search, near, colourOf(bg), tolerance, { vertical })) {
			const { enclosed } = shape;
			const dx = Math.max(0, enclosed.x0 - readerBox.x1, readerBox.x0 - enclosed.x1);
			const dy = Math.max(0, enclosed.y0 - readerBox.y1, readerBox.y0 - enclosed.y1);
			if (dx > reachX || dy > reachY || claimed(shape)) continue;
			out.push({ shape, bg, gap: Math.hypot(dx, dy) });
		}
	}
	// As near, the larger first: a tight panel's pieces joined before each piece alone.
	return out.sort((a, b) => a.gap - b.gap || b.shape.insideArea - a.shape.insideArea);
}
