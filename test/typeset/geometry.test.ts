import { describe, expect, it } from "vitest";
import { FontSession } from "../../src/pipeline/typeset";
import { type FitOptions, fitText, layoutAt } from "../../src/pipeline/typeset/fit";
import { fontFilesFor, LATIN, lineSpacing } from "../../src/pipeline/typeset/fonts";
import { Frame } from "../../src/pipeline/typeset/frame";
import type { PlacedGlyph } from "../../src/pipeline/typeset/place";
import { shapeParagraphs } from "../../src/pipeline/typeset/shape";
import { block, box, lines, planOne } from "./block";
import { loadFont } from "./fonts";

const plain = (overrides: Partial<FitOptions> = {}): FitOptions => ({
	vertical: false,
	spacing: 1.2,
	align: "center",
	reach: () => 0,
	halo: () => 0,
	gap: 0,
	...overrides,
});

async function shaped(text: string, language: string, vertical = false) {
	const session = new FontSession(loadFont);
	const result = await shapeParagraphs([text], {
		language,
		fontFiles: fontFilesFor(language, "general"),
		session,
		rightToLeft: language === "ar" || language === "he",
		vertical,
	});
	return { result, session };
}

describe("fitting", () => {
	const sentences: [string, string][] = [
		["en", "Where do you think you are going with my lunch, you thief?"],
		["ru", "Подожди минутку, куда ты идёшь с моим обедом?"],
		["ja", "ちょっと待って、私のお弁当をどこへ持っていくの？"],
		["th", "สวัสดีครับวันนี้อากาศดีมากเราไปเที่ยวกันเถอะ"],
		["hi", "रुको, तुम मेरा खाना लेकर कहाँ जा रहे हो?"],
		["ar", "انتظر، إلى أين تذهب بغدائي أيها اللص؟"],
	];
	for (const [language, text] of sentences) {
		it(`${language}: keeps every line and all ink inside the panel`, async () => {
			const panel = box(100, 100, 260, 150);
			const drawn = await planOne(block(text, panel), language);
			expect(drawn?.overflowed).toBe(false);
			const ink = drawn?.ink;
			if (!drawn || !ink) throw new Error("no layout");
			// Exactly inside (float noise aside): a fraction of a pixel past the edge is drawn on a tight balloon's outline.
			expect(ink.x0).toBeGreaterThanOrEqual(panel.x0 - 1e-6);
			expect(ink.y0).toBeGreaterThanOrEqual(panel.y0 - 1e-6);
			expect(ink.x1).toBeLessThanOrEqual(panel.x1 + 1e-6);
			expect(ink.y1).toBeLessThanOrEqual(panel.y1 + 1e-6);
			// Line count consistent with the size: the lines' pitch times their number fits the height.
			expect(((drawn.lines - 1) * lineSpacing(language) + 1) * drawn.size).toBeLessThanOrEqual(150 + 0.5);
			expect(drawn.lines).toBeGreaterThan(1);
		});
	}

	it("picks the largest size that fits: a little larger does not", async () => {
		const { result, session } = await shaped("Where do you think you are going with my lunch?", "en");
		const frame = Frame.rectangle(box(0, 0, 240, 120));
		const fitted = fitText(result.paragraphs, frame, plain(), 10, 80);
		expect(fitted).not.toBeNull();
		const size = fitted?.size ?? 0;
		expect(size).toBeLessThan(80);
		expect(size).toBeGreaterThan(10);
		expect(layoutAt(result.paragraphs, size * 1.02 + 0.3, frame, plain())).toBeNull();
		// And the answer really is inside the box at that size.
		for (const line of lines(fitted?.glyphs ?? [])) expect(line.length).toBeGreaterThan(0);
		session.release();
	});

	it("never sets text larger than the source lettering", async () => {
		const drawn = await planOne(block("Hi", box(0, 0, 400, 300), { text: "やあ", sourceSize: 25 }), "en");
		expect(drawn?.size).toBeLessThanOrEqual(25 * 1.1 + 0.01);
		expect(drawn?.size).toBeGreaterThan(25);
	});

	it("breaks a word only when nothing else fits", async () => {
		const { result, session } = await shaped("Supercalifragilisticexpialidocious", "en");
		const frame = Frame.rectangle(box(0, 0, 90, 200));
		expect(fitText(result.paragraphs, frame, plain(), 12, 40)).toBeNull();
		const broken = fitText(result.broken(), frame, plain(), 12, 40);
		expect(broken?.lines).toBeGreaterThan(1);
		expect(broken?.ink.x1).toBeLessThanOrEqual(90.5);
		// Every line but the last ends with a hyphen.
		const hyphen = result.broken()[0]?.hyphen;
		const hyphenGlyph = hyphen?.glyphs[0]?.glyph;
		const ends = lines(broken?.glyphs ?? []).map((line) => line[line.length - 1]?.glyph);
		expect(ends.slice(0, -1).every((g) => g === hyphenGlyph)).toBe(true);
		expect(ends[ends.length - 1]).not.toBe(hyphenGlyph);
		expect(ends.length).toBe(broken?.lines);
		const { result: words } = await shaped("A normal sentence of short words", "en");
		expect(fitText(words.paragraphs, frame, plain(), 12, 40)).not.toBeNull();
		session.release();
	});

	it("reports overflow, and stays inside its container, when even the legible minimum does not fit", async () => {
		const text = "This translation is far longer than the little source label it replaces";
		const panel = box(200, 200, 40, 14);
		const squeezed = await planOne(block(text, panel), "en");
		expect(squeezed?.overflowed).toBe(true);
		expect(squeezed?.size).toBeLessThan(10);
		expect(squeezed?.size).toBeGreaterThanOrEqual(6);
		expect(squeezed?.ink?.x0).toBeGreaterThanOrEqual(panel.x0);
		expect(squeezed?.ink?.x1).toBeLessThanOrEqual(panel.x1);
	});

	it("centres lines in manga balloons and keeps the source alignment in e-commerce", async () => {
		const text = "Fresh bread every morning, baked here";
		const b = block(text, box(0, 0, 300, 120), { align: "left" });
		const manga = await planOne(b, "en", "manga");
		const shop = await planOne(b, "en", "e-commerce");
		const left = (d: typeof manga) => lines(d?.glyphs ?? []).map((l) => Math.min(...l.map((g) => g.matrix[4])));
		const shopStarts = left(shop);
		expect(Math.max(...shopStarts) - Math.min(...shopStarts)).toBeLessThan(3);
		const mangaLines = lines(manga?.glyphs ?? []);
		const centres = mangaLines.map(
			(l) => (Math.min(...l.map((g) => g.matrix[4])) + Math.max(...l.map((g) => g.matrix[4]))) / 2,
		);
		expect(mangaLines.length).toBeGreaterThan(1);
		expect(Math.max(...centres) - Math.min(...centres)).toBeLessThan(12);
	});
});

