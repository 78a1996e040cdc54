import { describe, expect, it } from "vitest";
import type { Box, TextBlock, TranslatedRegion } from "../../src/pipeline/types";
import { layOut } from "../support/lay-out";
import { Page } from "./page";

/**
 * Every region's translation reaches the page: merged, shared out, deduplicated, covered or kept,
 * never dropped. A reader that merged two balloons and a line of lettering on the page beside them
 * into one region, its per-line boxes saying where each line is, gives each balloon its line and
 * the line on the page its own, all three translated.
 */

/** Whether `inner` lies within `outer` grown by `margin` px. */
const within = (inner: Box, outer: Box, margin: number) =>
	inner.x0 >= outer.x0 - margin &&
	inner.y0 >= outer.y0 - margin &&
	inner.x1 <= outer.x1 + margin &&
	inner.y1 <= outer.y1 + margin;

/** Two balloons side by side ("HELLO THERE", "NEW STORE") and a line on the page below them ("HOT SALE"). */
function twoBalloonsAndALine() {
	const page = new Page(420, 260);
	page.balloon(100, 90, 70, 42);
	page.balloon(310, 90, 70, 42);
	const left = page.write(["HELLO", "THERE"], 57, 66, 3);
	const right = page.write(["NEW", "STORE"], 267, 66, 3);
	const below = page.write(["HOT SALE"], 136, 190, 3);
	return { page, lines: [...left.lines, ...right.lines, ...below.lines], below: below.box };
}

function translations(blocks: TextBlock[]) {
	return blocks.map((b) => b.translation).sort();
}

describe("no translation is lost between the reader's regions and the page", () => {
	it("gives two balloons and a line on the page, read as one region with per-line boxes, all three translations", () => {
		const { page, lines, below } = twoBalloonsAndALine();
		// A box around both balloons whole and the line below.
		const box = { x0: 20, y0: 40, x1: 395, y1: 225 };
		const region: TranslatedRegion = {
			id: 0,
			text: "HELLO\nTHERE\nNEW\nSTORE\nHOT SALE",
			box,
			vertical: false,
			translation: "Bonjour vous\nNouveau magasin\nSoldes",
			lines,
		};
		const erased = page.copy();
		const { blocks } = layOut(erased, [region], "manga");
		expect(translations(blocks)).toEqual(["Bonjour vous", "Nouveau magasin", "Soldes"]);
		// The line on the page is erased and set where it was, not in a balloon.
		const line = blocks.find((b) => b.translation === "Soldes")!;
		expect(line.container.kind).toBe("free");
		expect(page.lettersLeft(erased)).toBe(0);
		expect(page.artChanged(erased)).toBe(0);
		expect(within(line.textBox, below, 2)).toBe(true);
	});
});
