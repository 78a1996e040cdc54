import { describe, expect, it } from "vitest";
import { eraseBlocks, pasteErased } from "../../src/pipeline/erase";
import {
	cropsFor,
	layoutCrop,
	MAX_REGIONS,
	MAX_SEARCH_PIXELS,
	planLayout,
	searchArea,
} from "../../src/pipeline/layout";
import { layoutAndErase } from "../../src/pipeline/layout-raster";
import { area, cutPatch, wholePatch } from "../../src/pipeline/patch";
import type { Box, TranslatedRegion } from "../../src/pipeline/types";
import { Page } from "./page";

/** Model answers never size the work: each region's search is capped, and so are regions per call. */

const region = (id: number, box: Box, text = "HELLO"): TranslatedRegion => ({
	id,
	text,
	box,
	vertical: false,
	translation: "Bonjour",
});

describe("how far layout looks for a region's lettering", () => {
	it("reaches four times the box's longer side beyond it, within the image", () => {
		const image = { width: 4000, height: 3000 };
		expect(searchArea({ x0: 1000, y0: 1000, x1: 1060, y1: 1030 }, image)).toEqual({
			x0: 760,
			y0: 760,
			x1: 1300,
			y1: 1270,
		});
		expect(searchArea({ x0: 0, y0: 0, x1: 60, y1: 30 }, image)).toEqual({ x0: 0, y0: 0, x1: 300, y1: 270 });
	});

	it("never looks at more than MAX_SEARCH_PIXELS for one region, however large its box", () => {
		const image = { width: 5000, height: 5000 };
		for (const box of [
			{ x0: 2000, y0: 2000, x1: 2400, y1: 2300 },
			{ x0: 100, y0: 100, x1: 4900, y1: 150 },
			{ x0: 0, y0: 0, x1: 5000, y1: 5000 },
		]) {
			const search = searchArea(box, image);
			expect(area(search)).toBeLessThanOrEqual(Math.max(MAX_SEARCH_PIXELS, area(box)));
		}
	});

	it("covers a page-sized box with a panel without reading its pixels", () => {
		// The box holds 1.1 MP, over the cap: no lettering is looked for, nothing is erased.
		const page = new Page(1100, 1000);
		page.write(["HELLO"], 500, 450, 6);
		const erased = page.copy();
		const { blocks } = layoutAndErase(erased, [region(0, { x0: 0, y0: 0, x1: 1100, y1: 1000 })], "manga");
		expect(blocks.map((b) => [b.treatment, b.textBox])).toEqual([["cover", { x0: 0, y0: 0, x1: 1100, y1: 1000 }]]);
		expect(bytesChanged(erased.data, page.raster.data)).toBe(0);
	});

	it("lays out at most MAX_REGIONS regions a call, in reading order, and says which it left", () => {
		const regions = Array.from({ length: MAX_REGIONS + 5 }, (_, id) => region(id, { x0: 10, y0: 10, x1: 40, y1: 20 }));
		const plan = planLayout(regions, { width: 100, height: 100 });
		expect(plan.regions.map((r) => r.id)).toEqual(regions.slice(0, MAX_REGIONS).map((r) => r.id));
		expect(plan.dropped).toEqual([400, 401, 402, 403, 404]);
	});

	it("searches all of a call's regions over a few times the image at most, then only around their boxes", () => {
		// Overlapping boxes by the hundred: the page's budget runs out, the rest are searched narrowly.
		const image = { width: 1000, height: 1000 };
		const regions = Array.from({ length: 300 }, (_, id) => region(id, { x0: 400, y0: 400, x1: 500, y1: 500 }));
		const plan = planLayout(regions, image);
		const searched = [...plan.areas.values()].reduce((sum, b) => sum + area(b), 0);
		expect(searched).toBeLessThanOrEqual(3 * 1000 * 1000 + MAX_SEARCH_PIXELS + 300 * 160 * 160);
	});
});

describe("layout works on crops, never the whole raster", () => {
	function twoBalloons() {
		const page = new Page(640, 240).hatch({ x0: 0, y0: 0, x1: 640, y1: 240 }, 9, 1);
		page.balloon(140, 120, 110, 80).balloon(500, 120, 110, 80);
		const left = page.write(["HELLO", "THERE"], 97, 94, 3);
		const right = page.write(["WHY", "NOT"], 475, 94, 3);
		return { page, regions: [region(0, left.box, "HELLO THERE"), region(1, right.box, "WHY NOT")] };
	}

	it("finds and erases in a crop of one region's search area what it finds in the whole image", () => {
		const { page, regions } = twoBalloons();
		const whole = page.copy();
		const { blocks } = layoutAndErase(whole, regions, "manga");

		const plan = planLayout(regions, page.raster);
		const image = page.copy();
		const crop = cutPatch(wholePatch(image), plan.areas.get(1)!);
		const laid = layoutCrop(crop, [regions[1]!], plan);
		for (const erased of eraseBlocks(crop, laid)) pasteErased(wholePatch(image), erased);

		expect(laid.map((l) => l.block.container)).toEqual([blocks[1]!.container]);
		expect(laid.map((l) => l.block.textBox)).toEqual([blocks[1]!.textBox]);
		// The right balloon is erased as on the whole image; the left one, in no crop, is untouched.
		expect(page.lettersLeft(image, blocks[1]!.container.box)).toBe(0);
		expect(page.lettersLeft(image, blocks[0]!.container.box)).toBe(
			page.lettersLeft(page.raster, blocks[0]!.container.box),
		);
	});

	it("groups regions whose search areas meet into one crop, within the crop cap", () => {
		const { regions } = twoBalloons();
		const plan = planLayout(regions, { width: 640, height: 240 });
		const crops = cropsFor(plan);
		for (const crop of crops) {
			for (const r of crop.regions) {
				const search = plan.areas.get(r.id)!;
				expect(search.x0 >= crop.box.x0 && search.x1 <= crop.box.x1).toBe(true);
			}
		}
		expect(crops.flatMap((c) => c.regions.map((r) => r.id)).sort()).toEqual([0, 1]);
	});

	it("inpaints nothing in light-novel mode: every pixel stays as decoded", () => {
		const { page, regions } = twoBalloons();
		const image = page.copy();
		const { blocks } = layoutAndErase(image, regions, "light-novel");
		expect(blocks).toHaveLength(2);
		expect(bytesChanged(image.data, page.raster.data)).toBe(0);
	});
});

function bytesChanged(a: Uint8Array, b: Uint8Array): number {
	let changed = 0;
	for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) changed++;
	return changed;
}
