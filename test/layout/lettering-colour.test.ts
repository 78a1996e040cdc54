import { describe, expect, it } from "vitest";
import type { TranslatedRegion } from "../../src/pipeline/types";
import { layOut } from "../support/lay-out";
import { Page } from "./page";

/**
 * The translation is drawn in the colour the source was lettered in. Thin anti-aliased strokes are
 * mostly partly covered pixels, the paper showing through: they are not the lettering's colour.
 */

const NAVY: [number, number, number, number] = [20, 30, 90, 255];

function colourOf(page: Page, box: { x0: number; y0: number; x1: number; y1: number }) {
	const region: TranslatedRegion = { id: 0, text: "HELLO THERE", box, vertical: false, translation: "Salut" };
	const { blocks } = layOut(page.copy(), [region], "manga");
	expect(blocks).toHaveLength(1);
	return blocks[0]!.textColor;
}

describe("the colour of thin lettering", () => {
	it.each([
		["with room around it in its panel", 6],
		["touching its panel's border", 0],
	])("is the ink's, not the grey of its anti-aliased strokes, %s", (_, margin) => {
		const page = new Page(300, 200, [200, 206, 214, 255]);
		const at = { x: 100, y: 80 };
		// Two lines at scale 2, placed half a pixel off: a third of each stroke's pixels fully inked.
		const text = page.write(["HELLO", "THERE"], at.x, at.y, 2, { antialiased: true, colour: NAVY });
		const inner = {
			x0: text.box.x0 - margin,
			y0: text.box.y0 - margin,
			x1: text.box.x1 + 1 + margin,
			y1: text.box.y1 + 1 + margin,
		};
		page.panel({ x0: inner.x0 - 3, y0: inner.y0 - 3, x1: inner.x1 + 3, y1: inner.y1 + 3 }, [255, 255, 255, 255], 3);
		page.write(["HELLO", "THERE"], at.x, at.y, 2, { antialiased: true, colour: NAVY });
		const colour = colourOf(page, text.box);
		for (let c = 0; c < 3; c++) expect(Math.abs(colour[c]! - NAVY[c]!)).toBeLessThanOrEqual(12);
	});
});
