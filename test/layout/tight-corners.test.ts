import { describe, expect, it } from "vitest";
import type { Box, Raster, TranslatedRegion } from "../../src/pipeline/types";
import { layOut } from "../support/lay-out";
import { Page, rough } from "./page";

/**
 * Lettering fitted so tight to a small panel on art that the glyphs of its first column lie against
 * the left border, as in the corpus's manga-tight-ko (the "ㅁ" of "만" against it, "내" in the top
 * corner): an "O" whose counter lies a heavy stroke away from the panel's paper, an "H" whose stems
 * meet the top and left borders. A box cut short and moved left, as wide as the panel is high,
 * found the panel too small beside it for a drawn outline, so its straight sides were never read;
 * the "O", its counter taken for the world beyond, stayed as border, and so did the "H"'s corner.
 */

/** The border's width, px; it runs a pixel over the lettering's edge on every side. */
const BORDER = 3;

function tightPanel() {
	const page = new Page(300, 220).grain({ x0: 0, y0: 0, x1: 300, y1: 220 }, 3);
	const lines = ["HEL", "O"];
	const { box } = page.write(lines, 110, 70, 5);
	const border = grown(box, BORDER - 1);
	page.panel(border, [255, 255, 255, 255], BORDER);
	page.write(lines, 110, 70, 5);
	return { page, box, border };
}

function grown(b: Box, by: number): Box {
	return { x0: b.x0 - by, y0: b.y0 - by, x1: b.x1 + by, y1: b.y1 + by };
}

/** Pixels of the border (as the plate has it) that erasure changed: notches cut into it. */
function borderCut(page: Page, erased: Raster, border: Box): number {
	let cut = 0;
	for (let y = border.y0; y < border.y1; y++) {
		for (let x = border.x0; x < border.x1; x++) {
			const ring =
				x < border.x0 + BORDER || y < border.y0 + BORDER || x >= border.x1 - BORDER || y >= border.y1 - BORDER;
			const i = (y * page.width + x) * 4;
			if (ring && Math.abs(erased.data[i]! - page.plate.data[i]!) > 60) cut++;
		}
	}
	return cut;
}

describe("lettering fitted tight to a small panel on art", () => {
	it("is erased whole from a box cut to its bottom 80% and moved left, the border kept whole", () => {
		const { page, box, border } = tightPanel();
		const erased = page.copy();
		const read = rough.moved(rough.cut(box, "bottom", 0.8), -0.1, 0);
		const region: TranslatedRegion = { id: 0, text: "HEL O", box: read, vertical: false, translation: "Salut" };
		const { blocks } = layOut(erased, [region], "manga");
		expect(blocks).toHaveLength(1);
		expect(blocks[0]!.container?.kind).toBe("panel");
		// On main, the "O" and the "H"'s corner stayed as border: 306 px of lettering left.
		expect(page.lettersLeft(erased)).toBe(0);
		expect(borderCut(page, erased, border)).toBe(0);
	});
});
