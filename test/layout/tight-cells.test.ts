import { describe, expect, it } from "vitest";
import type { TranslatedRegion } from "../../src/pipeline/types";
import { layOut } from "../support/lay-out";
import { Page, rough } from "./page";

/**
 * A line fitted so tight to a panel on art that the glyphs' stems run from its top border to its
 * bottom one, as in the corpus's manga-tight-ko ("이건 비밀이야"): they cut the panel's paper into a
 * piece per glyph. A box cut short to the end of the line, the line's own box given whole, found only
 * the pieces in the box; none of them had room round its lettering, no panel was found, and the
 * lettering was looked for by its colour on the art: the panel's paper, border and all, painted over.
 */

/** The border's width, px; it runs a pixel over the lettering's edge on every side. */
const BORDER = 3;

describe("a line fitted tight to a panel, its stems cutting the paper in pieces", () => {
	it("is found in the whole panel from a box cut to the line's end, the line's box given", () => {
		const page = new Page(360, 200).grain({ x0: 0, y0: 0, x1: 360, y1: 200 }, 5);
		const lines = ["HEHEH"];
		const { box } = page.write(lines, 100, 80, 5);
		const border = {
			x0: box.x0 - BORDER + 1,
			y0: box.y0 - BORDER + 1,
			x1: box.x1 + BORDER - 1,
			y1: box.y1 + BORDER - 1,
		};
		page.panel(border, [255, 255, 255, 255], BORDER);
		page.write(lines, 100, 80, 5);
		const erased = page.copy();
		const region: TranslatedRegion = {
			id: 0,
			text: "HEHEH",
			box: rough.cut(box, "right", 0.4),
			vertical: false,
			translation: "Salut",
			lines: [{ text: "HEHEH", box }],
		};
		const { blocks } = layOut(erased, [region], "manga");
		expect(blocks).toHaveLength(1);
		expect(blocks[0]!.container?.kind).toBe("panel");
		// The paper from inside the first glyph to inside the last (their outer stems lie on the border).
		expect(blocks[0]!.container?.box.x0).toBeLessThan(box.x0 + 10);
		expect(blocks[0]!.container?.box.x1).toBeGreaterThan(box.x1 - 10);
		// Nothing painted over: on main the panel, border and paper, was taken for lettering on the art.
		expect(page.artChanged(erased)).toBe(0);
		// All the glyphs but the two outer stems: a stem along a whole side stays with the border (the
		// paper reaches that side nowhere, so where the border's inside edge runs is not read there).
		const inner = { x0: box.x0 + 5, y0: box.y0, x1: box.x1 - 5, y1: box.y1 };
		expect(page.lettersLeft(erased, inner)).toBe(0);
	});
});
