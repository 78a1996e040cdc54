import { describe, expect, it } from "vitest";
import { grow } from "../../src/pipeline/patch";
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

/** Three lines in a white panel on a grey page, the panel's border against the lettering on every side. */
function tightPanel() {
	const page = new Page(360, 260, [200, 206, 214, 255]);
	const lines = ["HELLO", "THERE", "WORLD"];
	const { box } = page.write(lines, 137, 93, 3);
	page.panel({ x0: box.x0 - 3, y0: box.y0 - 3, x1: box.x1 + 3, y1: box.y1 + 3 }, [255, 255, 255, 255], 3);
	page.write(lines, 137, 93, 3);
	return { page, box };
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

	// The glyphs against the border close pockets of the panel's paper, and counters within those
	// pockets: all of them are the panel's inside, wherever the box stopped short.
	it.each(["left", "right", "top", "bottom"] as const)(
		"erases all of a panel's lettering fitted tight to its border from a box kept to its %s 60%%",
		(side) => {
			const { page, box } = tightPanel();
			const { blocks, erased } = lay(page, rough.cut(box, side, 0.6));
			expect(blocks).toHaveLength(1);
			expect(page.lettersLeft(erased)).toBe(0);
			expect(page.artChanged(erased)).toBe(0);
		},
	);

	// An exact box holds the panel: its lettering is looked for from the box, on a patch reaching into
	// the grey page, which is ink against the panel's white. Measured against that page, the border
	// would seem as wide as the page, and the strokes lying along it would stay as border. The pixel
	// of a stroke next to the border is left to it (where the border's width is read a pixel apart,
	// taking that pixel would notch the border itself).
	it("erases a panel's lettering fitted tight to its border from an exact box, all but the pixel against the border", () => {
		const { page, box } = tightPanel();
		const { blocks, erased } = lay(page, box);
		expect(blocks).toHaveLength(1);
		expect(page.lettersLeft(erased, grow(box, -1))).toBe(0);
		expect(page.artChanged(erased)).toBe(0);
	});

	it("erases a stroke standing alone in a glyph's counter that the border closes (the dot in 的's 勺)", () => {
		const page = new Page(360, 260, [200, 206, 214, 255]);
		const lines = ["HELLO", "THERC", "WORLD"];
		const { box } = page.write(lines, 137, 93, 3);
		page.panel({ x0: box.x0 - 3, y0: box.y0 - 3, x1: box.x1 + 3, y1: box.y1 + 3 }, [255, 255, 255, 255], 3);
		page.write(lines, 137, 93, 3);
		// The "C" ends the second line against the border, a dot alone in its counter.
		page.write(["·"], 137 + 4 * 18, 93 + 27, 3);
		const { erased } = lay(page, rough.cut(box, "right", 0.7));
		expect(page.lettersLeft(erased)).toBe(0);
		expect(page.artChanged(erased)).toBe(0);
	});

	it("keeps light art around a balloon as drawn: its pockets by the outline are not the balloon's paper", () => {
		// Grain of 215 to 254: paler than ink, near the balloon's white, yet not its one flat colour.
		const page = new Page(360, 260).grain({ x0: 0, y0: 0, x1: 360, y1: 260 }, 3, 215, 40);
		page.balloon(180, 130, 60, 52, 2);
		const text = page.write(["HELLO", "THERE", "WORLD"], 137, 93, 3);
		const { erased } = lay(page, text.box);
		expect(page.artChanged(erased)).toBe(0);
	});
});
