import { describe, expect, it } from "vitest";
import type { Box, TranslatedRegion } from "../../src/pipeline/types";
import { layOut } from "../support/lay-out";
import { Page, rough as roughBox } from "./page";

const scaled = roughBox.scaled;

/**
 * A balloon fitted tight to its lettering on textured art, read with a box that runs past it onto
 * the art: the box measures as texture, yet the white shape holding dark lettering is the balloon,
 * neither a glyph to erase nor a hole in the art.
 */

function lay(page: Page, box: Box) {
	const erased = page.copy();
	const region: TranslatedRegion = { id: 0, text: "HELLO THERE", box, vertical: false, translation: "Salut" };
	const { blocks } = layOut(erased, [region], "manga");
	return { blocks, erased };
}

/** Two lines of heavy glyphs (bold kanji) in a panel-shaped balloon on grain, touching its outline on every side but the top. */
function tightBalloonOnGrain() {
	const page = new Page(360, 160).grain({ x0: 0, y0: 0, x1: 360, y1: 160 }, 7);
	const lettering = { x0: 120, y0: 60, x1: 120 + 5 * 18 - 3, y1: 60 + 9 * 3 + 21 };
	const balloon = { x0: lettering.x0 - 2, y0: lettering.y0 - 4, x1: lettering.x1 + 2, y1: lettering.y1 + 2 };
	page.panel(balloon);
	page.write(["HE■LO", "T■ERE"], lettering.x0, lettering.y0, 3);
	return { page, balloon };
}

describe("a tight balloon on textured art, read with a box running past it", () => {
	it("keeps the balloon and erases its lettering as an exact box does, from a box 30% wider", () => {
		const { page, balloon } = tightBalloonOnGrain();
		const rough = lay(page, scaled(balloon, 1.3));
		const exact = lay(page, balloon);
		expect(page.artChanged(rough.erased)).toBe(0);
		expect(rough.blocks.map((b) => b.treatment)).toEqual(["replace"]);
		expect(rough.blocks[0]!.container).toEqual(exact.blocks[0]!.container);
		expect(page.lettersLeft(rough.erased)).toBe(page.lettersLeft(exact.erased));
	});
});
