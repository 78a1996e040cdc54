/**
 * Where layout and erase may look, planned before the second decode: one crop per group of
 * regions whose search areas meet, each capped in area, and the crops split into decode passes
 * so that the crops being collected at once stay under a budget. The model's boxes decide where
 * the crops are, never how much work they make: a region's search area is capped, and so is the
 * crop area of a whole call.
 */
import { paddedBox } from "./erase/patch";
import type { Box, TextRegion } from "./types";

/**
 * A crop's pixels at most. Erase works on a crop at up to about 35 bytes a pixel besides its
 * RGBA (the inpainting's buffers), so a crop is at most about 40 MB of work at its peak.
 */
export const MAX_CROP_PIXELS = 1 << 20;
/** Crop pixels being collected at once during a pass (RGBA: 4 bytes each). */
export const CROP_BUDGET_PIXELS = 2 * MAX_CROP_PIXELS;
/**
 * All crops of a call together hold at most the image's pixels and one crop more (crops that
 * overlap count twice): erase time grows with the area it works on, never past the image's own.
 */
function callBudget(width: number, height: number): number {
	return width * height + MAX_CROP_PIXELS;
}

export interface Crop {
	/** Image px, within the image. */
	box: Box;
	/** The regions it holds, in reading order. */
	regionIds: number[];
}

export interface CropPlan {
	/** Decode passes, top to bottom each: every crop is in exactly one. */
	passes: Crop[][];
	/** Regions left without a crop, the call's crop area being spent (neither erased nor typeset). */
	left: number[];
}

/**
 * TEMPORARY: the erase stage's padded reader box stands in for the layout stage's search area
 * (which looks beyond the box for the balloon around it) until layout exports its rule.
 */
function searchArea(box: Box, image: { width: number; height: number }): Box {
	return paddedBox(box, image);
}

export function planCrops(regions: TextRegion[], width: number, height: number): CropPlan {
	const image = { width, height };
	const crops: Crop[] = [];
	const left: number[] = [];
	let spent = 0;
	for (const region of regions) {
		const area = capped(searchArea(region.box, image), region.box);
		if (pixels(area) === 0) {
			left.push(region.id);
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
			if (absorbed.has(other) || !meets(joined.box, other.box)) continue;
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
 * Crops grouped into passes, first fit by top row: a crop joins the first pass in which the
 * crops alive together with it (collected, their last row not yet in) stay under the budget.
 */
function intoPasses(crops: Crop[]): Crop[][] {
	const passes: Crop[][] = [];
	for (const crop of [...crops].sort((a, b) => a.box.y0 - b.box.y0)) {
		const pass = passes.find((p) => peakAlive(p, crop) <= CROP_BUDGET_PIXELS);
		if (pass) pass.push(crop);
		else passes.push([crop]);
	}
	return passes;
}

/** The most crop pixels alive at one row of `crop`'s span, were it added to `pass`. */
function peakAlive(pass: Crop[], crop: Crop): number {
	const rows = [crop.box.y0, ...pass.map((c) => c.box.y0).filter((y) => y > crop.box.y0 && y < crop.box.y1)];
	let peak = 0;
	for (const y of rows) {
		let alive = pixels(crop.box);
		for (const c of pass) if (c.box.y0 <= y && y < c.box.y1) alive += pixels(c.box);
		peak = Math.max(peak, alive);
	}
	return peak;
}

/** `area` shrunk about the centre of `box` (same proportions) when it holds more than the cap. */
function capped(area: Box, box: Box): Box {
	const size = pixels(area);
	if (size <= MAX_CROP_PIXELS) return area;
	const scale = Math.sqrt(MAX_CROP_PIXELS / size);
	const w = Math.floor((area.x1 - area.x0) * scale);
	const h = Math.floor((area.y1 - area.y0) * scale);
	const cx = clamp((box.x0 + box.x1) / 2, area.x0 + w / 2, area.x1 - w / 2);
	const cy = clamp((box.y0 + box.y1) / 2, area.y0 + h / 2, area.y1 - h / 2);
	const x0 = Math.round(cx - w / 2);
	const y0 = Math.round(cy - h / 2);
	return { x0, y0, x1: x0 + w, y1: y0 + h };
}

function clamp(v: number, lo: number, hi: number): number {
	return Math.max(lo, Math.min(hi, v));
}

function pixels(b: Box): number {
	return Math.max(0, b.x1 - b.x0) * Math.max(0, b.y1 - b.y0);
}

function meets(a: Box, b: Box): boolean {
	return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

function union(a: Box, b: Box): Box {
	return { x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) };
}
