import { describe, expect, it } from "vitest";
import type { Box, TranslatedRegion } from "../../src/pipeline/types";
import { layOut } from "../support/lay-out";
import { Page } from "./page";

/**
 * A balloon fitted tight to its lettering, on art that is no one colour (grain, a photo's noise),
 * read with a box that runs past the balloon onto the art: the box's background measures as
 * texture, yet the white shape holding the lettering is its container, never a glyph to erase.
 * And the converse: lettering of one flat colour with counters, straight on a gradient or on grain,
 * is lettering, not a row of balloons.
 */

function lay(page: Page, text: string, box: Box) {
	const erased = page.copy();
	const region: TranslatedRegion = { id: 0, text, box, vertical: false, translation: "Salut" };
	const { blocks } = layOut(erased, [region], "manga");
	return { blocks, erased };
}

/**
 * "HELLO WORLD" in a flat balloon on grain, its outline through the corner glyphs of the line:
 * the lettering cuts the balloon's white in pieces from outline to outline.
 */
function tightBalloonOnGrain() {
	const page = new Page(420, 160).grain({ x0: 0, y0: 0, x1: 420, y1: 160 });
	const line = ["HELLO WORLD"];
	const { box } = page.write(line, 40, 60, 3);
	const [cx, cy, rx, ry] = [
		(box.x0 + box.x1) / 2,
		(box.y0 + box.y1) / 2,
		0.62 * (box.x1 - box.x0),
		0.72 * (box.y1 - box.y0),
	];
	page.balloon(cx, cy, rx, ry, 2);
	page.write(line, 40, 60, 3);
	const balloon = { x0: Math.floor(cx - rx), y0: Math.floor(cy - ry), x1: Math.ceil(cx + rx), y1: Math.ceil(cy + ry) };
	return { page, balloon };
}

describe("a balloon on textured art, read with a box running past it", () => {
	it("keeps the balloon and erases its lettering from a box 30% wider than it, run onto the art", () => {
		const { page, balloon } = tightBalloonOnGrain();
		const wider = Math.round(0.3 * (balloon.x1 - balloon.x0));
		const box = { x0: balloon.x0 - 4, y0: balloon.y0 - 3, x1: balloon.x1 + wider, y1: balloon.y1 + 3 };
		const { blocks, erased } = lay(page, "HELLO WORLD", box);
		expect(page.artChanged(erased)).toBe(0);
		expect(blocks).toHaveLength(1);
		expect(blocks[0]!.container.kind).toBe("balloon");
		// Glyph pixels under the outline (where it runs through the corner glyphs) stay, as with a box
		// around the balloon alone.
		const exact = lay(page, "HELLO WORLD", balloon);
		expect(page.lettersLeft(erased)).toBeLessThanOrEqual(page.lettersLeft(exact.erased));
		expect(page.lettersLeft(erased)).toBeLessThan(0.1 * page.lettersLeft(page.copy()));
	});
});

describe("lettering of one flat colour on art, read with an exact box and no lines", () => {
	// White letters with counters, all as tall as the line: each a white shape ending in the art all
	// round, holding a piece of it, and side by side they span the line as a balloon's pieces would.
	// Taken for a balloon, the art in their counters would be erased and the letters left.
	it("erases all of it on a gradient", () => {
		const page = new Page(420, 160).gradient({ x0: 0, y0: 0, x1: 420, y1: 160 }, 120, 40);
		const { box } = page.write(["bOd dOb"], 40, 60, 4, { colour: [250, 250, 250, 255] });
		const { erased } = lay(page, "bOd dOb", { x0: box.x0 - 3, y0: box.y0 - 3, x1: box.x1 + 3, y1: box.y1 + 3 });
		expect(page.lettersLeft(erased)).toBe(0);
		expect(page.artChanged(erased)).toBe(0);
	});
});
