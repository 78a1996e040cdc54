import type { Box, Patch } from "../types";
import { type Background, distanceMap } from "./background";

/** A row or column counts as clean background when this share of it matches the background. */
const CLEAN_SHARE = 0.9;

/**
 * The plain background around the text: the text box grown side by side, one row or column at a
 * time, while the new row or column matches the background (the lettering's own pixels, `lettering`,
 * count as background: they are erased), stopping at a balloon's outline or the art around a label,
 * and at `limit`. All in patch coordinates.
 */
export function cleanArea(patch: Patch, bg: Background, text: Box, lettering: Uint8Array, limit: Box): Box {
	const distance = distanceMap(patch, bg.planes);
	const { width: w } = patch;
	const box = { ...text };
	const clean = (from: number, to: number, at: (k: number) => number) => {
		let hits = 0;
		for (let k = from; k < to; k++) if (distance[at(k)]! <= 16 || lettering[at(k)]) hits++;
		return hits >= CLEAN_SHARE * (to - from);
	};
	let grew = true;
	while (grew) {
		grew = false;
		if (box.y0 > limit.y0 && clean(box.x0, box.x1, (x) => (box.y0 - 1) * w + x)) {
			box.y0--;
			grew = true;
		}
		if (box.y1 < limit.y1 && clean(box.x0, box.x1, (x) => box.y1 * w + x)) {
			box.y1++;
			grew = true;
		}
		if (box.x0 > limit.x0 && clean(box.y0, box.y1, (y) => y * w + box.x0 - 1)) {
			box.x0--;
			grew = true;
		}
		if (box.x1 < limit.x1 && clean(box.y0, box.y1, (y) => y * w + box.x1)) {
			box.x1++;
			grew = true;
		}
	}
	return box;
}
