import { describe, expect, it } from "vitest";
import type { TranslatedRegion } from "../../src/pipeline/types";
import { layOut } from "../support/lay-out";
import { Page, rough } from "./page";

/**
 * Lettering on a photo in two tones: a white fill and a black outline drawn round it. Read with a box
 * cut short, the colour that stands out from the box's margin may be either; the glyphs are the fill
 * and the outline round it, erased together, never the fill alone with its outline left round the
 * translation, nor the block covered.
 */

const FILL = [250, 250, 250, 255] as [number, number, number, number];
const OUTLINE = [20, 20, 20, 255] as [number, number, number, number];

describe("two-toned lettering on a photo read with a box cut short", () => {
	it("erases the fill and its outline from a box keeping the left part of both lines", () => {
		const page = new Page(400, 260).photo({ x0: 0, y0: 0, x1: 400, y1: 260 }, 2, 16);
		const text = page.write(["NORTH", "STAIR"], 60, 40, 4, { colour: FILL, outline: { colour: OUTLINE, width: 3 } });
		const region: TranslatedRegion = {
			id: 0,
			text: "NORTH STAIR",
			box: rough.cut(text.box, "left", 0.45),
			vertical: false,
			translation: "Escalier nord",
		};
		const erased = page.copy();
		const { blocks } = layOut(erased, [region], "manga");
		expect(blocks.map((b) => b.treatment)).toEqual(["replace"]);
		expect(page.lettersLeft(erased)).toBe(0);
		expect(page.artChanged(erased)).toBe(0);
	});
});
