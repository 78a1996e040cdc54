import type { Box, Raster } from "../types";

type Size = Pick<Raster, "width" | "height">;

/** A copy of one rectangle of the image; stages work on it and write back only what they change. */
export interface Patch {
	/** Where the patch sits in the image. */
	box: Box;
	width: number;
	height: number;
	/** Straight RGBA8, rows of `width`. */
	data: Uint8Array;
}

/** The reader's box grown by a margin, clipped to the image: the only area erasure may touch. */
export function paddedBox(box: Box, raster: Size): Box {
	const side = Math.min(box.x1 - box.x0, box.y1 - box.y0);
	// Reader boxes are approximate: the margin catches lettering that spills past them.
	const pad = Math.round(Math.min(48, Math.max(6, side * 0.15)));
	return clipBox({ x0: box.x0 - pad, y0: box.y0 - pad, x1: box.x1 + pad, y1: box.y1 + pad }, raster);
}

/** The box within the image, in whole pixels; a box with a side that is not a number is empty. */
export function clipBox(box: Box, raster: Size): Box {
	const within = (v: number, max: number) => (Number.isFinite(v) ? Math.max(0, Math.min(max, v)) : 0);
	const x0 = within(Math.floor(box.x0), raster.width);
	const y0 = within(Math.floor(box.y0), raster.height);
	const x1 = Math.max(x0, within(Math.ceil(box.x1), raster.width));
	const y1 = Math.max(y0, within(Math.ceil(box.y1), raster.height));
	return { x0, y0, x1, y1 };
}

export function cutPatch(raster: Raster, box: Box): Patch {
	const width = box.x1 - box.x0;
	const height = box.y1 - box.y0;
	const data = new Uint8Array(width * height * 4);
	for (let y = 0; y < height; y++) {
		const from = ((box.y0 + y) * raster.width + box.x0) * 4;
		data.set(raster.data.subarray(from, from + width * 4), y * width * 4);
	}
	return { box, width, height, data };
}

/** Writes back the patch's pixels where `where` is set; every other image pixel stays as it was. */
export function pastePatch(raster: Raster, patch: Patch, where: Uint8Array): void {
	const { box, width, height, data } = patch;
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			const i = y * width + x;
			if (!where[i]) continue;
			const to = ((box.y0 + y) * raster.width + box.x0 + x) * 4;
			raster.data[to] = data[i * 4]!;
			raster.data[to + 1] = data[i * 4 + 1]!;
			raster.data[to + 2] = data[i * 4 + 2]!;
			raster.data[to + 3] = data[i * 4 + 3]!;
		}
	}
}

/** Box in patch coordinates of an image box, clipped to the patch. */
export function toPatchBox(patch: Patch, box: Box): Box {
	return {
		x0: Math.max(0, box.x0 - patch.box.x0),
		y0: Math.max(0, box.y0 - patch.box.y0),
		x1: Math.min(patch.width, box.x1 - patch.box.x0),
		y1: Math.min(patch.height, box.y1 - patch.box.y0),
	};
}
