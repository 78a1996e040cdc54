import { describe, expect, it } from "vitest";
import type { Box, TextBlock, TranslatedRegion } from "../../src/pipeline/types";
import { layOut } from "../support/lay-out";
import { Page } from "./page";

/**
 * What a region's lettering is decides where its translation goes, not the reader's box: a box that
 * holds a balloon whole and a caption on the page beside it (the reader merged them) gives the
 * balloon its text and the caption its own, each erased and set where its lettering was. A text
 * over two balloons written without spaces, a single word, is cut between characters (Japanese and
 * Chinese lines break there): each balloon holds a part, none is erased and left empty. A box
 * the reader moved off one of two panels it merged still gives that panel its text, its lettering
 * fitted tight to the panel's border as well.
 */

function translations(blocks: TextBlock[]) {
	return blocks.map((b) => b.translation).sort();
}

describe("lettering goes to the block that owns it", () => {
	it("erases and translates a caption on the page that the reader merged with a balloon, without per-line boxes", () => {
		const page = new Page(420, 260);
		page.balloon(150, 80, 90, 45);
		page.write(["HELLO", "THERE"], 120, 56, 3);
		const below = page.write(["HOT SALE"], 136, 190, 3);
		const region: TranslatedRegion = {
			id: 0,
			text: "HELLO THERE\nHOT SALE",
			box: { x0: 50, y0: 25, x1: 300, y1: 225 },
			vertical: false,
			translation: "Bonjour vous Soldes",
		};
		const erased = page.copy();
		const { blocks } = layOut(erased, [region], "manga");
		expect(page.lettersLeft(erased)).toBe(0);
		expect(translations(blocks)).toEqual(["Bonjour vous", "Soldes"]);
		const caption = blocks.find((b) => b.translation === "Soldes")!;
		expect(caption.container.kind).toBe("free");
		expect(caption.textBox).toEqual(below.box);
		expect(page.artChanged(erased)).toBe(0);
	});

	it("cuts a translation of one word without spaces between the two balloons the reader read as one", () => {
		const page = new Page(420, 200);
		page.balloon(100, 90, 70, 42);
		page.balloon(310, 90, 70, 42);
		page.write(["HELLO"], 71, 80, 3);
		page.write(["THERE"], 281, 80, 3);
		const region: TranslatedRegion = {
			id: 0,
			text: "HELLO\nTHERE",
			box: { x0: 40, y0: 60, x1: 370, y1: 120 },
			vertical: false,
			translation: "こんにちは",
		};
		const erased = page.copy();
		const { blocks } = layOut(erased, [region], "manga");
		expect(page.lettersLeft(erased)).toBe(0);
		expect(blocks.map((b) => b.text)).toEqual(["HELLO", "THERE"]);
		const parts = blocks.map((b) => b.translation);
		expect(parts.every((t) => t !== "")).toBe(true);
		expect(parts.join("")).toBe("こんにちは");
	});

	it("gives the panel a merged box missed its own text, the lettering touching the panel's border", () => {
		const page = new Page(420, 300, [242, 242, 238, 255]);
		const top = page.write(["HOT SALE"], 100, 40, 4);
		const bottom = page.write(["NEW STORE"], 60, 200, 4);
		const around = (b: Box): Box => ({ x0: b.x0 - 4, y0: b.y0 - 4, x1: b.x1 + 4, y1: b.y1 + 4 });
		page.panel(around(top.box), [255, 255, 255, 255], 3);
		page.panel(around(bottom.box), [255, 255, 255, 255], 3);
		// The panels were drawn over the lettering's edge: written again on top.
		page.write(["HOT SALE"], 100, 40, 4);
		page.write(["NEW STORE"], 60, 200, 4);
		const region: TranslatedRegion = {
			id: 0,
			text: "HOT SALE\nNEW STORE",
			box: { x0: bottom.box.x0 + 40, y0: top.box.y1 + 12, x1: bottom.box.x1 + 60, y1: bottom.box.y1 + 6 },
			vertical: false,
			translation: "Soldes\nNouveau magasin",
		};
		const erased = page.copy();
		const { blocks } = layOut(erased, [region], "manga");
		expect(page.lettersLeft(erased)).toBe(0);
		expect(blocks.map((b) => b.translation)).toEqual(["Soldes", "Nouveau magasin"]);
		expect(blocks[0]!.container.box.y1).toBeLessThan(bottom.box.y0);
	});
});
