import { describe, expect, it } from "vitest";
import type { Box, TranslatedRegion } from "../../src/pipeline/types";
import { layOut } from "../support/lay-out";
import { Page, rough } from "./page";

/**
 * Lettering fitted tight to its balloon, the corner glyphs running into the outline, read with a box
 * moved off part of it: the glyphs at the outline are lettering wherever the box was.
 */

function lay(page: Page, box: Box) {
	const erased = page.copy();
	const region: TranslatedRegion = { id: 0, text: "HELLO THERE WORLD", box, vertical: false, translation: "Salut" };
	const { blocks } = layOut(erased, [region], "manga");
	return { blocks, erased };
}

describe("lettering touching its balloon's outline, read with a rough box", () => {
	it("erases as much from a box moved down off the first line as from an exact box", () => {
		const page = new Page(360, 260, [200, 206, 214, 255]);
		// The ellipse passes through the corner glyphs of the three lines.
		page.balloon(180, 130, 60, 52);
		const text = page.write(["HELLO", "THERE", "WORLD"], 137, 93, 3);
		const exact = lay(page, text.box);
		const moved = lay(page, rough.moved(text.box, 0.04, 0.3));
		expect(moved.blocks.map((b) => b.container)).toEqual(exact.blocks.map((b) => b.container));
		expect(page.lettersLeft(moved.erased)).toBe(page.lettersLeft(exact.erased));
		expect(page.artChanged(moved.erased)).toBe(0);
	});
});
