import { describe, expect, it } from "vitest";
import type { Box, TranslatedRegion } from "../../src/pipeline/types";
import { layOut } from "../support/lay-out";
import { Page } from "./page";

/**
 * A panel whose lettering is fitted tight to it (the glyphs run into its border), read with a rough
 * box run far past it, onto the page or onto art. The box is a hint: the panel is found and erased
 * as from an exact box (its lettering, not its border), and no cover is painted.
 */

type Colour = [number, number, number, number];
/** A page near white: a flood of its colour takes the white panel's paper too. */
const LIGHT_PAGE: Colour = [246, 246, 242, 255];
const WHITE: Colour = [255, 255, 255, 255];
const LINES = ["HELLO", "THERE", "WORLD"];
/** Three lines at scale 3 (87 × 75 px) fill this inside to its border. */
const INNER: Box = { x0: 137, y0: 93, x1: 137 + 87, y1: 93 + 75 };

function tightPanel(page: Page) {
	page.panel({ x0: INNER.x0 - 3, y0: INNER.y0 - 3, x1: INNER.x1 + 3, y1: INNER.y1 + 3 }, WHITE, 3);
	return { page, box: page.write(LINES, INNER.x0, INNER.y0, 3).box };
}

function layOutRegion(page: Page, box: Box, lines?: TranslatedRegion["lines"]) {
	const erased = page.copy();
	const region: TranslatedRegion = {
		id: 0,
		text: LINES.join(" "),
		box,
		vertical: false,
		translation: "Bonjour tout le monde",
		...(lines ? { lines } : {}),
	};
	return { erased, blocks: layOut(erased, [region], "manga").blocks };
}

/** Erased as from an exact box: a block in the panel, no more lettering left, no more art changed. */
function expectAsExact(page: Page, box: Box, found: ReturnType<typeof layOutRegion>) {
	const exact = layOutRegion(page, box);
	expect(found.blocks.map((b) => b.treatment)).toEqual(["replace"]);
	expect(found.blocks[0]!.container.kind).not.toBe("free");
	expect(page.lettersLeft(found.erased)).toBeLessThanOrEqual(page.lettersLeft(exact.erased));
	expect(page.artChanged(found.erased)).toBeLessThanOrEqual(page.artChanged(exact.erased));
}

describe("a tight panel read with a rough box", () => {
	it("is found, erased whole and kept, from a box run far past it onto the page", () => {
		const { page, box } = tightPanel(new Page(420, 260, LIGHT_PAGE));
		const loose = { x0: box.x0 - 60, y0: box.y0 - 4, x1: box.x1 + 4, y1: box.y1 + 12 };
		expectAsExact(page, box, layOutRegion(page, loose, [{ text: LINES.join(" "), box: loose }]));
	});

	it("is found, erased whole and kept, on art, from a box seven times its size", () => {
		const page = new Page(420, 260, [128, 128, 128, 255]).grain({ x0: 0, y0: 0, x1: 420, y1: 260 }, 3);
		const { box } = tightPanel(page);
		const loose = { x0: box.x0 - 160, y0: box.y0 - 30, x1: box.x1 + 40, y1: box.y1 + 50 };
		expectAsExact(page, box, layOutRegion(page, loose));
	});
});
