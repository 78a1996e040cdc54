/**
 * Where layout and erase may look: the model's boxes place the crops but never size the work.
 */
import { describe, expect, it } from "vitest";
import { CROP_BUDGET_PIXELS, MAX_CROP_PIXELS, planCrops } from "../../src/pipeline/crop-plan";
import type { Box, TextRegion } from "../../src/pipeline/types";

const region = (id: number, box: Box): TextRegion => ({ id, text: `r${id}`, box, vertical: false });
const area = (b: Box) => (b.x1 - b.x0) * (b.y1 - b.y0);
/** Crop pixels a pass holds once row `y` is in: each crop begun and not finished, its rows so far. */
const heldAt = (pass: { box: Box }[], y: number) =>
	pass
		.filter(({ box }) => box.y0 <= y && y < box.y1)
		.reduce((n, { box }) => n + (y + 1 - box.y0) * (box.x1 - box.x0), 0);
const contains = (outer: Box, inner: Box) =>
	outer.x0 <= inner.x0 && outer.y0 <= inner.y0 && outer.x1 >= inner.x1 && outer.y1 >= inner.y1;

describe("planCrops", () => {
	it("gives each region a crop around its box, with room around it, inside the image", () => {
		// Far enough apart that their search areas (four box sides around each) do not meet.
		const boxes = [
			{ x0: 100, y0: 100, x1: 300, y1: 200 },
			{ x0: 0, y0: 3900, x1: 200, y1: 4000 },
		];
		const { passes, left } = planCrops(
			boxes.map((b, i) => region(i, b)),
			4000,
			4000,
		);
		expect(left).toEqual([]);
		const crops = passes.flat();
		expect(crops).toHaveLength(2);
		for (const [i, b] of boxes.entries()) {
			const crop = crops.find((c) => c.regionIds.includes(i))!;
			expect(contains(crop.box, b)).toBe(true);
			expect(area(crop.box)).toBeGreaterThan(area(b));
			expect(contains({ x0: 0, y0: 0, x1: 4000, y1: 4000 }, crop.box)).toBe(true);
		}
	});

	it("puts regions whose surroundings meet in one crop (two regions of one balloon)", () => {
		const { passes } = planCrops(
			[region(0, { x0: 100, y0: 100, x1: 200, y1: 140 }), region(1, { x0: 100, y0: 150, x1: 200, y1: 190 })],
			1000,
			1000,
		);
		expect(passes.flat().map((c) => c.regionIds)).toEqual([[0, 1]]);
	});

	it("cuts a page-sized box into overlapping tiles, each within MAX_CROP_PIXELS, together covering it", () => {
		const { passes, left } = planCrops([region(0, { x0: 0, y0: 0, x1: 5000, y1: 5000 })], 5000, 5000);
		expect(left).toEqual([]);
		const tiles = passes.flat();
		expect(tiles.length).toBeGreaterThan(1);
		for (const tile of tiles) {
			expect(area(tile.box)).toBeLessThanOrEqual(MAX_CROP_PIXELS);
			expect(tile.regionIds).toEqual([0]);
		}
		for (const [x, y] of [
			[0, 0],
			[4999, 4999],
			[2500, 1234],
		] as const) {
			expect(tiles.some((t) => t.box.x0 <= x && x < t.box.x1 && t.box.y0 <= y && y < t.box.y1)).toBe(true);
		}
	});

	it("leaves out a region whose tiles no longer fit the call's crop area", () => {
		const page = { x0: 0, y0: 0, x1: 4000, y1: 4000 };
		const { passes, left } = planCrops([region(0, page), region(1, page)], 4000, 4000);
		expect(passes.flat().every((t) => t.regionIds[0] === 0)).toBe(true);
		expect(left).toEqual([1]);
	});

	it("does not join crops beyond the cap: two large neighbours stay apart", () => {
		const side = Math.floor(Math.sqrt(MAX_CROP_PIXELS) * 0.8);
		const { passes } = planCrops(
			[region(0, { x0: 0, y0: 0, x1: side, y1: side }), region(1, { x0: side - 10, y0: 0, x1: 2 * side, y1: side })],
			4000,
			4000,
		);
		const crops = passes.flat();
		expect(crops).toHaveLength(2);
		for (const crop of crops) expect(area(crop.box)).toBeLessThanOrEqual(MAX_CROP_PIXELS);
	});

	it("keeps the crop pixels held at once under the budget, with another pass when they do not fit", () => {
		// Six capped crops side by side on one band of rows: they cannot all be collected together.
		const side = Math.floor(Math.sqrt(MAX_CROP_PIXELS));
		const regions = Array.from({ length: 6 }, (_, i) =>
			region(i, { x0: i * (side + 100), y0: 0, x1: i * (side + 100) + side - 200, y1: side - 200 }),
		);
		const { passes, left } = planCrops(regions, 6 * (side + 100), side + 100);
		expect(left).toEqual([]);
		expect(passes.length).toBeGreaterThan(1);
		expect(
			passes
				.flat()
				.flatMap((c) => c.regionIds)
				.sort(),
		).toEqual([0, 1, 2, 3, 4, 5]);
		for (const pass of passes) {
			for (let y = 0; y < side + 100; y++) expect(heldAt(pass, y)).toBeLessThanOrEqual(CROP_BUDGET_PIXELS);
		}
	});

	it("collects a column of balloons, each crop overlapping the next, in one pass: the image is decoded once", () => {
		// A 25 MP page with a caption every 415 rows down its left side (the bench's 25 MP pages): each
		// crop runs over the next two, so counted whole from their first rows three crops pass the
		// budget, but a crop holds only the rows already in.
		const regions = Array.from({ length: 12 }, (_, i) =>
			region(i, { x0: 110, y0: 40 + i * 415, x1: 110 + 120 + (i % 3) * 60, y1: 40 + i * 415 + 40 + (i % 2) * 30 }),
		);
		const { passes, left } = planCrops(regions, 5000, 5000);
		expect(left).toEqual([]);
		const crops = passes.flat();
		const wholeAt = (y: number) =>
			crops.filter((c) => c.box.y0 <= y && y < c.box.y1).reduce((n, c) => n + area(c.box), 0);
		expect(Math.max(...crops.map((c) => wholeAt(c.box.y1 - 1)))).toBeGreaterThan(CROP_BUDGET_PIXELS);
		expect(passes).toHaveLength(1);
		for (let y = 0; y < 5000; y++) expect(heldAt(crops, y)).toBeLessThanOrEqual(CROP_BUDGET_PIXELS);
	});

	it("collects crops that follow one another down the page in one pass", () => {
		const regions = Array.from({ length: 20 }, (_, i) =>
			region(i, { x0: 100, y0: i * 500, x1: 600, y1: i * 500 + 300 }),
		);
		expect(planCrops(regions, 1000, 10_000).passes).toHaveLength(1);
	});

	it("spends at most twice the image (and one crop) on crops: a flood of overlapping boxes leaves the rest out", () => {
		// 300 boxes, each a little larger than the last, none joinable with the others under the cap.
		const side = Math.floor(Math.sqrt(MAX_CROP_PIXELS));
		const regions = Array.from({ length: 300 }, (_, i) =>
			region(i, { x0: (i * 7) % 1000, y0: (i * 13) % 1000, x1: ((i * 7) % 1000) + side, y1: ((i * 13) % 1000) + side }),
		);
		const { passes, left } = planCrops(regions, 2000, 2000);
		const spent = passes.flat().reduce((n, c) => n + area(c.box), 0);
		expect(left.length).toBeGreaterThan(0);
		expect(spent).toBeLessThanOrEqual(2 * 2000 * 2000 + MAX_CROP_PIXELS);
		// Every region is in crops (several, when tiled) or left out, never both.
		const placed = new Set(passes.flat().flatMap((c) => c.regionIds));
		expect(left.filter((id) => placed.has(id))).toEqual([]);
		expect([...placed, ...left].sort((a, b) => a - b)).toEqual(regions.map((r) => r.id));
	});
});
