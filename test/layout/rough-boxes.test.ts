import { describe, expect, it } from "vitest";
import { overlap } from "../../src/pipeline/patch";
import type { Box, TextBlock, TranslatedRegion } from "../../src/pipeline/types";
import type { Mode } from "../../src/request/options";
import { roughen } from "../fakes/rough.mjs";
import { layOut } from "../support/lay-out";
import { Page, rough } from "./page";

/**
 * Boxes as real vision models give them: centre off by up to 12% of the box, size -20% to +30%,
 * cut short to part of the lettering, two balloons merged into one region, one split in two, the
 * same balloon read twice. The pixels decide where the lettering is.
 */

function region(id: number, text: string, box: Box, translation = "Translated", extra: Partial<TranslatedRegion> = {}) {
	return { id, text, box, vertical: false, translation, ...extra };
}

function lay(page: Page, regions: TranslatedRegion[], mode: Mode = "manga") {
	const erased = page.copy();
	const { blocks } = layOut(erased, regions, mode);
	return { blocks, erased };
}

const inside = (outer: Box, inner: Box, slack = 0) =>
	inner.x0 >= outer.x0 - slack &&
	inner.y0 >= outer.y0 - slack &&
	inner.x1 <= outer.x1 + slack &&
	inner.y1 <= outer.y1 + slack;

/** A white balloon in hatched art, three lines of lettering in it. */
function balloonPage() {
	const page = new Page(360, 260).hatch({ x0: 0, y0: 0, x1: 360, y1: 260 });
	page.balloon(180, 130, 125, 85);
	const text = page.write(["HELLO", "THERE", "WORLD"], 137, 93, 3);
	return { page, text };
}

describe("a reader's box is a hint: the lettering is found in the pixels", () => {
	it("erases all of a balloon's lettering from a box covering half of it, moved by 12%", () => {
		const { page, text } = balloonPage();
		const box = rough.moved(rough.cut(text.box, "left", 0.5), 0.12, -0.12);
		const { blocks, erased } = lay(page, [region(0, "HELLO THERE WORLD", box)]);
		expect(page.lettersLeft(erased)).toBe(0);
		expect(page.artChanged(erased)).toBe(0);
		expect(blocks).toHaveLength(1);
		const [block] = blocks as [TextBlock];
		expect(block.container.kind).toBe("balloon");
		expect(inside(block.container.box, text.box)).toBe(true);
		expect(inside(text.box, block.textBox, 2) && inside(block.textBox, text.box, 2)).toBe(true);
	});

	it("finds the balloon from a box that misses it by 10%", () => {
		const page = new Page(300, 200).grain({ x0: 0, y0: 0, x1: 300, y1: 200 });
		page.balloon(150, 100, 75, 48);
		const text = page.write(["HELLO", "WORLD"], 107, 76, 3);
		// The box reaches past the balloon's right edge (x 225) by a tenth of its width.
		const width = 110;
		const box = { x0: 225 + 0.1 * width - width, y0: text.box.y0 - 4, x1: 225 + 0.1 * width, y1: text.box.y1 + 4 };
		const { blocks, erased } = lay(page, [region(0, "HELLO WORLD", box)]);
		expect(page.lettersLeft(erased)).toBe(0);
		expect(page.artChanged(erased)).toBe(0);
		expect(blocks.map((b) => b.container.kind)).toEqual(["balloon"]);
	});

	it("gives a balloon's body, not its tail, as the room for the translation", () => {
		const page = new Page(360, 280).gradient({ x0: 0, y0: 0, x1: 360, y1: 280 }, 240, 200);
		// A flat balloon, its tail rising 150 px above it.
		page.balloonWithTail(180, 220, 120, 40, [300, 20]);
		const text = page.write(["HELLO"], 166, 209, 3);
		const { blocks, erased } = lay(page, [region(0, "HELLO", rough.scaled(text.box, 1.2), "See you tomorrow")]);
		expect(page.lettersLeft(erased)).toBe(0);
		expect(page.artChanged(erased)).toBe(0);
		const [block] = blocks as [TextBlock];
		expect(block.container.kind).toBe("balloon");
		// No more of the tail than its root, where it leaves the outline (the ellipse's top is at y 180).
		expect(block.container.box.y0).toBeGreaterThan(165);
		// The whole width of the body, to its pointed ends: every white pixel of the row through its middle.
		let x0 = 180;
		let x1 = 180;
		while (page.at(x0 - 1, 220)[0] === 255) x0--;
		while (page.at(x1, 220)[0] === 255) x1++;
		expect(block.container.box.x0).toBeLessThanOrEqual(x0);
		expect(block.container.box.x1).toBeGreaterThanOrEqual(x1);
	});

	it("finds every column of a vertical balloon from a box around one column, 20% too small", () => {
		const page = new Page(300, 300).hatch({ x0: 0, y0: 0, x1: 300, y1: 300 }, 9);
		page.balloon(150, 150, 80, 110);
		const text = page.write(["HELLO", "THERE", "WORLD"], 100, 90, 3, { vertical: true });
		const column = text.lines[0]!.box;
		const box = rough.scaled(column, 0.8);
		const { blocks, erased } = lay(page, [region(0, "HELLO THERE WORLD", box, "Translated", { vertical: true })]);
		expect(page.lettersLeft(erased)).toBe(0);
		expect(page.artChanged(erased)).toBe(0);
		expect(blocks).toHaveLength(1);
		expect(blocks[0]!.container.kind).toBe("balloon");
		// The translation is fitted to the balloon, not to the one column the reader boxed.
		expect(blocks[0]!.container.box.x1 - blocks[0]!.container.box.x0).toBeGreaterThan(150);
	});

	it("erases free lettering on open paper past a box cut short to its first line", () => {
		const page = new Page(320, 220);
		page.hatch({ x0: 0, y0: 160, x1: 320, y1: 220 });
		const text = page.write(["HELLO", "THERE", "WORLD"], 100, 40, 3);
		const box = rough.scaled(text.lines[0]!.box, 1.1);
		const { blocks, erased } = lay(page, [region(0, "HELLO THERE WORLD", box)], "general");
		expect(page.lettersLeft(erased)).toBe(0);
		expect(page.artChanged(erased)).toBe(0);
		expect(blocks.map((b) => [b.container.kind, b.treatment])).toEqual([["free", "replace"]]);
		expect(inside(blocks[0]!.textBox, text.box, 1)).toBe(true);
	});
});

