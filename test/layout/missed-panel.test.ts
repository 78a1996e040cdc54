import { describe, expect, it } from "vitest";
import type { Box, TranslatedRegion } from "../../src/pipeline/types";
import { layOut } from "../support/lay-out";
import { Page } from "./page";

/**
 * A tight panel (its lettering fitted to its border) that the reader's box misses by a few pixels,
 * as a box cut from one merged over two balloons does: the box holds no container and no lettering,
 * yet the panel beside it is found, its lettering erased and the translation set in it, not a slab
 * over the art and the panel. A panel another region's box lies nearer stays that region's.
 */

type Colour = [number, number, number, number];
const ART: Colour = [128, 128, 128, 255];
const LIGHT_PAGE: Colour = [246, 246, 242, 255];
const WHITE: Colour = [255, 255, 255, 255];
const LINES = ["HELLO", "THERE", "WORLD"];
const TEXT = LINES.join(" ");

/** Three lines at scale 3 (87 × 75 px) fitted into a white panel at (x, y), on art or a light page. */
function tightPanel(onArt: boolean, x = 137, y = 93) {
	const page = new Page(480, 280, onArt ? ART : LIGHT_PAGE);
	if (onArt) page.grain({ x0: 0, y0: 0, x1: 480, y1: 280 }, 3);
	page.panel({ x0: x - 3, y0: y - 3, x1: x + 87 + 3, y1: y + 75 + 3 }, WHITE, 3);
	return { page, box: page.write(LINES, x, y, 3).box };
}

const region = (id: number, box: Box, text = TEXT): TranslatedRegion => ({
	id,
	text,
	box,
	vertical: false,
	translation: `Bonjour ${id}`,
});

/** The box a reader gives beside the panel: its size, `gap` px past the panel's right border. */
const besideRight = (box: Box, gap: number): Box => ({
	x0: box.x1 + 3 + gap,
	y0: box.y0 - 6,
	x1: box.x1 + 3 + gap + (box.x1 - box.x0),
	y1: box.y1 + 6,
});

function expectFoundAsExact(page: Page, exactBox: Box, missing: Box) {
	const exact = page.copy();
	layOut(exact, [region(0, exactBox)], "manga");
	const erased = page.copy();
	const { blocks } = layOut(erased, [region(0, missing)], "manga");
	expect(blocks.map((b) => b.treatment)).toEqual(["replace"]);
	expect(blocks[0]!.container.kind).toBe("panel");
	expect(page.lettersLeft(erased)).toBeLessThanOrEqual(page.lettersLeft(exact));
	expect(page.artChanged(erased)).toBeLessThanOrEqual(page.artChanged(exact));
}

describe("a tight panel the reader's box misses", () => {
	it("is found, erased and kept from a box 6 px beside it on art", () => {
		const { page, box } = tightPanel(true);
		expectFoundAsExact(page, box, besideRight(box, 6));
	});

	it("is found, erased and kept from a box 6 px beside it on a light page", () => {
		const { page, box } = tightPanel(false);
		expectFoundAsExact(page, box, besideRight(box, 6));
	});

	it("stays the region's whose box lies nearer it, the other box given no part of it", () => {
		const { page, box } = tightPanel(true);
		const erased = page.copy();
		// The panel's own region, its box 2 px to its left; another region's 8 px to its right, over art.
		const own = { x0: box.x0 - 3 - 2 - 80, y0: box.y0 - 6, x1: box.x0 - 3 - 2, y1: box.y1 + 6 };
		const other = besideRight(box, 8);
		const { blocks } = layOut(erased, [region(0, other, "WAIT"), region(1, own)], "manga");
		const inPanel = blocks.filter((b) => b.container.kind === "panel");
		expect(inPanel.map((b) => b.regionIds)).toEqual([[1]]);
		expect(inPanel[0]!.translation).toBe("Bonjour 1");
		expect(page.lettersLeft(erased)).toBe(0);
	});
});
