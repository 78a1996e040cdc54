import { describe, expect, it } from "vitest";
import type { Box, TranslatedRegion } from "../../src/pipeline/types";
import { layOut } from "../support/lay-out";
import { Page, rough } from "./page";

/**
 * Lettering on screentone as scanned: a screen turned 30°, its step no whole number of pixels, with
 * grain, so that no shift of the pixels predicts the tone well and the ink score stands out all
 * over it. Where the lettering cannot be told from the tone, the block is covered; it is never
 * erased in part (the translation drawn over what stayed) nor smeared over the tone around it.
 */

const TEXT = "WHERE ARE YOU";

/** Dark lettering in a white outline a pixel wide, as captions on tone are lettered. */
function outlinedOnScreen() {
	const page = new Page(420, 200).screen({ x0: 0, y0: 0, x1: 420, y1: 200 }, { grain: 8 });
	for (let dy = -1; dy <= 1; dy++)
		for (let dx = -1; dx <= 1; dx++) page.write([TEXT], 60 + dx, 80 + dy, 4, { colour: [250, 250, 250, 255] });
	const text = page.write([TEXT], 60, 80, 4, { antialiased: true });
	return { page, text };
}

function lay(page: Page, box: Box) {
	const erased = page.copy();
	const region: TranslatedRegion = { id: 0, text: TEXT, box, vertical: false, translation: "Doko" };
	const { blocks } = layOut(erased, [region], "manga");
	return { blocks, erased };
}

describe("lettering on a scanned screen the ink score cannot predict", () => {
	it.each([
		["exact", 0, 0],
		["moved right and down by 4%", 0.04, 0.04],
		["moved down by 10%", 0, 0.1],
	])("with a box %s: no translation over lettering left, no tone smeared", (_, right, down) => {
		const { page, text } = outlinedOnScreen();
		const { blocks, erased } = lay(page, rough.scaled(rough.moved(text.box, right, down), 1.1));
		expect(blocks).toHaveLength(1);
		for (const block of blocks.filter((b) => b.treatment === "replace"))
			expect(page.lettersLeft(erased, block.container.box)).toBeLessThan(20);
		expect(page.artChanged(erased)).toBeLessThan(20);
	});
});
