import { describe, expect, it } from "vitest";
import { fillHoles, without } from "../../src/pipeline/layout/masks";
import { edgesCovered } from "../../src/pipeline/layout/plausible";
import { wholePatch } from "../../src/pipeline/patch";
import { JpegEncoder } from "../../src/pipeline/pixels/jpeg-encode";
import type { Raster, TranslatedRegion } from "../../src/pipeline/types";
import { decodeFile } from "../support/decode";
import { layOut } from "../support/lay-out";
import { Page, rough } from "./page";

/**
 * Free lettering in a saturated colour on a photo out of focus, as a shop's banner or a poster
 * photographed: anti-aliased edges and JPEG's noise spread the lettering's colour over many
 * shades, while the photo's own colours drift across the reader's box. The lettering must be found
 * by its colour and erased, and the translation set in that colour: never printed over it. Where
 * glyphs found are not the lettering (another colour's, inside it), the block is covered instead.
 */

const YELLOW: [number, number, number, number] = [240, 222, 40, 255];

/** The raster as a camera would hand it over: JPEG at quality 88, colour at half resolution. */
function throughJpeg(raster: Raster): Raster {
	const encoder = new JpegEncoder(raster.width, raster.height, 88);
	const row = new Uint8Array(raster.width * 3);
	for (let y = 0; y < raster.height; y++) {
		for (let x = 0; x < raster.width; x++)
			for (let c = 0; c < 3; c++) row[x * 3 + c] = raster.data[(y * raster.width + x) * 4 + c]!;
		encoder.addRow(row);
	}
	return decodeFile(encoder.finish());
}

/** Pixels of the lettering still yellow: far more red and green than blue, as no colour of the photo is. */
function yellowLeft(page: Page, erased: Raster): number {
	let left = 0;
	for (let i = 0; i < page.width * page.height; i++) {
		const [r, g, b] = [erased.data[i * 4]!, erased.data[i * 4 + 1]!, erased.data[i * 4 + 2]!];
		if (page.lettering[i] && r > 150 && g > 150 && b < 110) left++;
	}
	return left;
}

describe("free lettering on a photo", () => {
	for (const seed of [1, 2, 3]) {
		it(`erases yellow lettering on drifting greens and blues through JPEG, and sets the translation in yellow (photo ${seed})`, () => {
			const page = new Page(420, 220).photo({ x0: 0, y0: 0, x1: 420, y1: 220 }, seed);
			const text = page.write(["SALE ON", "NOW"], 100, 60, 4, { colour: YELLOW, antialiased: true });
			const photo = throughJpeg(page.raster);
			const region: TranslatedRegion = {
				id: 0,
				text: "SALE ON NOW",
				box: { x0: text.box.x0 - 3, y0: text.box.y0 - 3, x1: text.box.x1 + 4, y1: text.box.y1 + 4 },
				vertical: false,
				translation: "Soldes",
			};
			expect(yellowLeft(page, photo)).toBeGreaterThan(500);
			const { blocks } = layOut(photo, [region], "general");
			expect(blocks.map((b) => b.treatment)).toEqual(["replace"]);
			expect(yellowLeft(page, photo)).toBe(0);
			const [r, g, b] = blocks[0]!.textColor;
			expect(r).toBeGreaterThan(200);
			expect(g).toBeGreaterThan(190);
			expect(b).toBeLessThan(90);
		});
	}
});

describe("free lettering on a photo read with a box cut short", () => {
	for (const [keep, share] of [
		["left", 0.35],
		["right", 0.4],
	] as const) {
		it(`finds and erases the whole line from a box holding the ${keep} ${share * 100}% of it`, () => {
			const page = new Page(480, 160).photo({ x0: 0, y0: 0, x1: 480, y1: 160 }, 2);
			// Words a third of a glyph apart, as a font spaces them.
			const first = page.write(["SALE"], 40, 60, 4, { colour: YELLOW, antialiased: true });
			const second = page.write(["ON"], first.box.x1 + 9, 60, 4, { colour: YELLOW, antialiased: true });
			const third = page.write(["NOW"], second.box.x1 + 9, 60, 4, { colour: YELLOW, antialiased: true });
			const photo = throughJpeg(page.raster);
			const line = { x0: first.box.x0 - 3, y0: first.box.y0 - 3, x1: third.box.x1 + 4, y1: third.box.y1 + 4 };
			const box = rough.cut(line, keep, share);
			const { blocks } = layOut(
				photo,
				[{ id: 0, text: "SALE ON NOW", box, vertical: false, translation: "Soldes" }],
				"general",
			);
			expect(blocks.map((b) => b.treatment)).toEqual(["replace"]);
			expect(yellowLeft(page, photo)).toBe(0);
		});
	}
});

describe("glyphs found on a photo that are not its lettering", () => {
	const page = new Page(420, 220).photo({ x0: 0, y0: 0, x1: 420, y1: 220 }, 1);
	const text = page.write(["SALE ON", "NOW"], 100, 60, 4, { colour: YELLOW, antialiased: true });
	const photo = wholePatch(throughJpeg(page.raster));
	const box = { x0: text.box.x0, y0: text.box.y0, x1: text.box.x1 + 1, y1: text.box.y1 + 1 };

	it("reach nearly all of the sharp edges among the glyphs when they are the lettering", () => {
		expect(edgesCovered(photo, page.lettering, box)).toBeGreaterThan(0.95);
	});

	it("reach under half of them when they are only the photo inside the glyphs' counters", () => {
		// What a texture's colour taken for the ink finds: the pockets of photo the strokes enclose.
		const counters = without(fillHoles(page.lettering.slice(), page.width, page.height), page.lettering);
		expect(counters.some((v) => v === 1)).toBe(true);
		expect(edgesCovered(photo, counters, box)).toBeLessThan(0.5);
	});
});
