import { describe, expect, it } from "vitest";
import { fontFilesFor } from "../../src/pipeline/typeset/fonts";
import { block, planOne } from "./block";

const box = { x0: 0, y0: 0, x1: 400, y1: 120 };

describe("text left in the source script", () => {
	it("is drawn with the source language's face when the target's faces lack it", async () => {
		// block.ts plans with a Japanese source.
		const mixed = await planOne(block("Thank you, 田中さん!", box), "en");
		const latinOnly = await planOne(block("Thank you, Tanaka!", box), "en");
		expect(mixed?.overflowed).toBe(false);
		// Every character becomes a glyph: the kanji and kana are not dropped.
		const glyphs = (d: typeof mixed) => d?.glyphs.length ?? 0;
		expect(glyphs(mixed)).toBe("Thankyou,田中さん!".length);
		expect(glyphs(latinOnly)).toBe("Thankyou,Tanaka!".length);
	});

	it("adds the source's faces after the target's, and none for auto", () => {
		expect(fontFilesFor("en", "general", "ja")).toEqual([
			"NotoSans-Regular.ttf",
			"NotoSansCJKjp-Regular.otf",
			"NotoSansCJK-Ideographs-Regular.otf",
		]);
		expect(fontFilesFor("en", "general", "auto")).toEqual(["NotoSans-Regular.ttf"]);
		expect(fontFilesFor("ja", "general", "ja")).toEqual(fontFilesFor("ja", "general"));
	});
});
