import { describe, expect, it } from "vitest";
import { intersects } from "../../src/pipeline/patch";
import type { Box, TextBlock } from "../../src/pipeline/types";
import { type BlockPlan, planPage } from "../../src/pipeline/typeset";
import { block, box, options } from "./block";

/**
 * A cover's panel is opaque: wherever it reaches another block, it hides that block's translation,
 * or lettering kept as drawn. Covers on one page never collide with what else is set there.
 */

/** A block covered where its lettering could not be told from the art: its area is all layout knows. */
function covered(id: number, translation: string, area: Box, extra: Partial<TextBlock> = {}): TextBlock {
	return block(
		translation,
		{ kind: "free", box: area },
		{
			id,
			regionIds: [id],
			textBox: area,
			treatment: "cover",
			backgroundColor: [240, 240, 240],
			...extra,
		},
	);
}

/** The block's panel in image px. */
function panelOf(p: BlockPlan): Box {
	const panel = p.panel;
	if (!panel) throw new Error(`block ${p.blockId} has no panel`);
	const { x0, y0 } = p.area;
	return { x0: x0 + panel.x, y0: y0 + panel.y, x1: x0 + panel.x + panel.width, y1: y0 + panel.y + panel.height };
}

function inkOf(p: BlockPlan): Box {
	if (!p.ink) throw new Error(`block ${p.blockId} has no text`);
	return p.ink;
}

async function planned(blocks: TextBlock[]) {
	const page = await planPage(blocks, options("en"));
	page.release();
	return page;
}

describe("covers beside other blocks", () => {
	it("two covers whose areas overlap each keep their own side: no panel over the other's translation", async () => {
		// A caption read in two pieces whose areas (the reader's box and a fifth) overlap.
		const left = covered(1, "Wait", box(86, 45, 180, 27));
		const right = covered(2, "a moment", box(205, 42, 187, 29));
		const { blocks } = await planned([left, right]);
		const [a, b] = blocks as [BlockPlan, BlockPlan];
		expect(intersects(panelOf(a), panelOf(b))).toBe(false);
		expect(intersects(inkOf(a), panelOf(b))).toBe(false);
		expect(intersects(inkOf(b), panelOf(a))).toBe(false);
		// Each still hides the part of its area no other block shares.
		expect(panelOf(a).x0).toBeLessThanOrEqual(86);
		expect(panelOf(b).x1).toBeGreaterThanOrEqual(392);
	});

	it("two covers of lines stacked close keep apart, above and below", async () => {
		const top = covered(1, "Thank you", box(70, 200, 170, 40));
		const bottom = covered(2, "so much", box(80, 232, 150, 40));
		const { blocks } = await planned([top, bottom]);
		const [a, b] = blocks as [BlockPlan, BlockPlan];
		expect(intersects(panelOf(a), panelOf(b))).toBe(false);
		expect(inkOf(a).y1).toBeLessThanOrEqual(panelOf(b).y0);
	});

	it("a cover stops where a block set on erased lettering may put its translation", async () => {
		const set = block("Hello there", box(300, 100, 200, 60), { id: 1, regionIds: [1] });
		const cover = covered(2, "Sale", box(180, 110, 150, 40));
		const { blocks } = await planned([set, cover]);
		const replaced = blocks.find((p) => p.blockId === 1) as BlockPlan;
		const panel = panelOf(blocks.find((p) => p.blockId === 2) as BlockPlan);
		expect(intersects(panel, replaced.room)).toBe(false);
		expect(intersects(panel, inkOf(replaced))).toBe(false);
	});

	it("a cover beside lettering erased on the art runs on to it, and that block's translation gives way", async () => {
		// "Where are you going?" read in two pieces: "you going?" found and erased, "Where are" covered.
		// The covered piece's "re" lies within the erased piece's margin, short of its lettering (x 234).
		const erased = block(
			"text",
			{ kind: "free", box: box(227, 388, 156, 60) },
			{
				id: 1,
				regionIds: [1],
				textBox: box(234, 395, 142, 46),
				sourceSize: 30,
			},
		);
		const cover = covered(2, "Translated", box(127, 383, 126, 55));
		const { blocks } = await planned([cover, erased]);
		const panel = panelOf(blocks.find((p) => p.blockId === 2) as BlockPlan);
		const set = blocks.find((p) => p.blockId === 1) as BlockPlan;
		expect(panel.x1).toBeGreaterThanOrEqual(232);
		expect(intersects(panel, erased.textBox)).toBe(false);
		expect(intersects(panel, inkOf(set))).toBe(false);
		expect(intersects(panel, set.room)).toBe(false);
	});

	it("a cover leaves lettering kept as drawn (a brand name) uncovered", async () => {
		const brand = block("ACME", box(250, 300, 80, 30), { id: 1, regionIds: [1], text: "ACME", treatment: "keep" });
		const cover = covered(2, "soldes", box(150, 296, 130, 38));
		const { blocks } = await planned([brand, cover]);
		expect(blocks).toHaveLength(1);
		expect(intersects(panelOf(blocks[0] as BlockPlan), brand.textBox)).toBe(false);
	});

	it("a cover with no room left outside another block's is not drawn, and is reported", async () => {
		const balloon = block(
			"Where are you going?",
			{ kind: "balloon", box: box(100, 100, 300, 200) },
			{
				id: 1,
				regionIds: [1],
				textBox: box(150, 150, 200, 100),
				role: "dialogue",
			},
		);
		const inside = covered(2, "going", box(260, 170, 60, 30));
		const { blocks, overflow } = await planned([balloon, inside]);
		expect(blocks.map((p) => p.blockId)).toEqual([1]);
		expect(overflow).toEqual([2]);
	});

	it("two readings of one place are left to cover it both (no line parts them)", async () => {
		const one = covered(1, "Exit", box(100, 100, 120, 40));
		const again = covered(2, "", box(102, 101, 118, 40));
		const { blocks } = await planned([one, again]);
		for (const p of blocks) expect(panelOf(p).x0).toBeLessThanOrEqual(100);
	});
});
