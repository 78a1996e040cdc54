import { describe, expect, it } from "vitest";
import type { TranslatedRegion } from "../../src/pipeline/types";
import { layOut } from "../support/lay-out";
import { Page, rough } from "./page";

/**
 * Lettering of several lines on a photo, read with a box cut to one of them: the lettering found
 * from the box is that line, and the lines of the same ink and size running on across it are the
 * block's too. They are erased with it (or covered with it), never left beside the translation.
 */

describe("lettering on texture read with a box cut to one of its lines", () => {
	it("erases every line from a box keeping the top line", () => {
		// Bold lettering fills a third of its tight box: the photo round it is the background, not the ink.
		const page = new Page(320, 200).photo({ x0: 0, y0: 0, x1: 320, y1: 200 }, 2);
		const text = page.write(["HELLO", "WORLD"], 100, 60, 4);
		const region: TranslatedRegion = {
			id: 0,
			text: "HELLO WORLD",
			box: rough.cut(text.box, "top", 0.45),
			vertical: false,
			translation: "Bonjour",
		};
		const erased = page.copy();
		const { blocks } = layOut(erased, [region], "manga");
		expect(blocks.map((b) => b.treatment)).toEqual(["replace"]);
		expect(page.lettersLeft(erased)).toBe(0);
		expect(page.artChanged(erased)).toBe(0);
	});

	it("erases the line above across a wide leading, from a box keeping the bottom line", () => {
		const page = new Page(320, 220).photo({ x0: 0, y0: 0, x1: 320, y1: 220 }, 2);
		// Lines 20 px apart, three quarters of a glyph: farther than glyphs of one line are linked.
		const top = page.write(["HELLO"], 100, 60, 4);
		const bottom = page.write(["WORLD"], 100, top.box.y1 + 20, 4);
		const region: TranslatedRegion = {
			id: 0,
			text: "HELLO WORLD",
			box: bottom.box,
			vertical: false,
			translation: "Bonjour",
		};
		const erased = page.copy();
		const { blocks } = layOut(erased, [region], "manga");
		expect(blocks.map((b) => b.treatment)).toEqual(["replace"]);
		expect(page.lettersLeft(erased)).toBe(0);
		expect(page.artChanged(erased)).toBe(0);
	});

	it("erases every column from a box keeping the right column", () => {
		const page = new Page(240, 320).photo({ x0: 0, y0: 0, x1: 240, y1: 320 }, 3);
		const text = page.write(["HELLO", "WORLD"], 90, 60, 4, { vertical: true });
		const region: TranslatedRegion = {
			id: 0,
			text: "HELLO WORLD",
			box: rough.cut(text.box, "right", 0.45),
			vertical: true,
			translation: "Bonjour",
		};
		const erased = page.copy();
		const { blocks } = layOut(erased, [region], "manga");
		expect(blocks.map((b) => b.treatment)).toEqual(["replace"]);
		expect(page.lettersLeft(erased)).toBe(0);
		expect(page.artChanged(erased)).toBe(0);
	});
});
