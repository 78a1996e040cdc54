/**
 * TEMPORARY ADAPTER, until the layout stage works on crops (TextBlock[] and ErasedPixels from a
 * crop and its regions, issue 10): today's eraseRegions run on the crop as if it were the whole
 * image, and what they changed is taken out as ErasedPixels by comparing the crop before and after.
 */
import type { Mode } from "../request/options";
import { eraseRegions } from "./erase";
import type { Box, ErasedPixels, ErasedRegion, Raster, TranslatedRegion } from "./types";

export interface ErasedCrop {
	/** In image px. */
	regions: ErasedRegion[];
	/** The pixels erase changed, absent when none were (light-novel mode changes none). */
	erased?: ErasedPixels;
}

/** Erases `regions` (image px) inside `crop`, whose pixels are those of the image at `box`. */
export function eraseCrop(crop: Raster, box: Box, regions: TranslatedRegion[], mode: Mode): ErasedCrop {
	const before = mode === "light-novel" ? undefined : crop.data.slice();
	const local = regions.map((region) => ({
		...region,
		box: shifted(region.box, -box.x0, -box.y0),
		...(region.lines ? { lines: region.lines.map((l) => ({ ...l, box: shifted(l.box, -box.x0, -box.y0) })) } : {}),
	}));
	const erasedRegions = eraseRegions(crop, local, mode).map((erased, i) => {
		const { box: _, lines: __, ...measured } = erased;
		const region = regions[i]!;
		return {
			...measured,
			box: region.box,
			...(region.lines ? { lines: region.lines } : {}),
			textBox: shifted(erased.textBox, box.x0, box.y0),
			erasedBox: shifted(erased.erasedBox, box.x0, box.y0),
		};
	});
	const erased = before && changedPixels(before, crop, box);
	return { regions: erasedRegions, ...(erased ? { erased } : {}) };
}

/** The pixels that differ between `before` and the crop now, in the bounding box of the changes. */
function changedPixels(before: Uint8Array, crop: Raster, box: Box): ErasedPixels | undefined {
	const after = new Int32Array(crop.data.buffer, crop.data.byteOffset, crop.width * crop.height);
	const was = new Int32Array(before.buffer, before.byteOffset, crop.width * crop.height);
	let x0 = crop.width;
	let y0 = crop.height;
	let x1 = 0;
	let y1 = 0;
	for (let y = 0; y < crop.height; y++) {
		for (let x = 0, i = y * crop.width; x < crop.width; x++, i++) {
			if (after[i] === was[i]) continue;
			x0 = Math.min(x0, x);
			x1 = Math.max(x1, x + 1);
			y0 = Math.min(y0, y);
			y1 = y + 1;
		}
	}
	if (x1 <= x0) return undefined;
	const width = x1 - x0;
	const height = y1 - y0;
	const mask = new Uint8Array(width * height);
	const rgba = new Uint8Array(width * height * 4);
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			const i = (y0 + y) * crop.width + x0 + x;
			if (after[i] === was[i]) continue;
			const k = y * width + x;
			mask[k] = 1;
			rgba.set(crop.data.subarray(i * 4, i * 4 + 4), k * 4);
		}
	}
	return { box: { x0: box.x0 + x0, y0: box.y0 + y0, x1: box.x0 + x1, y1: box.y0 + y1 }, mask, rgba };
}

function shifted(b: Box, dx: number, dy: number): Box {
	return { x0: b.x0 + dx, y0: b.y0 + dy, x1: b.x1 + dx, y1: b.y1 + dy };
}
