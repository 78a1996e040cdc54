import { describe, expect, it } from "vitest";
import type { Box, TextBlock, TranslatedRegion } from "../../src/pipeline/types";
import { layOut } from "../support/lay-out";
import { Page, rough } from "./page";

/**
 * Lettering on a scanned screen is covered (it cannot be told from the tone pixel by pixel), and
 * the reader's box is all that says where it is. A box cut short must not leave letters beside the
 * panel: the cover runs on along the line as far as the lettering does, and no further.
 */

/** Dark lettering in a white outline on a scanned screen with grain, as captions on tone are lettered. */
function onScreen(lines: { text: string; x: number }[], radius = 1.7) {
	const page = new Page(560, 200).screen({ x0: 0, y0: 0, x1: 560, y1: 200 }, { grain: 8, radius });
	for (const { text, x } of lines)
		for (let dy = -1; dy <= 1; dy++)
			for (let dx = -1; dx <= 1; dx++) page.write([text], x + dx, 80 + dy, 4, { colour: [250, 250, 250, 255] });
	const boxes = lines.map(({ text, x }) => page.write([text], x, 80, 4, { antialiased: true }).box);
	return { page, boxes };
}

function covered(page: Page, text: string, box: Box): TextBlock {
	const region: TranslatedRegion = { id: 0, text, box, vertical: false, translation: "Doko" };
	const { blocks } = layOut(page.copy(), [region], "manga");
	expect(blocks.map((b) => b.treatment)).toEqual(["cover"]);
	return blocks[0] as TextBlock;
}

describe("a cover over a box cut short on a scanned screen", () => {
	it.each<["left" | "right", string]>([
		["left", "right"],
		["right", "left"],
	])("a box holding the %s three fifths of the line: the cover reaches its %s end", (keep) => {
		const { page, boxes } = onScreen([{ text: "NORTHWEST", x: 100 }]);
		const [lettering] = boxes as [Box];
		const { textBox } = covered(page, "NORTHWEST", rough.cut(lettering, keep, 0.6));
		expect(textBox.x0).toBeLessThanOrEqual(lettering.x0);
		expect(textBox.x1).toBeGreaterThanOrEqual(lettering.x1);
	});

	it("on a darker screen, where the lettering and its outline average to the tone's own: the cover reaches the line's start", () => {
		// Dots of radius 2.3: the screen's cells are as dark on average as the lettering's; only their contrast differs.
		const { page, boxes } = onScreen([{ text: "NORTHWEST", x: 100 }], 2.3);
		const [lettering] = boxes as [Box];
		const { textBox } = covered(page, "NORTHWEST", rough.cut(lettering, "right", 0.6));
		expect(textBox.x0).toBeLessThanOrEqual(lettering.x0);
		expect(textBox.x1).toBeGreaterThanOrEqual(lettering.x1);
	});

	it("a vertical column cut short to its lower part: the cover reaches its top", () => {
		const page = new Page(200, 560).screen({ x0: 0, y0: 0, x1: 200, y1: 560 }, { grain: 8 });
		const column = { vertical: true };
		for (let dy = -1; dy <= 1; dy++)
			for (let dx = -1; dx <= 1; dx++)
				page.write(["NORTHWEST"], 90 + dx, 100 + dy, 4, { ...column, colour: [250, 250, 250, 255] });
		const { box: lettering } = page.write(["NORTHWEST"], 90, 100, 4, { ...column, antialiased: true });
		const region: TranslatedRegion = {
			id: 0,
			text: "NORTHWEST",
			box: rough.cut(lettering, "bottom", 0.6),
			vertical: true,
			translation: "Nord-ouest",
		};
		const { blocks } = layOut(page.copy(), [region], "manga");
		expect(blocks.map((b) => b.treatment)).toEqual(["cover"]);
		expect(blocks[0]?.textBox.y0).toBeLessThanOrEqual(lettering.y0);
		expect(blocks[0]?.textBox.y1).toBeGreaterThanOrEqual(lettering.y1);
	});

	it("stops where the line's lettering ends: another caption further along the line stays out", () => {
		const { page, boxes } = onScreen([
			{ text: "NORTHWEST", x: 30 },
			{ text: "NOW", x: 360 },
		]);
		const [first, second] = boxes as [Box, Box];
		const { textBox } = covered(page, "NORTHWEST", rough.cut(first, "right", 0.6));
		expect(textBox.x0).toBeLessThanOrEqual(first.x0);
		expect(textBox.x1).toBeLessThan(second.x0);
	});

	it("two pieces of one line read more than a word space apart, the lettering running between them: one block", () => {
		const { page, boxes } = onScreen([{ text: "NORTHWEST", x: 100 }]);
		const [lettering] = boxes as [Box];
		const { y0, y1 } = lettering;
		const regions: TranslatedRegion[] = [
			{ id: 0, text: "NORTH", box: { x0: 100, y0, x1: 190, y1 }, vertical: false, translation: "Nord" },
			{ id: 1, text: "WEST", box: { x0: 206, y0, x1: lettering.x1, y1 }, vertical: false, translation: "ouest" },
		];
		const { blocks } = layOut(page.copy(), regions, "manga");
		expect(blocks.map((b) => [b.treatment, b.regionIds, b.translation])).toEqual([["cover", [0, 1], "Nord ouest"]]);
	});

	it("a box around the whole line covers no further than before (its box and a fifth)", () => {
		const { page, boxes } = onScreen([{ text: "NOW", x: 200 }]);
		const [lettering] = boxes as [Box];
		const { textBox } = covered(page, "NOW", lettering);
		const w = lettering.x1 - lettering.x0;
		expect(textBox.x0).toBeGreaterThanOrEqual(lettering.x0 - Math.round(w / 5));
		expect(textBox.x1).toBeLessThanOrEqual(lettering.x1 + Math.round(w / 5));
	});
});
