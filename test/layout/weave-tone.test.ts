import { describe, expect, it } from "vitest";
import type { TranslatedRegion } from "../../src/pipeline/types";
import { layOut } from "../support/lay-out";
import { Page, rough } from "./page";

/**
 * Lettering on a weave of 4 px squares, as digital tone is drawn. The tone under the lettering is
 * restored from the tone a period away: a shift taken for a period that is off by a row (it matches
 * in the few rows of margin round the box, all at one phase of the squares) restores rows of squares
 * a pixel out of place, where the lettering was: lettering left under the translation.
 */

const TEXT = "SEE YOU";

/** Dark lettering in a light outline a pixel wide, as captions on tone are lettered. */
function outlinedOnWeave(top: number, scale: number) {
	const page = new Page(360, 140).weave({ x0: 0, y0: 0, x1: 360, y1: 140 });
	for (let dy = -1; dy <= 1; dy++)
		for (let dx = -1; dx <= 1; dx++) page.write([TEXT], 40 + dx, top + dy, scale, { colour: [250, 250, 250, 255] });
	const text = page.write([TEXT], 40, top, scale, { colour: [20, 20, 20, 255] });
	return { page, text };
}

describe("lettering on a weave", () => {
	it.each([
		[42, 4],
		[44, 4],
		[45, 3],
	])("set at row %i, %i px a cell, a box 1.15 times its size: the tone comes back in place", (top, scale) => {
		const { page, text } = outlinedOnWeave(top, scale);
		const erased = page.copy();
		const box = rough.scaled(text.box, 1.15);
		const region: TranslatedRegion = { id: 0, text: TEXT, box, vertical: false, translation: "Mata" };
		const { blocks } = layOut(erased, [region], "manga");
		expect(blocks.map((b) => b.treatment)).toEqual(["replace"]);
		expect(page.lettersLeft(erased)).toBeLessThan(10);
	});
});
