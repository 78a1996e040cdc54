/**
 * How much of the image layout may look at for each region, decided before any pixel is read, so
 * that the pass cutting crops knows what to cut and no model answer sizes the work.
 *
 * A region's search area is its box grown on every side by four times the box's longer side: a
 * balloon or a caption panel may be several times the box's size (a box around one column of a
 * vertical balloon, cut short to half a line, or a word in a wide caption) and the box may overlap
 * it only partly. Searching costs what the lettering's container covers, not the area: a flood of
 * open background stops as soon as it reaches the area's edge. It is capped at MAX_SEARCH_PIXELS, the box's own pixels
 * included: a page-sized box from a model costs no more than a balloon-sized one, and a box larger
 * than the cap is not searched at all (its block is covered with a panel: see layoutCrop).
 */
import { area, clipBox, grow, overlap, union } from "../patch";
import type { Box, TranslatedRegion } from "../types";

/**
 * Pixels one region's search may cover: two bytes a pixel while its container is looked for (2 MB at
 * most), and a balloon half a 2000 px page wide.
 */
export const MAX_SEARCH_PIXELS = 1_000_000;
/**
 * Regions laid out per call, in reading order; later ones are left as drawn (not erased, not
 * typeset). A dense page of a comic holds a few dozen; a scanned document page a few hundred lines.
 */
export const MAX_REGIONS = 400;
/**
 * All search areas of a call together cover at most this many times the image's pixels (plus one
 * cap's worth): past that, regions are searched only around their box, as without layout. A page of
 * balloons uses under one; only a flood of overlapping boxes reaches it.
 */
const PAGE_SEARCH_FACTOR = 3;

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

export interface LayoutPlan {
	/** The regions laid out, reading order kept; degenerate boxes and those past MAX_REGIONS left out. */
	regions: TranslatedRegion[];
	/** Search area per region id, image px: the crop given to layoutCrop must hold it whole. */
	areas: Map<number, Box>;
	/** Ids of regions left out for MAX_REGIONS. */
	dropped: number[];
}

/** Every region's search area, within the caps above. */
export function planLayout(regions: TranslatedRegion[], image: { width: number; height: number }): LayoutPlan {
	const bounds = { x0: 0, y0: 0, x1: image.width, y1: image.height };
	let budget = PAGE_SEARCH_FACTOR * image.width * image.height + MAX_SEARCH_PIXELS;
	const kept: TranslatedRegion[] = [];
	const areas = new Map<number, Box>();
	const dropped: number[] = [];
	for (const region of regions) {
		const box = clipBox(region.box, bounds);
		if (box.x1 - box.x0 < 2 || box.y1 - box.y0 < 2) continue;
		if (kept.length >= MAX_REGIONS) {
			dropped.push(region.id);
			continue;
		}
		const wide = searchArea(box, image);
		const search = area(wide) <= budget ? wide : paddedBox(box, bounds);
		budget -= area(search);
		kept.push(region);
		areas.set(region.id, search);
	}
	return { regions: kept, areas, dropped };
}

/** Largest crop `cropsFor` makes of several regions' search areas (4 bytes a pixel while held). */
export const MAX_CROP_PIXELS = 2 * MAX_SEARCH_PIXELS;

/**
 * Crops to cut for layout: regions whose search areas overlap share a crop, so that the regions of
 * one balloon are found together, as long as the crop stays within MAX_CROP_PIXELS (beyond that,
 * `settlePage` joins what the crops found of one container). Each crop holds its regions' areas.
 */
export function cropsFor(plan: LayoutPlan): { box: Box; regions: TranslatedRegion[] }[] {
	const crops: { box: Box; regions: TranslatedRegion[] }[] = [];
	for (const region of plan.regions) {
		const search = plan.areas.get(region.id)!;
		const joined = crops.find((c) => overlap(c.box, search) > 0 && area(union(c.box, search)) <= MAX_CROP_PIXELS);
		if (joined) {
			joined.box = union(joined.box, search);
			joined.regions.push(region);
		} else crops.push({ box: search, regions: [region] });
	}
	return crops;
}
