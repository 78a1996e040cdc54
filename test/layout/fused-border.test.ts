import { describe, expect, it } from "vitest";
import type { Box, Raster, TranslatedRegion } from "../../src/pipeline/types";
import { layOut } from "../support/lay-out";
import { Page, rough } from "./page";

/**
 * Lettering fitted so tight to a panel that its border runs over the glyphs' edges, as in the
 * corpus's manga-tight samples: the stems of the "H" and the "W" lie along the left border for a
 * whole line's height, the "E"'s top bar along the top one, the "L"'s foot along the bottom one.
 * Where a stroke lies against the border, the band across reads as one wide border, and the part of
 * the stroke next to it stayed as border: a thick, bumpy border, bits of the lettering left in it.
 */

/** The border's width, px; it runs a pixel over the lettering's edge on every side. */
const BORDER = 3;

function fusedPanel() {
	const page = new Page(360, 260, [200, 206, 214, 255]);
	const lines = ["HELLO", "WORLD"];
	const { box } = page.write(lines, 120, 90, 4);
	const border = grown(box, BORDER - 1);
	page.panel(border, [255, 255, 255, 255], BORDER);
	page.write(lines, 120, 90, 4);
	return { page, box, border };
}

function grown(b: Box, by: number): Box {
	return { x0: b.x0 - by, y0: b.y0 - by, x1: b.x1 + by, y1: b.y1 + by };
}

/** Pixels of the border (as the plate has it) that erasure changed: notches cut into it. */
function borderCut(page: Page, erased: Raster, border: Box): number {
	let cut = 0;
	for (let y = border.y0; y < border.y1; y++) {
		for (let x = border.x0; x < border.x1; x++) {
			const ring =
				x < border.x0 + BORDER || y < border.y0 + BORDER || x >= border.x1 - BORDER || y >= border.y1 - BORDER;
			const i = (y * page.width + x) * 4;
			if (ring && Math.abs(erased.data[i]! - page.plate.data[i]!) > 60) cut++;
		}
	}
	return cut;
}

describe("lettering whose strokes lie against a tight panel's border", () => {
	it.each([
		["an exact box", (box: Box) => box],
		["a box kept to its top 60%", (box: Box) => rough.cut(box, "top", 0.6)],
		["a box kept to its bottom 60%", (box: Box) => rough.cut(box, "bottom", 0.6)],
	])("is erased whole from %s, the border kept whole", (_, read) => {
		const { page, box, border } = fusedPanel();
		const erased = page.copy();
		const region: TranslatedRegion = {
			id: 0,
			text: "HELLO WORLD",
			box: read(box),
			vertical: false,
			translation: "Salut",
		};
		const { blocks } = layOut(erased, [region], "manga");
		expect(blocks).toHaveLength(1);
		// On main, the side of each stroke against the border stayed: 141 px from the exact box, 261 from the others.
		expect(page.lettersLeft(erased)).toBe(0);
		expect(borderCut(page, erased, border)).toBe(0);
		expect(page.artChanged(erased)).toBe(0);
	});
});
