import { describe, expect, it } from "vitest";
import { groupBlocks } from "../../src/pipeline/layout/blocks";
import { nothingFound } from "../../src/pipeline/layout/finding";
import type { Box, TranslatedRegion } from "../../src/pipeline/types";

/**
 * Where no lettering could be told from the art, a block is covered with a panel over its area. A
 * caption the reader split in two would otherwise get two panels drawn over each other, each
 * translation half hidden under the other's panel.
 */

const PAGE: Box = { x0: 0, y0: 0, x1: 800, y1: 600 };

function covered(id: number, text: string, translation: string, box: Box) {
	const region: TranslatedRegion = { id, text, translation, box, vertical: false };
	// As around.ts covers: the reader's box and a fifth of it around.
	const w = box.x1 - box.x0;
	const h = box.y1 - box.y0;
	const area = { x0: box.x0 - w / 5, y0: box.y0 - h / 5, x1: box.x1 + w / 5, y1: box.y1 + h / 5 };
	return nothingFound(region, area, PAGE, [128, 128, 128]);
}

describe("blocks covered where no lettering could be found", () => {
	it("a caption read as two halves side by side becomes one panel holding both, in reading order", () => {
		const right = covered(1, "you going?", "vas-tu ?", { x0: 300, y0: 100, x1: 420, y1: 130 });
		const left = covered(0, "Where are", "Où", { x0: 180, y0: 100, x1: 296, y1: 130 });
		const laid = groupBlocks([right, left]);
		expect(laid).toHaveLength(1);
		const [{ block }] = laid as [(typeof laid)[0]];
		expect(block.treatment).toBe("cover");
		expect(block.text).toBe("Where are you going?");
		expect(block.translation).toBe("Où vas-tu ?");
		expect(block.container.box.x0).toBeLessThanOrEqual(left.container.box.x0);
		expect(block.container.box.x1).toBeGreaterThanOrEqual(right.container.box.x1);
	});

	it("two lines of one caption read apart become one panel", () => {
		const top = covered(0, "Thank you", "Merci", { x0: 100, y0: 200, x1: 220, y1: 228 });
		const bottom = covered(1, "so much", "beaucoup", { x0: 110, y0: 234, x1: 210, y1: 262 });
		const laid = groupBlocks([top, bottom]);
		expect(laid.map((l) => l.block.translation)).toEqual(["Merci beaucoup"]);
	});

	it("captions whose panels stay apart keep a panel each", () => {
		const one = covered(0, "Free shipping", "Livraison offerte", { x0: 100, y0: 100, x1: 260, y1: 130 });
		const two = covered(1, "Today only", "Aujourd'hui seulement", { x0: 100, y0: 300, x1: 240, y1: 330 });
		expect(groupBlocks([one, two])).toHaveLength(2);
	});

	it("a brand name beside a covered caption is kept as drawn, not covered with it", () => {
		const brand = covered(0, "ACME", "ACME", { x0: 180, y0: 100, x1: 250, y1: 130 });
		const caption = covered(1, "sale", "soldes", { x0: 254, y0: 100, x1: 320, y1: 130 });
		const laid = groupBlocks([brand, caption]);
		expect(laid.map((l) => l.block.treatment).sort()).toEqual(["cover", "keep"]);
	});
});
