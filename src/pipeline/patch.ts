/** Cutting rectangles out of an image or a crop, and boxes between their coordinates. */
import type { Box, Patch, Raster } from "./types";

/** The box within `bounds` (an image size or a box), in whole pixels; a box with a side that is not a number is empty. */
export function clipBox(box: Box, bounds: { width: number; height: number } | Box): Box {
	const b = "width" in bounds ? { x0: 0, y0: 0, x1: bounds.width, y1: bounds.height } : bounds;
	const clamp = (v: number, min: number, max: number) => (Number.isFinite(v) ? Math.max(min, Math.min(max, v)) : min);
	const x0 = clamp(Math.floor(box.x0), b.x0, b.x1);
	const y0 = clamp(Math.floor(box.y0), b.y0, b.y1);
	const x1 = Math.max(x0, clamp(Math.ceil(box.x1), b.x0, b.x1));
	const y1 = Math.max(y0, clamp(Math.ceil(box.y1), b.y0, b.y1));
	return { x0, y0, x1, y1 };
}

/** The whole raster as a patch: no copy, writes go to the raster. */
export function wholePatch(raster: Raster): Patch {
	return { box: { x0: 0, y0: 0, x1: raster.width, y1: raster.height }, ...raster };
}

/** A copy of `box` (image px, inside the source's box) from a patch. */
export function cutPatch(source: Patch, box: Box): Patch {
	const width = box.x1 - box.x0;
	const height = box.y1 - box.y0;
	const data = new Uint8Array(width * height * 4);
	for (let y = 0; y < height; y++) {
		const from = ((box.y0 - source.box.y0 + y) * source.width + box.x0 - source.box.x0) * 4;
		data.set(source.data.subarray(from, from + width * 4), y * width * 4);
	}
	return { box, width, height, data };
}

/** Writes the patch's pixels where `where` is set into `target`; every other pixel stays as it was. */
export function pastePatch(target: Patch, patch: Patch, where: Uint8Array): void {
	const { box, width, height, data } = patch;
	const out = target.data;
	for (let y = 0; y < height; y++) {
		const row = (box.y0 - target.box.y0 + y) * target.width + box.x0 - target.box.x0;
		for (let x = 0; x < width; x++) {
			const i = y * width + x;
			if (!where[i]) continue;
			// Four byte writes: a subarray and a set() per pixel cost more than the copy itself.
			const from = i * 4;
			const to = (row + x) * 4;
			out[to] = data[from]!;
			out[to + 1] = data[from + 1]!;
			out[to + 2] = data[from + 2]!;
			out[to + 3] = data[from + 3]!;
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

/** Box in image coordinates of a box in patch coordinates. */
export function toImageBox(patch: Patch, box: Box): Box {
	const { x0, y0 } = patch.box;
	return { x0: box.x0 + x0, y0: box.y0 + y0, x1: box.x1 + x0, y1: box.y1 + y0 };
}

export function area(box: Box): number {
	return Math.max(0, box.x1 - box.x0) * Math.max(0, box.y1 - box.y0);
}

export function union(a: Box, b: Box): Box {
	return { x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) };
}

/** Pixels two boxes share. */
export function overlap(a: Box, b: Box): number {
	const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
	const h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
	return w > 0 && h > 0 ? w * h : 0;
}

/** Whether two boxes share a pixel. */
export function intersects(a: Box, b: Box): boolean {
	return a.x1 > b.x0 && a.x0 < b.x1 && a.y1 > b.y0 && a.y0 < b.y1;
}

/** Distance between two boxes (0 when they meet). */
export function distance(a: Box, b: Box): number {
	const dx = Math.max(0, a.x0 - b.x1, b.x0 - a.x1);
	const dy = Math.max(0, a.y0 - b.y1, b.y0 - a.y1);
	return Math.hypot(dx, dy);
}

/** Whether `inner` lies inside `outer`, edges included. */
export function within(inner: Box, outer: Box): boolean {
	return inner.x0 >= outer.x0 && inner.y0 >= outer.y0 && inner.x1 <= outer.x1 && inner.y1 <= outer.y1;
}

export function grow(box: Box, dx: number, dy = dx): Box {
	return { x0: box.x0 - dx, y0: box.y0 - dy, x1: box.x1 + dx, y1: box.y1 + dy };
}
