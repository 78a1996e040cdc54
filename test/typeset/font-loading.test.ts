import { describe, expect, it } from "vitest";
import { typesetPage } from "../../src/pipeline/typeset";
import { FONT_BUDGET_BYTES, loadedFontBytes } from "../../src/pipeline/typeset/font-cache";
import { block, options } from "./block";
import { loadFont } from "./fonts";

/** Typesets one region and returns the font files the request had to fetch. */
async function fetched(text: string, targetLanguage: string): Promise<string[]> {
	const files: string[] = [];
	const counting = async (file: string) => {
		files.push(file);
		return loadFont(file);
	};
	const box = { x0: 0, y0: 0, x1: 300, y1: 120 };
	await typesetPage([block(text, box)], {
		...options(targetLanguage, "general", { width: 400, height: 200 }, "en"),
		loadFont: counting,
	});
	return files;
}

// One module instance per test file: the order of these tests is the isolate's history.
describe("fonts are loaded on first use and kept in the isolate", () => {
	it("loads only the face of the target's script", async () => {
		expect(await fetched("สวัสดีครับ", "th")).toEqual(["NotoSansThai-Regular.ttf"]);
	});

	it("does not fetch a face again for the next request", async () => {
		expect(await fetched("ขอบคุณมาก", "th")).toEqual([]);
	});

	it("loads the Latin fallback only when the text needs it", async () => {
		expect(await fetched("ลดราคาวันนี้", "th")).toEqual([]);
		expect(await fetched("ส่งฟรี iPhone 15", "th")).toEqual(["NotoSans-Regular.ttf"]);
	});

	it("loads a CJK language's core, and the shared ideographs only for a rarer character", async () => {
		expect(await fetched("本当にありがとう、Tokyo", "ja")).toEqual(["NotoSansCJKjp-Regular.otf"]);
		expect(await fetched("我们", "ja")).toEqual(["NotoSansCJK-Ideographs-Regular.otf"]);
	});

	it("releases idle faces beyond the byte budget", async () => {
		await fetched("정말 고마워요", "ko");
		await fetched("这是简体中文", "zh");
		await fetched("這是繁體中文", "zh-tw");
		expect(loadedFontBytes()).toBeLessThanOrEqual(FONT_BUDGET_BYTES);
		// All the faces used in this file add up to more than the budget: the least recently used
		// (Thai, then the Latin fallback) went first, the CJK faces used since are still there.
		expect(await fetched("本当にありがとう", "ja")).toEqual([]);
		expect(await fetched("ส่งฟรี iPhone 15", "th")).toEqual(["NotoSansThai-Regular.ttf", "NotoSans-Regular.ttf"]);
	});
});