describe("regions merged, split and repeated become the blocks the page holds", () => {
	it("gives one block for two regions in one balloon, their texts joined in reading order", () => {
		const { page, text } = balloonPage();
		const [first, second, third] = text.lines.map((l) => l.box) as [Box, Box, Box];
		const lower = { ...second, y1: third.y1 };
		const regions = [
			region(0, "THERE WORLD", rough.moved(rough.scaled(lower, 1.2), -0.1, 0.05), "there, world"),
			region(1, "HELLO", rough.moved(rough.scaled(first, 0.9), 0.12, 0), "Hello"),
		];
		const { blocks, erased } = lay(page, regions);
		expect(page.lettersLeft(erased)).toBe(0);
		expect(blocks).toHaveLength(1);
		expect(blocks[0]).toMatchObject({
			text: "HELLO THERE WORLD",
			translation: "Hello there, world",
			regionIds: [1, 0],
		});
	});

	it("gives one block for the same balloon read twice, its text once", () => {
		const { page, text } = balloonPage();
		const regions = [
			region(0, "HELLO THERE WORLD", rough.moved(rough.scaled(text.box, 0.8), 0.1, 0.1), "Hi there"),
			// Overlapping tiles: the second copy cut by the tile's edge.
			region(1, "HELLO THERE", rough.cut(rough.scaled(text.box, 1.3), "top", 0.6), "Hi"),
		];
		const { blocks, erased } = lay(page, regions);
		expect(page.lettersLeft(erased)).toBe(0);
		expect(blocks).toHaveLength(1);
		expect(blocks[0]).toMatchObject({ text: "HELLO THERE WORLD", translation: "Hi there" });
		expect([...blocks[0]!.regionIds].sort()).toEqual([0, 1]);
	});

	/** Two balloons side by side, a line each, read by the model as one region. */
	/** A lit wall with a red sign and a green one, white lettering on each (from `at`, `scale` px a cell). */
	function twoSigns(red: Box, green: Box, lettering: { lines: string[]; at: [number, number]; scale: number }[]) {
		const page = new Page(420, 260).gradient({ x0: 0, y0: 0, x1: 420, y1: 260 });
		page.panel(red, [200, 16, 46, 255], 0).panel(green, [31, 111, 63, 255], 0);
		for (const { lines, at, scale } of lettering)
			page.write(lines, at[0], at[1], scale, { colour: [250, 250, 250, 255] });
		return page;
	}

	function twoBalloons() {
		const page = new Page(420, 200).hatch({ x0: 0, y0: 0, x1: 420, y1: 200 }, 8);
		page.balloon(110, 100, 90, 60).balloon(310, 100, 90, 60);
		const left = page.write(["HELLO", "THERE"], 67, 74, 3);
		const right = page.write(["NO"], 293, 90, 3);
		return {
			page,
			left,
			right,
			box: { x0: left.box.x0 - 6, y0: left.box.y0 - 5, x1: right.box.x1 + 8, y1: left.box.y1 + 4 },
		};
	}

	it("splits a region over two balloons by the lines the reader gave, one block each", () => {
		const { page, left, right, box } = twoBalloons();
		const lines = [...left.lines, ...right.lines];
		const merged = region(0, "HELLO THERE NO", box, "Hello there. No.", { lines });
		const { blocks, erased } = lay(page, [merged]);
		expect(page.lettersLeft(erased)).toBe(0);
		expect(page.artChanged(erased)).toBe(0);
		expect(blocks.map((b) => [b.text, b.translation, b.container.kind])).toEqual([
			["HELLO THERE", "Hello there.", "balloon"],
			["NO", "No.", "balloon"],
		]);
		expect(inside(blocks[1]!.container.box, right.box)).toBe(true);
	});

	it("finds a caption panel from a box that runs off its edge onto screentone", () => {
		const page = new Page(360, 200).hatch({ x0: 0, y0: 0, x1: 360, y1: 200 }, 4, 2);
		const panel = { x0: 40, y0: 40, x1: 250, y1: 120 };
		page.panel(panel, [250, 220, 110, 255]);
		const text = page.write(["HELLO", "THERE"], 150, 60, 3);
		// 12% to the right and 15% down, 20% too large: its right side and bottom lie on the hatching.
		const box = rough.moved(rough.scaled(text.box, 1.2), 0.12, 0.15);
		expect(box.x1).toBeGreaterThan(panel.x1);
		const { blocks, erased } = lay(page, [region(0, "HELLO THERE", box)]);
		expect(page.lettersLeft(erased)).toBe(0);
		expect(page.artChanged(erased)).toBe(0);
		expect(blocks.map((b) => [b.container.kind, b.treatment])).toEqual([["panel", "replace"]]);
		expect(inside(panel, blocks[0]!.container.box, 1)).toBe(true);
	});

	it("finds a dark caption panel on a sky a little lighter than it, from a box wider than the panel", () => {
		// The sky is 22 to 26 levels off the panel: no outline, only a step in colour at the panel's edge.
		const page = new Page(360, 200).gradient({ x0: 0, y0: 0, x1: 360, y1: 200 }, 70, 66);
		const panel = { x0: 80, y0: 50, x1: 280, y1: 130 };
		page.panel(panel, [44, 44, 44, 255], 0);
		const text = page.write(["HELLO", "THERE"], 136, 62, 3, { colour: [240, 240, 240, 255] });
		const box = { x0: panel.x0 - 12, y0: text.box.y0 - 2, x1: panel.x1 + 12, y1: text.box.y1 - 10 };
		const { blocks, erased } = lay(page, [region(0, "HELLO THERE", box)]);
		expect(page.lettersLeft(erased)).toBe(0);
		expect(page.artChanged(erased)).toBe(0);
		expect(blocks.map((b) => [b.container.kind, b.treatment])).toEqual([["panel", "replace"]]);
		expect(blocks[0]!.container.box).toEqual(panel);
	});

	it("takes lettering on a flat rectangle far larger than it, a door or a wall, as lettering on art", () => {
		const page = new Page(400, 400).gradient({ x0: 0, y0: 0, x1: 400, y1: 400 });
		const door = { x0: 40, y0: 40, x1: 360, y1: 360 };
		page.panel(door, [58, 42, 32, 255], 4);
		const text = page.write(["HELLO"], 130, 70, 5, { colour: [240, 230, 210, 255] });
		const { blocks, erased } = lay(page, [region(0, "HELLO", text.box)], "general");
		expect(page.lettersLeft(erased)).toBe(0);
		expect(blocks.map((b) => [b.container.kind, b.treatment])).toEqual([["free", "replace"]]);
		// The translation's room is around the lettering, not the middle of the door.
		expect(inside(door, blocks[0]!.container.box)).toBe(true);
		expect(blocks[0]!.container.box.y1).toBeLessThan(140);
	});

	it("gives each of two signs on a lit wall its block when the reader read them as one", () => {
		const page = twoSigns({ x0: 30, y0: 30, x1: 260, y1: 100 }, { x0: 200, y0: 150, x1: 390, y1: 220 }, [
			{ lines: ["HELLO", "THERE"], at: [50, 38], scale: 3 },
			{ lines: ["NO", "WAY"], at: [250, 158], scale: 3 },
		]);
		const box = { x0: 20, y0: 24, x1: 400, y1: 228 };
		const { blocks, erased } = lay(page, [region(0, "HELLO THERE NO WAY", box, "Hello there. No way.")]);
		expect(page.lettersLeft(erased)).toBe(0);
		expect(page.artChanged(erased)).toBe(0);
		expect(blocks.map((b) => [b.translation, b.container.kind])).toEqual([
			["Hello there.", "panel"],
			["No way.", "panel"],
		]);
	});

	it("shares a merged region's translation out at a sentence end when the reader gave no lines", () => {
		const { page, box } = twoBalloons();
		const merged = region(0, "HELLO THERE NO", box, "Hello there, my friend. No.");
		const { blocks, erased } = lay(page, [merged]);
		expect(page.lettersLeft(erased)).toBe(0);
		expect(blocks.map((b) => b.translation)).toEqual(["Hello there, my friend.", "No."]);
	});

	it("shares a merged region out by the characters each sign holds, not by how large they are lettered", () => {
		// Seven cells each; the banner's letters are twice the label's, so hold four times their ink.
		const page = twoSigns({ x0: 20, y0: 20, x1: 300, y1: 100 }, { x0: 220, y0: 160, x1: 400, y1: 220 }, [
			{ lines: ["HOT TEA"], at: [34, 40], scale: 6 },
			{ lines: ["ON SALE"], at: [247, 180], scale: 3 },
		]);
		const box = { x0: 14, y0: 14, x1: 406, y1: 226 };
		const merged = region(0, "HOT TEA ON SALE", box, "Thé chaud en promo");
		const { blocks, erased } = lay(page, [merged], "e-commerce");
		expect(page.lettersLeft(erased)).toBe(0);
		expect(blocks.map((b) => [b.text, b.translation])).toEqual([
			["HOT TEA", "Thé chaud"],
			["ON SALE", "en promo"],
		]);
	});

	it("translates both containers of a merged region whose box was cut short to the first", () => {
		const page = new Page(460, 200).hatch({ x0: 0, y0: 0, x1: 460, y1: 200 }, 8);
		const caption = { x0: 20, y0: 20, x1: 200, y1: 90 };
		page.panel(caption, [246, 220, 106, 255]).balloon(340, 120, 100, 55);
		const first = page.write(["LATER", "THAT NITE"], 40, 30, 3);
		const second = page.write(["WHO IS", "THERE!"], 300, 94, 3);
		// The model read the caption and the balloon as one region, then boxed the caption alone.
		const box = rough.moved(rough.scaled(first.box, 1.1), 0.05, 0.1);
		expect(box.x1).toBeLessThan(240);
		const merged = region(0, "LATER THAT NITE WHO IS THERE!", box, "Plus tard dans la nuit. Qui est là ?");
		const { blocks, erased } = lay(page, [merged]);
		expect(page.lettersLeft(erased)).toBe(0);
		expect(page.artChanged(erased)).toBe(0);
		expect(blocks.map((b) => [b.text, b.translation, b.container.kind])).toEqual([
			["LATER THAT NITE", "Plus tard dans la nuit.", "panel"],
			["WHO IS THERE!", "Qui est là ?", "balloon"],
		]);
		expect(inside(blocks[1]!.container.box, second.box)).toBe(true);
	});
});

