import { describe, expect, it } from "vitest";
import { settlePage } from "../../src/pipeline/layout";
import type { Box, TextBlock } from "../../src/pipeline/types";
import { block as blockOn } from "../typeset/block";

/**
 * The page's blocks from every crop, settled. A crop's edge can cut a balloon open, so a region
 * near that edge finds free lettering, or covers what it could not find, where another crop found
 * the balloon and all of its lettering.
 */

/** A block of region `id`, on free art unless a container is given. */
function block(id: number, fields: Partial<TextBlock> & { textBox: Box }): TextBlock {
	const container = fields.container ?? { kind: "free" as const, box: fields.textBox };
	return blockOn(`translation ${id}`, container, {
		id,
		regionIds: [id],
		text: `text ${id}`,
		vertical: true,
		role: "dialogue",
		...fields,
	});
}

const balloon = block(0, {
	text: "急がないと",
	translation: "We must hurry",
	container: { kind: "balloon", box: { x0: 124, y0: 1076, x1: 236, y1: 1343 } },
	textBox: { x0: 149, y0: 1124, x1: 211, y1: 1295 },
});

describe("settlePage", () => {
	it("puts a cover found by another crop inside a balloon whose lettering was found into that balloon", () => {
		const cover = block(1, {
			text: "間に合わない",
			translation: "or we will be late.",
			treatment: "cover",
			textBox: { x0: 136, y0: 1090, x1: 185, y1: 1356 },
		});
		const blocks = settlePage([[balloon], [cover]], "manga");
		expect(blocks).toHaveLength(1);
		expect(blocks[0]).toMatchObject({
			regionIds: [0, 1],
			text: "急がないと間に合わない",
			translation: "We must hurry or we will be late.",
			treatment: "replace",
			container: { kind: "balloon" },
			textBox: balloon.textBox,
		});
	});

	it("puts free lettering erased by another crop into the balloon around it, whichever crop came first", () => {
		const free = block(1, { textBox: { x0: 150, y0: 1130, x1: 178, y1: 1290 } });
		const blocks = settlePage([[free], [{ ...balloon, regionIds: [0] }]], "manga");
		expect(blocks.map((b) => [b.regionIds, b.container.kind])).toEqual([[[0, 1], "balloon"]]);
	});

	it("keeps a cover that lies in a balloon but outside the lettering found there", () => {
		// The balloon's lettering was found in its upper half; the cover is over unfound lettering below.
		const upper = { ...balloon, textBox: { x0: 149, y0: 1090, x1: 211, y1: 1150 } };
		const cover = block(1, { treatment: "cover", textBox: { x0: 150, y0: 1250, x1: 210, y1: 1330 } });
		const blocks = settlePage([[upper], [cover]], "manga");
		expect(blocks.map((b) => b.treatment)).toEqual(["replace", "cover"]);
	});

	it("keeps the fuller of two readings of one balloon found by two crops, with its translation", () => {
		// The first crop's region was read short (a tile's edge cut the balloon), the second's whole.
		const short = { ...balloon, regionIds: [0], text: "急がないと", translation: "We must hurry" };
		const whole = {
			...balloon,
			id: 1,
			regionIds: [1],
			text: "急がないと間に合わない",
			translation: "We must hurry or we will be late.",
		};
		for (const crops of [
			[[short], [whole]],
			[[whole], [short]],
		]) {
			const blocks = settlePage(crops, "manga");
			expect(blocks.map((b) => [b.regionIds, b.text, b.translation])).toEqual([
				[[0, 1], "急がないと間に合わない", "We must hurry or we will be late."],
			]);
		}
	});
});
