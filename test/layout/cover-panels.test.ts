import { describe, expect, it } from "vitest";
import { groupBlocks } from "../../src/pipeline/layout/blocks";
import { nothingFound } from "../../src/pipeline/layout/finding";
import type { Box, TranslatedRegion } from "../../src/pipeline/types";

/**
 * Where no lettering could be told from the art, a block is covered with a panel over its area (the
 * reader's box and a fifth around it). A caption the reader split in two would get two panels
 * drawn over each other, each half of the translation hidden under the other's panel; but only
 * pieces of one line are one caption, and a page of labels keeps a panel per label.
 */

const PAGE: Box = { x0: 0, y0: 0, x1: 1000, y1: 800 };

function covered(id: number, text: string, translation: string, box: Box) {
	const region: TranslatedRegion = { id, text, translation, box, vertical: false };
	// As around.ts covers: the reader's box and a fifth of it around.
	const w = box.x1 - box.x0;
	const h = box.y1 - box.y0;
	const area = { x0: box.x0 - w / 5, y0: box.y0 - h / 5, x1: box.x1 + w / 5, y1: box.y1 + h / 5 };
	return nothingFound(region, area, PAGE, [128, 128, 128]);
}

describe("blocks covered where no lettering could be found", () => {
	it("a caption read as two overlapping halves of one line is one panel holding both, in reading order", () => {
		const right = covered(1, "moment!", "instant !", { x0: 232, y0: 46, x1: 365, y1: 67 });
		const left = covered(0, "Wait a", "Attends un", { x0: 112, y0: 49, x1: 240, y1: 68 });
		const laid = groupBlocks([right, left]);
		expect(laid).toHaveLength(1);
		const [{ block }] = laid as [(typeof laid)[0]];
		expect(block.treatment).toBe("cover");
		expect(block.regionIds).toEqual([0, 1]);
		expect(block.translation).toBe("Attends un instant !");
		expect(block.textBox.x0).toBeLessThanOrEqual(left.textBox.x0);
		expect(block.textBox.x1).toBeGreaterThanOrEqual(right.textBox.x1);
	});

	it("halves read with a little space between them (under a word space) are one panel", () => {
		const left = covered(0, "Where are", "Où", { x0: 180, y0: 100, x1: 296, y1: 130 });
		const right = covered(1, "you going?", "vas-tu ?", { x0: 302, y0: 98, x1: 420, y1: 128 });
		expect(groupBlocks([left, right]).map((l) => l.block.translation)).toEqual(["Où vas-tu ?"]);
	});

	it("a vertical column read in two is one panel", () => {
		const region = (id: number, box: Box): TranslatedRegion => ({
			id,
			text: id === 0 ? "待って" : "ください",
			translation: id === 0 ? "Wait" : "please",
			box,
			vertical: true,
		});
		const top = nothingFound(
			region(0, { x0: 500, y0: 100, x1: 530, y1: 190 }),
			{ x0: 494, y0: 82, x1: 536, y1: 208 },
			PAGE,
		);
		const bottom = nothingFound(
			region(1, { x0: 502, y0: 186, x1: 532, y1: 300 }),
			{ x0: 496, y0: 163, x1: 538, y1: 323 },
			PAGE,
		);
		expect(groupBlocks([bottom, top]).map((l) => l.block.translation)).toEqual(["Wait please"]);
	});

	it("labels in a row, more than a word space apart, keep a panel each", () => {
		const labels = [0, 1, 2, 3, 4].map((i) =>
			covered(i, `label ${i}`, `étiquette ${i}`, { x0: 5 + 50 * i, y0: 5, x1: 45 + 50 * i, y1: 35 }),
		);
		expect(groupBlocks(labels)).toHaveLength(5);
	});

	it("pieces touching end to end never join into one panel longer than a caption read in two", () => {
		const pieces = [0, 1, 2, 3, 4, 5].map((i) =>
			covered(i, `piece ${i}`, `morceau ${i}`, { x0: 100 + 100 * i, y0: 300, x1: 200 + 100 * i, y1: 330 }),
		);
		const laid = groupBlocks(pieces);
		expect(laid.length).toBeGreaterThanOrEqual(3);
		for (const { block } of laid) expect(block.regionIds.length).toBeLessThanOrEqual(2);
	});

	it("lines above one another, or at sizes far apart, are not one line", () => {
		const top = covered(0, "Thank you", "Merci", { x0: 100, y0: 200, x1: 220, y1: 228 });
		const below = covered(1, "so much", "beaucoup", { x0: 110, y0: 232, x1: 210, y1: 260 });
		const title = covered(2, "BIG", "GRAND", { x0: 222, y0: 180, x1: 330, y1: 260 });
		expect(groupBlocks([top, below, title])).toHaveLength(3);
	});

	it("a brand name beside a covered caption is kept as drawn, not covered with it", () => {
		const brand = covered(0, "ACME", "ACME", { x0: 180, y0: 100, x1: 250, y1: 130 });
		const caption = covered(1, "sale", "soldes", { x0: 252, y0: 100, x1: 320, y1: 130 });
		const laid = groupBlocks([brand, caption]);
		expect(laid.map((l) => l.block.treatment).sort()).toEqual(["cover", "keep"]);
	});
});
