import { describe, expect, it } from "vitest";
import { breakParagraph } from "../../src/pipeline/typeset/linebreak";
import { segmentParagraph, splitGraphemes } from "../../src/pipeline/typeset/segment";
import type { MeasuredParagraph, MeasuredPiece } from "../../src/pipeline/typeset/shape";

const pieceTexts = (text: string, language: string) =>
	segmentParagraph(text, language).map((p) => text.slice(p.start, p.end));

/** A paragraph of pieces with the given advances (em), spaces between them 1 em wide. */
function paragraph(advances: number[], spaces = true): MeasuredParagraph {
	let at = 0;
	const pieces = advances.map((advance) => {
		const piece = { start: at, end: at + 1, spaceAfter: spaces, runs: [], advance, spaceLevel: 0 } as MeasuredPiece;
		at += 2;
		return piece;
	});
	return { text: "", pieces, space: 1, baseLevel: 0 };
}

describe("break opportunities per script", () => {
	it("breaks spaced scripts at spaces only", () => {
		expect(pieceTexts("Where are you going, my friend?", "en")).toEqual([
			"Where",
			"are",
			"you",
			"going,",
			"my",
			"friend?",
		]);
		expect(pieceTexts("잠깐만 기다려! 정말 고마워요.", "ko")).toEqual(["잠깐만", "기다려!", "정말", "고마워요."]);
	});

	it("breaks Thai, Lao, Khmer and Burmese between dictionary words, never inside one", () => {
		for (const [language, text] of [
			["th", "สวัสดีครับวันนี้อากาศดีมาก"],
			["lo", "ສະບາຍດີເຈົ້າເປັນແນວໃດ"],
			["km", "សួស្តីសុខសប្បាយទេ"],
			["my", "မင်္ဂလာပါခင်ဗျာနေကောင်းလား"],
		] as const) {
			const pieces = pieceTexts(text, language);
			expect(pieces.join("")).toBe(text);
			expect(pieces.length, language).toBeGreaterThan(1);
			const words = new Set(
				[...new Intl.Segmenter(language, { granularity: "word" }).segment(text)].map((s) => s.segment),
			);
			for (const piece of pieces) expect(words.has(piece), `${language}: ${piece}`).toBe(true);
		}
	});

	it("breaks Chinese and Japanese between characters, with kinsoku", () => {
		const text = "「こんにちは」と言った。ちょっと待ってください、本当に！（笑）";
		const pieces = pieceTexts(text, "ja");
		expect(pieces.join("")).toBe(text);
		expect(pieces.length).toBeGreaterThan(15);
		for (const piece of pieces) {
			expect("」。、！）ょっ").not.toContain(piece.charAt(0));
			expect("「（").not.toContain(piece.charAt(piece.length - 1));
		}
		const zh = pieceTexts("他说：“我们走吧。”", "zh");
		for (const piece of zh) {
			expect("：”。").not.toContain(piece.charAt(0));
			expect("“").not.toContain(piece.charAt(piece.length - 1));
		}
	});

	it("marks breaks inside alphabetic words for a hyphen, not inside Thai or between CJK", () => {
		const text = "Donaudampfschiff สวัสดี 東京";
		const [latin, thai, han] = segmentParagraph(text, "de");
		const parts = (p: typeof latin) => (p ? splitGraphemes(text, p) : []);
		expect(
			parts(latin)
				.slice(0, -1)
				.every((p) => p.hyphen),
		).toBe(true);
		expect(parts(latin).at(-1)?.hyphen).toBeFalsy();
		expect(parts(thai).some((p) => p.hyphen)).toBe(false);
		expect(parts(han).some((p) => p.hyphen)).toBe(false);
	});

	it("keeps Latin words whole inside Japanese text", () => {
		expect(pieceTexts("これはiPhoneです", "ja")).toContain("iPhone");
	});
});

describe("balanced line breaking", () => {
	it("uses the fewest lines, then makes them even (not greedy)", () => {
		// Greedy would fill the first line with five pieces and leave two on the second.
		const lines = breakParagraph(paragraph([3, 3, 3, 3, 3, 3, 3]), 20);
		expect(lines?.map((l) => l.pieces.length).sort()).toEqual([3, 4]);
		for (const line of lines ?? []) expect(line.advance).toBeLessThanOrEqual(20);
	});

	it("never makes a line longer than the measure, and needs no more lines than greedy", () => {
		const advances = [5, 2, 8, 1, 4, 4, 3, 7, 2, 2, 6, 1, 3];
		for (const measure of [8, 10, 13, 17, 25, 60]) {
			const lines = breakParagraph(paragraph(advances), measure) ?? [];
			for (const line of lines) expect(line.advance).toBeLessThanOrEqual(measure);
			let greedy = 1;
			let width = 0;
			for (const a of advances) {
				const next = width === 0 ? a : width + 1 + a;
				if (next > measure) {
					greedy++;
					width = a;
				} else width = next;
			}
			expect(lines.length).toBe(greedy);
			expect(lines.flatMap((l) => l.pieces).length).toBe(advances.length);
		}
	});

	it("cuts only the pieces longer than a line, when cutting is allowed", () => {
		const cut = (advance: number, parts: number) => {
			const piece = paragraph([advance]).pieces[0] as MeasuredPiece;
			piece.graphemes = paragraph(Array(parts).fill(advance / parts), false).pieces.map((g, i) => ({
				...g,
				hyphen: i < parts - 1,
			}));
			return piece;
		};
		const long = cut(12, 4);
		const short = cut(4, 4);
		const lines = breakParagraph({ ...paragraph([]), pieces: [long, short] }, 8) ?? [];
		expect(lines.flatMap((l) => l.pieces)).toContain(short);
		expect(lines.flatMap((l) => l.pieces)).not.toContain(long);
		for (const line of lines) expect(line.advance).toBeLessThanOrEqual(8);
	});

	it("reports a piece longer than the measure instead of overflowing", () => {
		expect(breakParagraph(paragraph([3, 12, 3]), 10)).toBeNull();
	});
});