describe("the page is never left with lettering under a translation", () => {
	it("keeps a brand name the model left unchanged exactly as drawn", () => {
		const page = new Page(240, 120).grain({ x0: 0, y0: 0, x1: 240, y1: 120 }, 5, 180, 40);
		const text = page.write(["SONY"], 70, 45, 4);
		const { blocks, erased } = lay(page, [region(0, "SONY", rough.scaled(text.box, 1.2), "Sony")], "e-commerce");
		expect(blocks.map((b) => b.treatment)).toEqual(["keep"]);
		expect(Array.from(erased.data)).toEqual(Array.from(page.raster.data));
	});

	it("never takes a neighbour's lettering, even where the box reaches over it", () => {
		const page = new Page(360, 160);
		const brand = page.write(["SONY"], 210, 60, 4);
		const words = page.write(["HELLO"], 30, 64, 4);
		const regions = [
			// Moved right by 12% and 30% too large: the box reaches into the brand name.
			region(0, "HELLO", rough.moved(rough.scaled(words.box, 1.3), 0.12, 0), "Hi"),
			region(1, "SONY", brand.box, "Sony"),
		];
		const { blocks, erased } = lay(page, regions, "general");
		expect(blocks.map((b) => b.treatment)).toEqual(["replace", "keep"]);
		expect(page.lettersLeft(erased, words.box)).toBe(0);
		expect(page.lettersLeft(erased, brand.box)).toBe(countIn(page, brand.box));
	});

	it("covers lettering it cannot tell from the art, and the cover reaches over all of it", () => {
		// Letters drawn over grain that runs from black to white: no colour tells them apart.
		const page = new Page(300, 160).grain({ x0: 0, y0: 0, x1: 300, y1: 160 }, 9, 0, 255);
		const text = page.write(["HELLO", "WORLD"], 90, 48, 4);
		const { blocks, erased } = lay(page, [
			region(0, "HELLO WORLD", rough.moved(rough.scaled(text.box, 0.85), 0.08, 0.1)),
		]);
		expect(blocks.map((b) => b.treatment)).toEqual(["cover"]);
		expect(page.artChanged(erased)).toBe(0);
		expectNothingPrintedOverLettering(page, erased, blocks);
	});

	it("covers it with a panel in the colour of the art around it, not of the lettering", () => {
		// Grain from black to white: its median is mid grey. The lettering fills much of its box, whose
		// commonest colour is then the ink.
		const page = new Page(300, 160).grain({ x0: 0, y0: 0, x1: 300, y1: 160 }, 9, 0, 255);
		const text = page.write(["HELLO", "WORLD"], 90, 48, 4);
		const { blocks } = lay(page, [region(0, "HELLO WORLD", rough.moved(rough.scaled(text.box, 0.85), 0.08, 0.1))]);
		expect(blocks.map((b) => b.treatment)).toEqual(["cover"]);
		for (const v of blocks[0]!.backgroundColor) expect(Math.abs(v - 128)).toBeLessThan(24);
	});

	it("on a page of balloons, captions and art with every kind of rough box", () => {
		const page = new Page(640, 420).hatch({ x0: 0, y0: 0, x1: 640, y1: 420 }, 9, 1);
		page.balloon(130, 110, 110, 80).balloon(400, 100, 120, 75).balloon(520, 300, 105, 90);
		page.panel({ x0: 30, y0: 300, x1: 290, y1: 380 });
		const a = page.write(["HELLO", "THERE"], 88, 84, 3);
		const b = page.write(["NO", "WAY", "OUT"], 370, 66, 3, { vertical: true });
		const c = page.write(["WHY", "NOT", "TRY", "IT"], 470, 259, 3);
		const d = page.write(["THE", "END"], 60, 316, 3);
		const regions = [
			region(0, "HELLO THERE", rough.moved(rough.scaled(a.box, 0.8), 0.12, -0.12), "Hi there!"),
			region(1, "NO WAY OUT", rough.scaled(b.lines[0]!.box, 1.3), "No way out.", { vertical: true }),
			region(2, "NO WAY", rough.moved(b.box, -0.1, 0), "No way.", { vertical: true }),
			region(3, "WHY NOT", rough.scaled(c.lines[0]!.box, 1.2), "Why not"),
			region(4, "TRY IT", rough.moved(rough.scaled({ ...c.lines[2]!.box, y1: c.box.y1 }, 0.9), 0.1, 0.1), "try it?"),
			region(5, "THE END", rough.moved(rough.scaled(d.box, 1.25), -0.12, 0.08), "Fin", { lines: d.lines }),
		];
		const { blocks, erased } = lay(page, regions);
		expect(page.lettersLeft(erased)).toBe(0);
		expect(page.artChanged(erased)).toBe(0);
		expect(blocks.map((block) => [block.text, block.translation, block.container.kind, block.role])).toEqual([
			["HELLO THERE", "Hi there!", "balloon", "dialogue"],
			["NO WAY OUT", "No way out.", "balloon", "dialogue"],
			["WHY NOT TRY IT", "Why not try it?", "balloon", "dialogue"],
			["THE END", "Fin", "panel", "caption"],
		]);
		expectNothingPrintedOverLettering(page, erased, blocks);
	});
});

