import { describe, expect, it } from "vitest";
import { union } from "../../src/pipeline/patch";
import type { Box, TextBlock, TranslatedRegion } from "../../src/pipeline/types";
import { layOut } from "../support/lay-out";
import { Page, rough } from "./page";

/**
 * Two containers on a flat page, a label panel and a balloon, or two panels, that the reader merged
 * into one region: one box around both (or parts of both). Each container keeps its outline and its
 * fill (only its lettering is erased) and gets a block of its own with its share of the translation;
 * never one block over both with the page between them painted over.
 */

type Colour = [number, number, number, number];
const PAGE: Colour = [232, 232, 228, 255];
/** A page near white: a flood of its colour takes a white panel's paper too. */
const LIGHT_PAGE: Colour = [242, 242, 238, 255];
const WHITE: Colour = [255, 255, 255, 255];
const RED: Colour = [150, 30, 30, 255];

/** A region read over both containers: a line of text each, unless `lines` are given too. */
function layOutMerged(page: Page, box: Box, lines?: TranslatedRegion["lines"]) {
	const erased = page.copy();
	const region: TranslatedRegion = {
		id: 0,
		text: "HOT SALE\nNEW STORE",
		box,
		vertical: false,
		translation: "Soldes\nNouveau magasin",
		...(lines ? { lines } : {}),
	};
	return { erased, blocks: layOut(erased, [region], "manga").blocks };
}

/** Whether `inner` lies within `outer` grown by `margin` px. */
const within = (inner: Box, outer: Box, margin: number) =>
	inner.x0 >= outer.x0 - margin &&
	inner.y0 >= outer.y0 - margin &&
	inner.x1 <= outer.x1 + margin &&
	inner.y1 <= outer.y1 + margin;

function expectOneBlockEach(blocks: TextBlock[], first: Box, second: Box) {
	expect(blocks.map((b) => b.treatment)).toEqual(["replace", "replace"]);
	expect(blocks.map((b) => b.translation)).toEqual(["Soldes", "Nouveau magasin"]);
	// Each translation's room is its own container, not both and the page between.
	expect(within(blocks[0]!.container.box, first, 2)).toBe(true);
	expect(within(blocks[1]!.container.box, second, 2)).toBe(true);
}

/** A red label panel with "HOT SALE" in white, and below it a balloon with "NEW STORE". */
function labelAndBalloon() {
	const page = new Page(420, 400, PAGE);
	const label: Box = { x0: 120, y0: 40, x1: 290, y1: 130 };
	page.panel(label, RED, 3);
	const top = page.write(["HOT", "SALE"], 160, 55, 4, { colour: WHITE });
	page.balloon(246, 290, 130, 50);
	const bottom = page.write(["NEW STORE"], 140, 276, 4);
	return { page, label, balloon: { x0: 116, y0: 240, x1: 376, y1: 340 }, top, bottom };
}

/** Two white panels fitted tight to their lettering ("HOT SALE", "NEW STORE"), apart on the page. */
function twoTightPanels() {
	const page = new Page(420, 400, LIGHT_PAGE);
	const top = page.write(["HOT", "SALE"], 150, 60, 4);
	const bottom = page.write(["NEW", "STORE"], 110, 230, 4);
	const panelAround = (b: Box): Box => ({ x0: b.x0 - 6, y0: b.y0 - 6, x1: b.x1 + 6, y1: b.y1 + 6 });
	const panels = [panelAround(top.box), panelAround(bottom.box)] as const;
	for (const p of panels) page.panel(p, WHITE, 3);
	// The panels were drawn over the lettering: write it again on top.
	page.write(["HOT", "SALE"], 150, 60, 4);
	page.write(["NEW", "STORE"], 110, 230, 4);
	return { page, panels, top, bottom };
}

describe("a region the reader merged across two containers on a flat page", () => {
	it("gives a label panel and a balloon of other colours a block each, both kept, the box holding a part of each", () => {
		const { page, label, balloon, top, bottom } = labelAndBalloon();
		const box = rough.moved(union(top.box, bottom.box), 0.08, 0.05);
		const { erased, blocks } = layOutMerged(page, box);
		expectOneBlockEach(blocks, label, balloon);
		expect(page.lettersLeft(erased)).toBe(0);
		expect(page.artChanged(erased)).toBe(0);
	});

	it.each([
		["with the reader's lines", true],
		["without lines", false],
	])(
		"gives two panels fitted tight to their lettering a block each, their outlines kept, the box around both (%s)",
		(_, withLines) => {
			const { page, panels, top, bottom } = twoTightPanels();
			const box = rough.scaled(union(panels[0], panels[1]), 1.1);
			const { erased, blocks } = layOutMerged(page, box, withLines ? [...top.lines, ...bottom.lines] : undefined);
			expectOneBlockEach(blocks, panels[0], panels[1]);
			expect(page.lettersLeft(erased)).toBe(0);
			expect(page.artChanged(erased)).toBe(0);
		},
	);
});
