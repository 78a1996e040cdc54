import { describe, expect, it } from "vitest";
import type { TranslatedRegion } from "../../src/pipeline/types";
import { layOut } from "../support/lay-out";
import { Page, rough } from "./page";

/**
 * Dark lettering on a photo, read with a box cut short: the rest of the lettering lies in the box's
 * margin, where its colour is as common as inside the box. It is still the lettering's colour, found
 * and erased whole, not a colour of the photo taken for ink, nor the block covered with lettering
 * left beside the panel.
 */

describe("lettering on texture read with a box cut short", () => {
	for (const keep of ["bottom", "top", "right"] as const) {
		it(`erases all of it from a box keeping its ${keep} part`, () => {
			const page = new Page(320, 200).photo({ x0: 0, y0: 0, x1: 320, y1: 200 }, 2);
			const text = page.write(["HELLO", "WORLD"], 100, 60, 4);
			const region: TranslatedRegion = {
				id: 0,
				text: "HELLO WORLD",
				box: rough.cut(text.box, keep, 0.55),
				vertical: false,
				translation: "Bonjour",
			};
			const erased = page.copy();
			const { blocks } = layOut(erased, [region], "manga");
			expect(blocks.map((b) => b.treatment)).toEqual(["replace"]);
			expect(page.lettersLeft(erased)).toBe(0);
			expect(page.artChanged(erased)).toBe(0);
		});
	}
});
