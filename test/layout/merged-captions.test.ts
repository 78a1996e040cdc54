import { describe, expect, it } from "vitest";
import { union } from "../../src/pipeline/patch";
import type { Box, TextBlock, TranslatedRegion } from "../../src/pipeline/types";
import { layOut } from "../support/lay-out";
import { Page, rough } from "./page";

/**
 * Two captions on a photo, apart, that the reader merged into one region: one box around both (as
 * rough as any), a line of text each. What reads best on the page is what an exact reader would
 * have given: each caption its own block, its own lettering erased, its own share of the
 * translation set in its place; never one caption's place left empty or as drawn, and never a
 * panel over both and the art between them.
 */

type Colour = [number, number, number, number];
const YELLOW: Colour = [240, 222, 40, 255];
const WHITE: Colour = [250, 250, 250, 255];
const RED: Colour = [150, 20, 30, 255];

/** A photo with "HOT / SALE" above and "NEW STORE" below, a caption's height and more apart. */
function twoCaptions(first: Colour, second: Colour) {
	const page = new Page(480, 360).photo({ x0: 0, y0: 0, x1: 480, y1: 360 }, 3);
	const top = page.write(["HOT", "SALE"], 60, 50, 4, { colour: first, antialiased: true });
	const bottom = page.write(["NEW STORE"], 140, 250, 4, { colour: second, antialiased: true });
	return { page, top, bottom };
}

/** The caption's lettering's box with the few pixels of margin an exact reader leaves. */
const padded = (b: Box): Box => ({ x0: b.x0 - 3, y0: b.y0 - 3, x1: b.x1 + 4, y1: b.y1 + 4 });

/** Whether a block's box lies within the caption's lettering (and `margin` px). */
const around = (b: Box, caption: Box, margin: number) =>
	b.x0 >= caption.x0 - margin &&
	b.y0 >= caption.y0 - margin &&
	b.x1 <= caption.x1 + margin &&
	b.y1 <= caption.y1 + margin;

/** The page laid out and erased from the one region merged over both captions: "HOT SALE\nNEW STORE". */
function layOutMerged(page: Page, box: Box, translation: string, lines?: TranslatedRegion["lines"]) {
	const erased = page.copy();
	const region = { id: 0, text: "HOT SALE\nNEW STORE", box, vertical: false, translation, ...(lines ? { lines } : {}) };
	return { erased, blocks: layOut(erased, [region], "general").blocks };
}

function expectOneBlockEach(blocks: TextBlock[], top: Box, bottom: Box, translations: [string, string]) {
	expect(blocks.map((b) => b.treatment)).toEqual(["replace", "replace"]);
	expect(blocks.map((b) => b.translation)).toEqual(translations);
	// Each set where its caption was, sized to it: not both in one place, not over the art between.
	expect(around(blocks[0]!.textBox, top, 6)).toBe(true);
	expect(around(blocks[1]!.textBox, bottom, 6)).toBe(true);
	expect(blocks.every((b) => b.container.box.y1 <= top.y1 + 40 || b.container.box.y0 >= bottom.y0 - 40)).toBe(true);
}

describe("a region the reader merged across two free captions on a photo", () => {
	it("gives each caption of another colour its own block and erases both, the box holding a part of each", () => {
		const { page, top, bottom } = twoCaptions(YELLOW, WHITE);
		const box = rough.moved(rough.scaled(union(padded(top.box), padded(bottom.box)), 0.92), 0.04, 0.03);
		const { erased, blocks } = layOutMerged(page, box, "Soldes\nNouveau magasin");
		expectOneBlockEach(blocks, top.box, bottom.box, ["Soldes", "Nouveau magasin"]);
		expect(page.lettersLeft(erased)).toBe(0);
	});

	it("finds the caption a box drawn short of it missed, below the box", () => {
		const { page, top, bottom } = twoCaptions(RED, WHITE);
		// The box ends a few pixels above the second caption's lettering.
		const box = { ...union(padded(top.box), padded(bottom.box)), y1: bottom.box.y0 - 3 };
		const { erased, blocks } = layOutMerged(page, box, "Soldes\nNouveau magasin");
		expectOneBlockEach(blocks, top.box, bottom.box, ["Soldes", "Nouveau magasin"]);
		expect(page.lettersLeft(erased)).toBe(0);
	});

	it("splits lettering of one colour at the gap between the captions", () => {
		const { page, top, bottom } = twoCaptions(YELLOW, YELLOW);
		const box = rough.scaled(union(padded(top.box), padded(bottom.box)), 1.15);
		const { erased, blocks } = layOutMerged(page, box, "Soldes\nNouveau magasin");
		expectOneBlockEach(blocks, top.box, bottom.box, ["Soldes", "Nouveau magasin"]);
		expect(page.lettersLeft(erased)).toBe(0);
	});

	it("shares a translation without lines out in proportion to each caption's text", () => {
		const { page, top, bottom } = twoCaptions(YELLOW, WHITE);
		const box = union(padded(top.box), padded(bottom.box));
		const { blocks } = layOutMerged(page, box, "Grandes soldes. Nouveau magasin.");
		expectOneBlockEach(blocks, top.box, bottom.box, ["Grandes soldes.", "Nouveau magasin."]);
	});

	it("follows the reader's per-line boxes, however rough, for what each caption reads", () => {
		const { page, top, bottom } = twoCaptions(YELLOW, WHITE);
		const lines = [...top.lines, ...bottom.lines].map((l, k) => ({
			text: l.text,
			box: rough.moved(rough.scaled(padded(l.box), 1.1), k % 2 ? -0.06 : 0.06, 0.08),
		}));
		const box = union(padded(top.box), padded(bottom.box));
		const { erased, blocks } = layOutMerged(page, box, "Soldes\nNouveau magasin", lines);
		expect(blocks.map((b) => b.text)).toEqual(["HOT\nSALE", "NEW STORE"]);
		expectOneBlockEach(blocks, top.box, bottom.box, ["Soldes", "Nouveau magasin"]);
		expect(page.lettersLeft(erased)).toBe(0);
	});

	it("keeps a caption of two lines read with a loose box as one block, and a yellow mark below it as drawn", () => {
		const page = new Page(480, 360).photo({ x0: 0, y0: 0, x1: 480, y1: 360 }, 3);
		const caption = page.write(["HOT", "SALE"], 160, 120, 4, { colour: YELLOW, antialiased: true });
		// A mark of the lettering's colour a line below the caption, where a caption the box missed could be.
		const mark = { x0: 175, y0: caption.box.y1 + 30, x1: 187, y1: caption.box.y1 + 40 };
		page.panel(mark, YELLOW, 0);
		const box = rough.moved(rough.scaled(padded(caption.box), 1.3), 0.1, 0.12);
		const erased = page.copy();
		const region = { id: 0, text: "HOT\nSALE", box, vertical: false, translation: "Soldes" };
		const { blocks } = layOut(erased, [region], "general");
		expect(blocks.map((b) => [b.treatment, b.translation])).toEqual([["replace", "Soldes"]]);
		expect(page.lettersLeft(erased)).toBe(0);
		const markLeft = (m: Box) => {
			let same = 0;
			for (let y = m.y0; y < m.y1; y++)
				for (let x = m.x0; x < m.x1; x++) if (erased.data[(y * page.width + x) * 4 + 2] === YELLOW[2]) same++;
			return same;
		};
		expect(markLeft(mark)).toBe(120);
	});
});
