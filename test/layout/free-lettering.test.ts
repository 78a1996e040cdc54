import { describe, expect, it } from "vitest";
import type { Box, TranslatedRegion } from "../../src/pipeline/types";
import { layOut } from "../support/lay-out";
import { Page, rough } from "./page";

/**
 * Lettering on open paper, no balloon or panel around it (a title, a caption on the art), read
 * with rough boxes: what is found and where the translation may go do not depend on how the box
 * fell.
 */

function region(id: number, text: string, box: Box, translation: string): TranslatedRegion {
	return { id, text, box, vertical: false, translation };
}

function lay(page: Page, regions: TranslatedRegion[]) {
	const erased = page.copy();
	const { blocks } = layOut(erased, regions, "general");
	return { blocks, erased };
}

describe("free lettering read with rough boxes", () => {
	it("erases a heavy glyph that the title's two regions cut in the middle, and sets the title as one block", () => {
		const page = new Page(360, 120);
		const title = page.write(["HI■THERE"], 60, 40, 3);
		// The glyph "■" spans x 96..111: one region stops just past its left edge, the other starts just before its right.
		const regions = [
			region(0, "HI■", { ...title.box, x1: 97 }, "Hello"),
			region(1, "THERE", { ...title.box, x0: 110 }, "there"),
		];
		const { blocks, erased } = lay(page, regions);
		expect(page.lettersLeft(erased)).toBe(0);
		expect(page.artChanged(erased)).toBe(0);
		expect(blocks.map((b) => [b.treatment, b.translation])).toEqual([["replace", "Hello there"]]);
	});

	it("sets a line read as two regions between two of its glyphs as one block", () => {
		const page = new Page(360, 120);
		// Written without spaces, as Japanese is: the regions meet between "Y" and "N".
		const line = page.write(["WHYNOT"], 60, 40, 3);
		const cutAt = 60 + 3 * 18;
		const regions = [
			region(0, "WHY", rough.moved({ ...line.box, x1: cutAt - 2 }, 0, 0.1), "Pourquoi"),
			region(1, "NOT", rough.moved({ ...line.box, x0: cutAt }, 0, -0.1), "pas"),
		];
		const { blocks, erased } = lay(page, regions);
		expect(page.lettersLeft(erased)).toBe(0);
		expect(blocks.map((b) => [b.text, b.translation])).toEqual([["WHY NOT", "Pourquoi pas"]]);
	});

	it("finds the rest of a line past a word space wider than the box's margin, the box cut short before it", () => {
		const page = new Page(360, 120);
		const hello = page.write(["HELLO"], 40, 40, 3);
		// A word space of 10 px: past the few pixels the work patch adds to a box, within a glyph's reach.
		const there = page.write(["THERE"], hello.box.x1 + 10, 40, 3);
		const { blocks, erased } = lay(page, [region(0, "HELLO THERE", hello.box, "Bonjour")]);
		expect(page.lettersLeft(erased)).toBe(0);
		expect(blocks.map((b) => b.textBox.x1)).toEqual([there.box.x1]);
	});

	it("keeps two words far apart on one line as two blocks", () => {
		const page = new Page(420, 120);
		const left = page.write(["HELLO"], 30, 40, 3);
		const right = page.write(["THERE"], 280, 40, 3);
		const { blocks } = lay(page, [region(0, "HELLO", left.box, "Hi"), region(1, "THERE", right.box, "there")]);
		expect(blocks.map((b) => b.translation)).toEqual(["Hi", "there"]);
	});

	it("gives the translation the same room from a box cut short as from an exact box", () => {
		const page = new Page(320, 220);
		const text = page.write(["HELLO", "THERE", "WORLD"], 100, 40, 3);
		const exact = lay(page, [region(0, "HELLO THERE WORLD", text.box, "Hi")]).blocks;
		const cut = lay(page, [region(0, "HELLO THERE WORLD", rough.cut(text.box, "top", 0.4), "Hi")]).blocks;
		expect(cut.map((b) => b.textBox)).toEqual(exact.map((b) => b.textBox));
		expect(cut.map((b) => b.container)).toEqual(exact.map((b) => b.container));
	});
});