describe("right to left", () => {
	it("orders Arabic right to left with numbers and Latin runs left to right inside", async () => {
		const session = new FontSession(loadFont);
		const latin = await session.get(LATIN);
		const drawing = await planOne(block("مرحبا 123 abc", box(0, 0, 400, 60), { align: "left" }), "ar");
		const glyphs = drawing?.glyphs ?? [];
		const ids = (text: string) => latin.shape(text, "ltr", "en").map((g) => g.glyph);
		const [a, b, c] = ids("abc");
		const xOf = (id: number | undefined) =>
			glyphs.find((g) => g.font === latin && g.glyph === id)?.matrix[4] ?? Number.NaN;
		const arabic = glyphs.filter((g) => g.font !== latin);
		expect(arabic.length).toBeGreaterThan(3);
		// "abc" reads left to right, and sits left of the Arabic word (which starts the line, at the right).
		expect(xOf(a)).toBeLessThan(xOf(b));
		expect(xOf(b)).toBeLessThan(xOf(c));
		const arabicLeft = Math.min(...arabic.filter((g) => g.font.has(0x0645) && g.glyph !== 0).map((g) => g.matrix[4]));
		expect(xOf(c)).toBeLessThan(arabicLeft);
		// Right aligned: the ink ends at the right edge of the panel, less its halo.
		expect(drawing?.ink?.x1).toBeGreaterThan(400 - 8);
		session.release();
	});

	it("right-aligns right-to-left text outside balloons, whatever the source's alignment", async () => {
		for (const align of ["left", "center", "right"] as const) {
			const drawing = await planOne(block("مرحبا بكم", box(0, 0, 400, 60), { align }), "ar", "e-commerce");
			expect(drawing?.ink?.x1, align).toBeGreaterThan(400 - 8);
		}
		const balloon = await planOne(block("مرحبا بكم", { kind: "balloon", box: box(0, 0, 400, 80) }), "ar", "manga");
		const ink = balloon?.ink ?? { x0: 0, x1: 0 };
		expect(Math.abs((ink.x0 + ink.x1) / 2 - 200)).toBeLessThan(3);
	});

	it("puts a Hebrew sentence's first word at the right and its number in reading order", async () => {
		const session = new FontSession(loadFont);
		const hebrew = await session.get("NotoSansHebrew-Regular.ttf");
		const digitFont = hebrew.has(0x32) ? hebrew : await session.get(LATIN);
		const digits = digitFont.shape("25", "ltr", "he").map((g) => g.glyph);
		const drawing = await planOne(block("שלום 25", box(0, 0, 300, 60)), "he");
		const glyphs = drawing?.glyphs ?? [];
		const isDigit = (g: PlacedGlyph) => g.font === digitFont && digits.includes(g.glyph);
		const two = glyphs.find((g) => isDigit(g) && g.glyph === digits[0])?.matrix[4] ?? Number.NaN;
		const five = glyphs.find((g) => isDigit(g) && g.glyph === digits[1])?.matrix[4] ?? Number.NaN;
		const letters = glyphs.filter((g) => !isDigit(g)).map((g) => g.matrix[4]);
		expect(two).toBeLessThan(five);
		expect(five).toBeLessThan(Math.min(...letters));
		session.release();
	});
});