describe("with the rough reader's boxes", () => {
	it.each([1, 2, 3, 4, 5])("leaves no lettering under a translation and no art damaged (seed %i)", (seed) => {
		const page = new Page(640, 420).hatch({ x0: 0, y0: 0, x1: 640, y1: 420 }, 9, 1);
		page.balloon(130, 110, 110, 80).balloon(400, 100, 120, 75).balloon(520, 300, 105, 90);
		page.panel({ x0: 30, y0: 300, x1: 290, y1: 380 });
		const drawn = [
			{ text: "HELLO THERE", ...page.write(["HELLO", "THERE"], 88, 84, 3), vertical: false },
			{ text: "NO WAY OUT", ...page.write(["NO", "WAY", "OUT"], 370, 66, 3, { vertical: true }), vertical: true },
			{ text: "WHY NOT TRY IT", ...page.write(["WHY", "NOT", "TRY", "IT"], 470, 259, 3), vertical: false },
			{ text: "THE END", ...page.write(["THE", "END"], 60, 316, 3), vertical: false },
		];
		const exact = drawn.map(({ text, box, lines, vertical }) => ({
			text,
			box,
			lines,
			vertical,
			translation: "Translated.",
		}));
		const round = (b: Box) => ({
			x0: Math.floor(b.x0),
			y0: Math.floor(b.y0),
			x1: Math.ceil(b.x1),
			y1: Math.ceil(b.y1),
		});
		const regions = roughen(exact, {
			seed,
			width: 640,
			height: 420,
			cut: 0.4,
			merge: 0.3,
			split: 0.3,
			duplicate: 0.3,
		}).map((r, id) => ({ ...r, id, box: round(r.box), lines: r.lines?.map((l) => ({ ...l, box: round(l.box) })) }));
		const { blocks, erased } = lay(page, regions);
		expect(page.artChanged(erased)).toBe(0);
		expectNothingPrintedOverLettering(page, erased, blocks);
		// Every balloon holds one block, whatever the reader made of it, and no two blocks' areas meet:
		// no translation is set over another.
		expect(blocks.filter((b) => b.container.kind === "balloon")).toHaveLength(3);
		expect(blocks).toHaveLength(4);
		for (const [k, a] of blocks.entries())
			for (const b of blocks.slice(k + 1)) expect(overlap(a.container.box, b.container.box)).toBe(0);
	});
});

function countIn(page: Page, box: Box): number {
	let n = 0;
	for (let y = box.y0; y < box.y1; y++) for (let x = box.x0; x < box.x1; x++) n += page.lettering[y * page.width + x]!;
	return n;
}

/**
 * Typesetting draws a block's translation inside its container (replace) or on a panel over its
 * text box (cover): either way, no lettering may be left where it will draw.
 */
function expectNothingPrintedOverLettering(page: Page, erased: ReturnType<Page["copy"]>, blocks: TextBlock[]): void {
	for (const block of blocks) {
		if (block.treatment === "keep") continue;
		const where = block.treatment === "cover" ? block.textBox : block.container.box;
		if (block.treatment === "replace") expect(page.lettersLeft(erased, where)).toBe(0);
		else {
			// Every letter left near the block lies under the panel.
			const around = { x0: where.x0 - 40, y0: where.y0 - 40, x1: where.x1 + 40, y1: where.y1 + 40 };
			expect(page.lettersLeft(erased, around)).toBe(page.lettersLeft(erased, where));
		}
	}
}
