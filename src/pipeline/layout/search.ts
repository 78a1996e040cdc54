/**
 * How much of the image layout may look at for each region, decided before any pixel is read, so
 * that the pass cutting crops (crop-plan.ts) knows what to cut and no model answer sizes the work.
 *
 * A region's search area is its box grown on every side by four times the box's longer side: a
 * balloon or a caption panel may be several times the box's size (a box around one column of a
 * vertical balloon, cut short to half a line, or a word in a wide caption) and the box may overlap
 * it only partly. Searching costs what the lettering's container covers, not the area: a flood of
 * open background stops as soon as it reaches the area's edge. It is capped at MAX_SEARCH_PIXELS, the
 * box's own pixels included; a box larger than that is its own search area, which crop-plan.ts cuts
 * into tiles of a crop's size, each searched alone (the call's crop area bounds them all).
 */
import { clipBox, grow } from "../patch";
import type { Box } from "../types";

/**
 * Pixels one region's search may cover: two bytes a pixel while its container is looked for (2 MB at
 * most), and a balloon half a 2000 px page wide.
 */
export const MAX_SEARCH_PIXELS = 1_000_000;

/** How far beyond a box its search reaches, in the box's longer side. */
const REACH = 4;

/** The reader's box grown by a margin: where lettering spilling past an exact box still lies. */
export function paddedBox(box: Box, bounds: Box): Box {
	const side = Math.min(box.x1 - box.x0, box.y1 - box.y0);
	const pad = Math.round(Math.min(48, Math.max(6, side * 0.15)));
	return clipBox(grow(box, pad), bounds);
}

/** The search area of one box (image px), clipped to the image: see the file's comment. */
export function searchArea(box: Box, image: { width: number; height: number }): Box {
	const bounds = { x0: 0, y0: 0, x1: image.width, y1: image.height };
	const clipped = clipBox(box, bounds);
	const w = clipped.x1 - clipped.x0;
	const h = clipped.y1 - clipped.y0;
	if (w * h >= MAX_SEARCH_PIXELS) return clipped;
	// (w + 2r)(h + 2r) = cap, solved for the reach r.
	const capped = (-(w + h) + Math.sqrt((w + h) ** 2 - 4 * (w * h - MAX_SEARCH_PIXELS))) / 4;
	const reach = Math.floor(Math.min(REACH * Math.max(w, h, 16), capped));
	return clipBox(grow(clipped, reach), bounds);
}