describe("vertical CJK", () => {
	it("sets manga columns right to left, top to bottom, with vertical punctuation forms", async () => {
		const text = "ちょっと待って、本当にありがとう。明日また会おうね。";
		const drawing = await planOne(block(text, box(100, 100, 120, 260), { vertical: true }), "ja", "manga");
		const glyphs = drawing?.glyphs ?? [];
		expect(drawing?.overflowed).toBe(false);
		const columns = new Map<number, PlacedGlyph[]>();
		for (const g of glyphs) {
			const key = Math.round(g.matrix[4] / 5);
			columns.set(key, [...(columns.get(key) ?? []), g]);
		}
		expect(columns.size).toBeGreaterThan(1);
		// The first glyph laid out is in the rightmost column; in each column y only grows.
		const first = glyphs[0]?.matrix[4] ?? 0;
		expect(first).toBeGreaterThanOrEqual(Math.max(...glyphs.map((g) => g.matrix[4])) - 10);
		expect(glyphs[glyphs.length - 1]?.matrix[4]).toBeLessThan(first - 10);
		for (const g of glyphs) expect(g.matrix[1]).toBe(0);
		// "、" and "。" take their vertical forms: different glyphs from horizontal setting.
		const font = glyphs[0]?.font;
		if (!font) throw new Error("no glyphs");
		const horizontal = font.shape("、。", "ltr", "ja").map((g) => g.glyph);
		const vertical = font.shape("、。", "ttb", "ja").map((g) => g.glyph);
		expect(vertical[0]).not.toBe(horizontal[0]);
		expect(vertical[1]).not.toBe(horizontal[1]);
		for (const id of vertical) expect(glyphs.some((g) => g.glyph === id)).toBe(true);
	});

	it("sets two digits across the column and turns a longer Latin word sideways", async () => {
		const drawing = await planOne(block("今日は12時にTokyoへ", box(0, 0, 80, 400), { vertical: true }), "ja", "manga");
		const glyphs = drawing?.glyphs ?? [];
		const sideways = glyphs.filter((g) => g.matrix[0] === 0 && g.matrix[1] !== 0);
		expect(sideways.length).toBe(5); // T o k y o
		const upright = glyphs.filter((g) => g.matrix[1] === 0);
		expect(upright.length).toBe(glyphs.length - 5);
		// The digits share one line across the column (tate-chu-yoko): same baseline, side by side.
		const font = upright[0]?.font;
		const [one, two] = font?.shape("12", "ltr", "ja").map((g) => g.glyph) ?? [];
		const d1 = upright.find((g) => g.glyph === one);
		const d2 = upright.find((g) => g.glyph === two);
		expect(Math.abs((d1?.matrix[5] ?? 0) - (d2?.matrix[5] ?? 1))).toBeLessThan(0.01);
		expect(d1?.matrix[4]).toBeLessThan(d2?.matrix[4] ?? 0);
	});
});
