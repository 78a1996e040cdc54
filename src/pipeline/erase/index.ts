/**
 * The erase stage: each block to replace has its lettering (found by layout) filled with the
 * background it hid, in the crop layout worked on. Only the lettering's pixels (with a margin for
 * anti-aliasing and JPEG ringing) change, never the art its glyphs touch; blocks to keep or to cover
 * are left as drawn, and light-novel mode never gets here.
 */
import type { LaidOut, Lettering } from "../layout";
import { shiftBackground } from "../layout/background";
import { boundingBox, dilate, reframe } from "../layout/masks";
import { clipBox, cutPatch, pastePatch } from "../patch";
import type { ErasedPixels, Patch } from "../types";
import { inpaint } from "./inpaint";

/**
 * Erases the lettering of every block to replace, in place in `crop` (so a later block sees an
 * earlier one cleaned), and returns the pixels changed, to be written into the image's rows.
 */
export function eraseBlocks(crop: Patch, laid: LaidOut[]): ErasedPixels[] {
	const erased: ErasedPixels[] = [];
	for (const { block, lettering } of laid) {
		if (block.treatment !== "replace" || !lettering) continue;
		const changed = eraseLettering(crop, lettering);
		if (changed) erased.push(changed);
	}
	return erased;
}

function eraseLettering(crop: Patch, lettering: Lettering): ErasedPixels | undefined {
	const box = clipBox(lettering.box, crop.box);
	const patch = cutPatch(crop, box);
	const { width: w, height: h } = patch;
	if (w < 3 || h < 3) return undefined;
	const bg = shiftBackground(lettering.background, box.x0 - lettering.box.x0, box.y0 - lettering.box.y0);
	const glyphs = reframe(lettering.mask, lettering.box, box);
	const barrier = lettering.barrier && reframe(lettering.barrier, lettering.box, box);
	// JPEG ringing and soft shadows reach a little past the glyph rim; a balloon outline the glyphs
	// touch is art: the margin stops at it.
	const hole = dilate(glyphs, w, h, bg.kind === "texture" ? 3 : 2);
	if (barrier) for (let i = 0; i < hole.length; i++) hole[i]! &= 1 - barrier[i]!;
	inpaint(patch, bg, hole, barrier);
	pastePatch(crop, patch, hole);
	const within = boundingBox(hole, w, h);
	if (!within) return undefined;
	const out = { x0: box.x0 + within.x0, y0: box.y0 + within.y0, x1: box.x0 + within.x1, y1: box.y0 + within.y1 };
	const ow = out.x1 - out.x0;
	const mask = reframe(hole, box, out);
	const rgba = new Uint8Array(mask.length * 4);
	for (let y = 0; y < out.y1 - out.y0; y++) {
		const from = ((y + within.y0) * w + within.x0) * 4;
		rgba.set(patch.data.subarray(from, from + ow * 4), y * ow * 4);
	}
	return { box: out, mask, rgba };
}
