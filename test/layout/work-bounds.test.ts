import { describe, expect, it } from "vitest";
import { pasteErased } from "../../src/pipeline/compose";
import { eraseBlocks } from "../../src/pipeline/erase";
import { layoutCrop, MAX_SEARCH_PIXELS, searchArea } from "../../src/pipeline/layout";
import { area, cutPatch, wholePatch } from "../../src/pipeline/patch";
import type { Box, TranslatedRegion } from "../../src/pipeline/types";
import { layOut } from "../support/lay-out";
import { Page } from "./page";

/** Model answers never size the work: each region's search is capped (regions per call: run.ts, crop-plan.ts). */

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
		const { blocks } = layOut(whole, regions, "manga");

		const image = page.copy();
		const crop = cutPatch(wholePatch(image), searchArea(regions[1]!.box, image));
		const laid = layoutCrop(crop, [regions[1]!], image);
		for (const erased of eraseBlocks(crop, laid)) pasteErased({ ...image, top: 0 }, erased);

		expect(laid.map((l) => l.block.container)).toEqual([blocks[1]!.container]);
		expect(laid.map((l) => l.block.textBox)).toEqual([blocks[1]!.textBox]);
		// The right balloon is erased as on the whole image; the left one, in no crop, is untouched.
		expect(page.lettersLeft(image, blocks[1]!.container.box)).toBe(0);
		expect(page.lettersLeft(image, blocks[0]!.container.box)).toBe(
			page.lettersLeft(page.raster, blocks[0]!.container.box),
		);
	});

	it("inpaints nothing in light-novel mode: every pixel stays as decoded", () => {
		const { page, regions } = twoBalloons();
		const image = page.copy();
		const { blocks } = layOut(image, regions, "light-novel");
		expect(blocks).toHaveLength(2);
		expect(bytesChanged(image.data, page.raster.data)).toBe(0);
	});
});

function bytesChanged(a: Uint8Array, b: Uint8Array): number {
	let changed = 0;
	for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) changed++;
	return changed;
}
