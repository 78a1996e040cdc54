import { describe, expect, it } from "vitest";
import type { Box, TextBlock } from "../../src/pipeline/types";
import { layOut } from "../support/lay-out";
import { Page } from "./page";

/**
 * A balloon and a caption panel on a flat page that the reader merged into one region, its box
 * lying mostly over the page between them (as flat-latin's corpus sample does with rough boxes).
 * The page's colour holds no container there, but the box's other colours do: each container is
 * its own block, all of its lettering erased and its translation set in it, never one opaque panel
 * over both and the page between, and never a line of a caption left as drawn beside its translation.
 */

type Colour = [number, number, number, number];
const PAGE: Colour = [226, 226, 222, 255];
const PLUM: Colour = [110, 30, 90, 255];
const WHITE: Colour = [250, 250, 250, 255];

/** "HELLO THERE" in a balloon at the top, "WAIT / A SEC" in a plum panel below it, on grey. */
function balloonAndPanel() {
	const page = new Page(480, 360, PAGE).balloon(240, 60, 190, 40);
	const balloonText = page.write(["HELL THERE"], 115, 46, 4);
	const panelBox = { x0: 60, y0: 190, x1: 220, y1: 290 };
	page.panel(panelBox, PLUM, 0);
	const panelText = page.write(["WAIT", "A SEC"], 80, 205, 4, { colour: WHITE });
	return { page, balloonText, panelText, panelBox };
}

const centreIn = (b: Box, outer: Box) => {
	const x = (b.x0 + b.x1) / 2;
	const y = (b.y0 + b.y1) / 2;
	return x >= outer.x0 && x < outer.x1 && y >= outer.y0 && y < outer.y1;
};

function expectEachContainerItsBlock(blocks: TextBlock[], balloon: Box, panel: Box) {
	expect(blocks.map((b) => b.treatment)).toEqual(["replace", "replace"]);
	expect(blocks.map((b) => b.container.kind)).toEqual(["balloon", "panel"]);
	expect(centreIn(blocks[0]!.container.box, balloon)).toBe(true);
	expect(centreIn(blocks[1]!.container.box, panel)).toBe(true);
}

describe("a region the reader merged across a balloon and a panel on a flat page", () => {
	it("gives the balloon and the panel a block each, the box holding the page between them", () => {
		const { page, balloonText, panelText, panelBox } = balloonAndPanel();
		const erased = page.copy();
		const region = {
			id: 0,
			text: "HELL THERE\nWAIT A SEC",
			box: { x0: 90, y0: 50, x1: 400, y1: 270 },
			vertical: false,
			translation: "Bonjour\nUne seconde",
		};
		const { blocks } = layOut(erased, [region], "manga");
		expectEachContainerItsBlock(blocks, { x0: 50, y0: 20, x1: 430, y1: 100 }, panelBox);
		expect(blocks.map((b) => b.translation)).toEqual(["Bonjour", "Une seconde"]);
		expect(page.lettersLeft(erased, balloonText.box)).toBe(0);
		expect(page.lettersLeft(erased, panelText.box)).toBe(0);
	});

	it("erases the panel's first line, which the box cuts, with the line it holds", () => {
		const { page, balloonText, panelText, panelBox } = balloonAndPanel();
		// A wide balloon below the panel; the box runs from the middle of the panel's first line into it.
		page.balloon(240, 320, 220, 30);
		const lower = page.write(["THANKS"], 170, 306, 4);
		const erased = page.copy();
		const regions = [
			{ id: 0, text: "HELL THERE", box: { x0: 110, y0: 40, x1: 360, y1: 80 }, vertical: false, translation: "Bonjour" },
			{
				id: 1,
				text: "WAIT A SEC\nTHANKS",
				box: { x0: 50, y0: panelText.lines[0]!.box.y0 + 9, x1: 420, y1: 352 },
				vertical: false,
				translation: "Une seconde\nMerci",
			},
		];
		const { blocks } = layOut(erased, regions, "manga");
		expect(blocks.map((b) => b.treatment)).toEqual(["replace", "replace", "replace"]);
		expect(centreIn(blocks[1]!.container.box, panelBox)).toBe(true);
		expect(page.lettersLeft(erased, panelText.box)).toBe(0);
		expect(page.lettersLeft(erased, lower.box)).toBe(0);
		expect(page.lettersLeft(erased, balloonText.box)).toBe(0);
	});
});
