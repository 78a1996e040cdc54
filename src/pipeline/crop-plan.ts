/**
 * Where layout and erase may look, planned before the second decode: one crop per group of
 * regions whose search areas meet, each capped in area (a region larger than that is cut into
 * tiles), and the crops split into decode passes so that the crops being collected at once stay
 * under a budget. The model's boxes decide where the crops are, never how much work they make:
 * each crop is capped, and so is the crop area of a whole call.
 */
import { pixelsHeld } from "./crop-rows";
import { searchArea } from "./layout";
import { intersects, union } from "./patch";
import type { Box, TextRegion } from "./types";

/**
 * A crop's pixels at most. Erase works on a crop at up to about 35 bytes a pixel besides its
 * RGBA (the inpainting's buffers), so a crop is at most about 40 MB of work at its peak.
 */
export const MAX_CROP_PIXELS = 1 << 20;
/** Crop pixels held at once during a pass, the rows each crop has so far (RGBA: 4 bytes each). */
export const CROP_BUDGET_PIXELS = 2 * MAX_CROP_PIXELS;
/**
 * All crops of a call together hold at most twice the image's pixels and one crop more (crops
 * that overlap count twice, as the tiles of a page-sized region do): erase time grows with the
 * area it works on, in proportion to the image, whatever the model's boxes.
 */
function callBudget(width: number, height: number): number {
	return 2 * width * height + MAX_CROP_PIXELS;
}

export interface Crop {
	/** Image px, within the image. */
	box: Box;
	/** The regions it holds, in reading order; a region larger than a crop is alone in each of its tiles. */
	regionIds: number[];
}

export interface CropPlan {
	/** Decode passes, top to bottom each: every crop is in exactly one. */
	passes: Crop[][];
	/** Regions left without a crop, the call's crop area being spent (neither erased nor typeset). */
	left: number[];
}

export function planCrops(regions: TextRegion[], width: number, height: number): CropPlan {
	const image = { width, height };
	const crops: Crop[] = [];
	const left: number[] = [];
	let spent = 0;
	for (const region of regions) {
		const area = searchArea(region.box, image);
		if (pixels(area) === 0) {
			left.push(region.id);
			continue;
		}
		if (pixels(area) > MAX_CROP_PIXELS) {
			// A region larger than a crop (a headline across a photo) is worked on in tiles, alone.
			const tiles = tilesOf(area).map((box) => ({ box, regionIds: [region.id] }));
			const total = spent + tiles.reduce((sum, tile) => sum + pixels(tile.box), 0);
			if (total > callBudget(width, height)) left.push(region.id);
			else {
				crops.push(...tiles);
				spent = total;
			}
			continue;
		}
		const merged = mergeInto(crops, { box: area, regionIds: [region.id] });
		const total = spent - merged.replaced + pixels(merged.crop.box);
		if (total > callBudget(width, height)) {
			left.push(region.id);
			continue;
		}
		merged.apply();
		spent = total;
	}
	for (const crop of crops) crop.regionIds.sort((a, b) => a - b);
	return { passes: intoPasses(crops), left };
}

/**
 * `area` cut into a grid of tiles within the cap that overlap by a quarter of their side: erase
 * keeps only glyphs whole inside its crop, so a glyph a seam cuts is whole in the neighbouring tile.
 */
function tilesOf(area: Box): Box[] {
	const side = Math.floor(Math.sqrt(MAX_CROP_PIXELS));
	const overlap = Math.floor(side / 4);
	const spans = (from: number, to: number) => {
		const count = Math.max(1, Math.ceil((to - from - overlap) / (side - overlap)));
		// Tiles as short as the overlap allows, evenly spread: `count` of them cover the span.
		const length = Math.min(to - from, Math.ceil((to - from + overlap * (count - 1)) / count));
		const step = count > 1 ? (to - from - length) / (count - 1) : 0;
		return Array.from({ length: count }, (_, i) => {
			const start = from + Math.round(i * step);
			return [start, start + length] as const;
		});
	};
	return spans(area.y0, area.y1).flatMap(([y0, y1]) => spans(area.x0, area.x1).map(([x0, x1]) => ({ x0, y0, x1, y1 })));
}

/**
 * `crop` joined with every crop it meets, as long as the union stays within the cap; `apply`
 * commits it to `crops`. Overlapping crops that cannot be joined stay apart (their erased
 * pixels are pasted in order).
 */
function mergeInto(crops: Crop[], crop: Crop): { crop: Crop; replaced: number; apply: () => void } {
	let joined = crop;
	const absorbed = new Set<Crop>();
	for (let grew = true; grew; ) {
		grew = false;
		for (const other of crops) {
			if (absorbed.has(other) || !intersects(joined.box, other.box)) continue;
			const box = union(joined.box, other.box);
			if (pixels(box) > MAX_CROP_PIXELS) continue;
			joined = { box, regionIds: [...other.regionIds, ...joined.regionIds] };
			absorbed.add(other);
			grew = true;
		}
	}
	const replaced = [...absorbed].reduce((sum, c) => sum + pixels(c.box), 0);
	return {
		crop: joined,
		replaced,
		apply: () => {
			for (let i = crops.length - 1; i >= 0; i--) if (absorbed.has(crops[i]!)) crops.splice(i, 1);
			crops.push(joined);
		},
	};
}

/**
 * Crops grouped into passes, first fit by top row: a crop joins the first pass in which the crop
 * pixels held at once stay under the budget. A crop holds only the rows already in (crop-rows.ts,
 * in bands as they pass), so a pass holds the most at some crop's last row: that crop whole and
 * what each crop begun and not finished holds so far. Counting every crop whole from its first row
 * split crops down a column of balloons, each overlapping the next, into two decodes of the image.
 */
function intoPasses(crops: Crop[]): Crop[][] {
	const passes: Crop[][] = [];
	for (const crop of [...crops].sort((a, b) => a.box.y0 - b.box.y0)) {
		const pass = passes.find((p) => peakHeld(p, crop) <= CROP_BUDGET_PIXELS);
		if (pass) pass.push(crop);
		else passes.push([crop]);
	}
	return passes;
}

/** The most crop pixels held at a crop's last row within `crop`'s rows, were `crop` added to `pass`. */
function peakHeld(pass: Crop[], crop: Crop): number {
	const together = [...pass, crop];
	let peak = 0;
	for (const last of together) {
		const y = last.box.y1 - 1;
		if (y < crop.box.y0 || y >= crop.box.y1) continue;
		let held = 0;
		for (const { box } of together) {
			if (box.y0 <= y && y < box.y1) held += pixelsHeld(box.x1 - box.x0, box.y1 - box.y0, y + 1 - box.y0);
		}
		peak = Math.max(peak, held);
	}
	return peak;
}

function pixels(b: Box): number {
	return Math.max(0, b.x1 - b.x0) * Math.max(0, b.y1 - b.y0);
}
