/**
 * Whether glyphs found for a block can be its lettering. Lettering's edges are the sharpest steps
 * of colour among the glyphs: where the mask found misses most of them, the ink score measured
 * something else (a texture's colour taken for the ink, so that only pockets of the photo inside
 * the glyphs, their counters, were found) and erasing it would leave the lettering standing under
 * the translation. Such a block is covered instead (the rule: never print over lettering).
 */
import type { Box, Patch } from "../types";
import { dilate, reframe } from "./masks";

/** A step of colour (largest channel difference to the next pixel right or below) this sharp, at least, is an edge. */
const MIN_STEP = 32;
/** ...and at least this share of the sharpest steps among the glyphs (their 99th percentile): lettering's own edges. */
const SHARPEST_SHARE = 0.5;
/** How far (px) from the mask an edge still counts as the mask's: an anti-aliased rim and JPEG's ringing. */
const REACH = 2;

/**
 * The share of the sharp edges inside `box` (patch coordinates, the glyphs' bounds) that lie within
 * REACH of `mask`; 1 when the box holds no sharp edge.
 */
export function edgesCovered(patch: Patch, mask: Uint8Array, box: Box): number {
	const { width: w, height: h, data } = patch;
	const x1 = Math.min(box.x1, w - 1);
	const y1 = Math.min(box.y1, h - 1);
	if (x1 <= box.x0 || y1 <= box.y0) return 1;
	const steps = new Uint8Array((x1 - box.x0) * (y1 - box.y0));
	const counts = new Uint32Array(256);
	let k = 0;
	for (let y = box.y0; y < y1; y++) {
		for (let x = box.x0; x < x1; x++, k++) {
			const i = (y * w + x) * 4;
			let step = 0;
			for (let c = 0; c < 3; c++) {
				const v = data[i + c]!;
				step = Math.max(step, Math.abs(v - data[i + 4 + c]!), Math.abs(v - data[i + w * 4 + c]!));
			}
			steps[k] = step;
			counts[step]!++;
		}
	}
	let sharpest = 255;
	for (let seen = counts[255]!; sharpest > 0 && seen < 0.01 * steps.length; seen += counts[sharpest]!) sharpest--;
	const edge = Math.max(MIN_STEP, SHARPEST_SHARE * sharpest);
	// The mask near the box is all that reaches it: dilated over the box grown by REACH, not the patch.
	const around = {
		x0: Math.max(0, box.x0 - REACH),
		y0: Math.max(0, box.y0 - REACH),
		x1: Math.min(w, x1 + REACH),
		y1: Math.min(h, y1 + REACH),
	};
	const aw = around.x1 - around.x0;
	const near = dilate(reframe(mask, { x0: 0, y0: 0, x1: w, y1: h }, around), aw, around.y1 - around.y0, REACH);
	let edges = 0;
	let covered = 0;
	k = 0;
	for (let y = box.y0; y < y1; y++) {
		for (let x = box.x0, i = (y - around.y0) * aw + x - around.x0; x < x1; x++, k++, i++) {
			if (steps[k]! < edge) continue;
			edges++;
			covered += near[i]!;
		}
	}
	return edges === 0 ? 1 : covered / edges;
}
