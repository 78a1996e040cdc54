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

/**
 * A region larger than a crop is measured once per tile (`box`: where each was measured): the
 * tiles that found lettering (a text box other than the reader's box within the tile, which is
 * what erase answers when it finds none) are joined, their boxes united and the rest taken from
 * the one that found the most. When none found any, the reader's box stands, as for one crop.
 */
export function joinTiles(measured: { box: Box; regions: ErasedRegion[] }[]): ErasedRegion[] {
	const byId = new Map<number, { region: ErasedRegion; found: boolean }[]>();
	for (const { box, regions } of measured) {
		for (const region of regions) {
			const found = !sameBox(region.textBox, intersection(region.box, box));
			byId.set(region.id, [...(byId.get(region.id) ?? []), { region, found }]);
		}
	}
	return [...byId.values()].map((tiles) => {
		if (tiles.length === 1) return tiles[0]!.region;
		const found = tiles.filter((t) => t.found).map((t) => t.region);
		const joined = found.length > 0 ? found : tiles.map((t) => t.region);
		const best = joined.reduce((a, b) => (area(b.textBox) > area(a.textBox) ? b : a));
		return {
			...best,
			textBox: joined.map((t) => t.textBox).reduce(union),
			erasedBox: joined.map((t) => t.erasedBox).reduce(union),
		};
	});
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

function sameBox(a: Box, b: Box): boolean {
	return a.x0 === b.x0 && a.y0 === b.y0 && a.x1 === b.x1 && a.y1 === b.y1;
}

function area(b: Box): number {
	return (b.x1 - b.x0) * (b.y1 - b.y0);
}

function intersection(a: Box, b: Box): Box {
	return { x0: Math.max(a.x0, b.x0), y0: Math.max(a.y0, b.y0), x1: Math.min(a.x1, b.x1), y1: Math.min(a.y1, b.y1) };
}

function union(a: Box, b: Box): Box {
	return { x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) };
}

function shifted(b: Box, dx: number, dy: number): Box {
	return { x0: b.x0 + dx, y0: b.y0 + dy, x1: b.x1 + dx, y1: b.y1 + dy };
}
