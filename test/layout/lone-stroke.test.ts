import { describe, expect, it } from "vitest";
import type { Box, TranslatedRegion } from "../../src/pipeline/types";
import { layOut } from "../support/lay-out";
import { Page, rough } from "./page";

/**
 * A glyph of one stroke (an alef, an "l") ending a line against a tight panel's border, as in the
 * corpus's flat-tight-arabic: it joins no other glyph, so nothing tells it from the border a pixel
 * wider but its width: a whole stroke beyond the border's, and it is longer than wide.
 */
function alefAgainstBorder() {
	const page = new Page(360, 260, [233, 234, 230, 255]);
	const lines = ["HELLO", "WORLD"];
	const scale = 4;
	const { box: text } = page.write(lines, 120, 100, scale);
	// The bar, as the corpus's alef: a stroke and its anti-aliased rim wide, most of a line high, a
	// stroke's gap after the last letter.
	const bar = { x0: text.x1 + scale, y0: text.y0 + 2, x1: text.x1 + 2 * scale + 1, y1: text.y0 + 7 * scale };
	const box = { ...text, x1: bar.x1 };
	// The border runs over the text's edge, as a letterer fits a panel to it, and against the bar.
	page.panel({ x0: box.x0 - 2, y0: box.y0 - 2, x1: box.x1 + 3, y1: box.y1 + 2 }, [255, 255, 255, 255], 3);
	page.write(lines, 120, 100, scale);
	for (let y = bar.y0; y < bar.y1; y++) {
		for (let x = bar.x0; x < bar.x1; x++) {
			page.raster.data.set([20, 20, 20, 255], (y * page.width + x) * 4);
			page.lettering[y * page.width + x] = 1;
		}
	}
	return { page, box, bar };
}

function lay(page: Page, box: Box) {
	const erased = page.copy();
	const region: TranslatedRegion = { id: 0, text: "HELLO WORLD", box, vertical: false, translation: "Salut" };
	layOut(erased, [region], "manga");
	return erased;
}

describe("a glyph of one stroke against a tight panel's border", () => {
	it.each([
		["an exact box", (box: Box) => box],
		["a box cut to its left 70%", (box: Box) => rough.cut(box, "left", 0.7)],
	])("is erased from %s, the border kept", (_, read) => {
		const { page, box, bar } = alefAgainstBorder();
		const erased = lay(page, read(box));
		// The stroke's column against the border is left to it, as everywhere a stroke meets it (the
		// border's width is read a pixel apart there); on main the whole stroke stayed as border.
		expect(page.lettersLeft(erased, { ...bar, x1: bar.x1 - 1 })).toBe(0);
		expect(page.artChanged(erased)).toBe(0);
	});
});
