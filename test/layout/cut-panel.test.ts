import { describe, expect, it } from "vitest";
import type { Box, Raster, TranslatedRegion } from "../../src/pipeline/types";
import { layOut } from "../support/lay-out";
import { Page, rough } from "./page";

/**
 * Lettering fitted so tight to a panel that its stems run from the top border to the bottom one, as
 * in the corpus's manga-tight-ko ("잠깐만 기다려"): the stems cut the panel's paper into a piece per
 * glyph or two. A box cut short to the first glyphs found the piece it held for the panel and left
 * the last glyphs beside the translation, and two boxes each holding part of it gave two blocks.
 * Beside them, a box over two panels on art, the second cut by it, gave both to a cover over the
 * art between them (manga-touching-latin, rough seed 23).
 */

type Colour = [number, number, number, number];
const WHITE: Colour = [255, 255, 255, 255];
const LIGHT_PAGE: Colour = [246, 246, 242, 255];
/** The border's width, px. */
const BORDER = 3;

/** A white panel whose border overlaps the lettering's outer pixels on every side, on art or a light page. */
function tightPanel(onArt: boolean, line: string, x: number, y: number, scale = 3) {
	const page = new Page(480, 200, onArt ? [128, 128, 128, 255] : LIGHT_PAGE);
	if (onArt) page.grain({ x0: 0, y0: 0, x1: 480, y1: 200 }, 5);
	const { box } = page.write([line], x, y, scale);
	const border = grown(box, BORDER - 1);
	page.panel(border, WHITE, BORDER);
	page.write([line], x, y, scale);
	return { page, box, border };
}

function grown(b: Box, by: number): Box {
	return { x0: b.x0 - by, y0: b.y0 - by, x1: b.x1 + by, y1: b.y1 + by };
}

/** Pixels of the border's box that differ from the plate after erasure: notches cut, or strokes left along it. */
function borderChanged(page: Page, erased: Raster, border: Box): number {
	let changed = 0;
	for (let y = border.y0; y < border.y1; y++) {
		for (let x = border.x0; x < border.x1; x++) {
			const i = (y * page.width + x) * 4;
			if (Math.abs(erased.data[i]! - page.plate.data[i]!) > 60) changed++;
		}
	}
	return changed;
}

const region = (id: number, box: Box, text: string): TranslatedRegion => ({
	id,
	text,
	box,
	vertical: false,
	translation: `Bonjour ${id}`,
});

describe("lettering whose stems cut a tight panel's paper in pieces", () => {
	for (const onArt of [true, false]) {
		it(`is erased whole from a box cut to its first glyphs (${onArt ? "on art" : "on a light page"})`, () => {
			const { page, box, border } = tightPanel(onArt, "TIE HIT THE", 80, 80);
			const erased = page.copy();
			const read = grown(rough.cut(box, "left", 0.55), 6);
			const { blocks } = layOut(erased, [region(0, read, "TIE HIT THE")], "manga");
			expect(blocks.map((b) => b.treatment)).toEqual(["replace"]);
			expect(blocks[0]!.container.kind).toBe("panel");
			// On main, the glyphs past the stem the box's piece of paper ended at stayed: 431 px on art;
			// on a light page the box was covered.
			expect(page.lettersLeft(erased)).toBe(0);
			expect(borderChanged(page, erased, border)).toBe(0);
		});
	}

	it("gives one block, the whole panel, to two boxes each holding part of it", () => {
		const { page, box } = tightPanel(true, "TIE HIT THE", 80, 80);
		const erased = page.copy();
		const left = grown(rough.cut(box, "left", 0.45), 6);
		const right = grown(rough.cut(box, "right", 0.5), 6);
		const { blocks } = layOut(erased, [region(0, left, "TIE HIT"), region(1, right, "THE")], "manga");
		expect(blocks.map((b) => b.regionIds)).toEqual([[0, 1]]);
		expect(page.lettersLeft(erased)).toBe(0);
	});
});

describe("a box over two panels apart on art, the second cut by it", () => {
	it("erases both, each given its share of the text, no cover over the art between them", () => {
		const page = new Page(420, 260, [128, 128, 128, 255]).grain({ x0: 0, y0: 0, x1: 420, y1: 260 }, 4);
		const lines = ["HELLO", "THERE", "WORLD"];
		const first = page.write(lines, 60, 30, 3).box;
		page.panel(grown(first, BORDER - 1), WHITE, BORDER);
		page.write(lines, 60, 30, 3);
		const second = page.write(["TIE A TIE"], 120, 170, 3).box;
		page.panel(grown(second, BORDER - 1), WHITE, BORDER);
		page.write(["TIE A TIE"], 120, 170, 3);
		const erased = page.copy();
		// Around the first whole and the top third of the second, over the art to the left of both.
		const read = { x0: first.x0 - 20, y0: first.y0 - 8, x1: second.x1 + 4, y1: second.y0 + 7 };
		const { blocks } = layOut(erased, [region(0, read, "HELLO THERE WORLD TIE A TIE")], "manga");
		expect(blocks.map((b) => b.treatment)).toEqual(["replace", "replace"]);
		expect(blocks.map((b) => b.container.kind)).toEqual(["panel", "panel"]);
		expect(blocks.map((b) => b.text)).toEqual(["HELLO THERE WORLD", "TIE A TIE"]);
		expect(page.lettersLeft(erased)).toBe(0);
	});
});
