import { describe, expect, it } from "vitest";
import { breakLines } from "../../src/pipeline/typeset/linebreak";
import { cutWord, segmentParagraph } from "../../src/pipeline/typeset/segment";
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

	it("cuts only words of eight letters or more, three letters from either end, hyphenating alphabets", () => {
		const parts = (text: string, language = "en") => {
			const [word] = segmentParagraph(text, language);
			const cut = word ? cutWord(text, word) : null;
			return cut?.map((p) => `${text.slice(p.start, p.end)}${p.hyphen ? "-" : ""}`) ?? null;
		};
		expect(parts("tomorrow")).toEqual(["tom-", "o-", "r-", "row"]);
		expect(parts("Donaudampfschiff", "de")?.[0]).toBe("Don-");
		for (const short of ["Thank", "going,", "Wait!", "Tokyo", "sorry…"]) expect(parts(short), short).toBeNull();
		// Punctuation is no letter: "going!!!" has five.
		expect(parts("going!!!")).toBeNull();
		// A word's own hyphen is a place to break, with no hyphen added.
		expect(parts("well-known")).toEqual(["well-", "known"]);
		expect(parts("x-ray")).toEqual(["x-", "ray"]);
		// Thai is cut between graphemes of a long word, never with a hyphen.
		const thai = parts("ประชาธิปไตยของเรา", "th");
		expect(thai?.some((p) => p.endsWith("-"))).toBe(false);
	});

	it("keeps Latin words whole inside Japanese text", () => {
		expect(pieceTexts("これはiPhoneです", "ja")).toContain("iPhone");
	});
});

describe("balanced line breaking", () => {
	const fewest = (p: MeasuredParagraph, measure: number) => {
		for (let n = 1; n <= 50; n++) {
			const lines = breakLines([p], new Array(n).fill(measure));
			if (lines) return lines;
		}
		return null;
	};

	it("makes the lines even (not greedy)", () => {
		// Greedy would fill the first line with five pieces and leave two on the second.
		const lines = breakLines([paragraph([3, 3, 3, 3, 3, 3, 3])], [20, 20]);
		expect(lines?.map((l) => l.pieces.length).sort()).toEqual([3, 4]);
		for (const line of lines ?? []) expect(line.advance).toBeLessThanOrEqual(20);
	});

	it("follows each line's own measure: short lines where the balloon is narrow", () => {
		const lines = breakLines([paragraph([2, 2, 2, 2, 2, 2, 2, 2])], [8, 14, 8]);
		expect(lines?.map((l) => l.pieces.length)).toEqual([2, 4, 2]);
		for (const [k, line] of (lines ?? []).entries()) expect(line.advance).toBeLessThanOrEqual([8, 14, 8][k] ?? 0);
	});

	it("never makes a line longer than its measure, and needs no more lines than greedy", () => {
		const advances = [5, 2, 8, 1, 4, 4, 3, 7, 2, 2, 6, 1, 3];
		for (const measure of [8, 10, 13, 17, 25, 60]) {
			const lines = fewest(paragraph(advances), measure) ?? [];
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

	it("ends a line at every paragraph's end", () => {
		const lines = breakLines([paragraph([1, 1]), paragraph([1])], [10, 10]);
		expect(lines?.map((l) => l.pieces.length)).toEqual([2, 1]);
		expect(breakLines([paragraph([1, 1]), paragraph([1])], [10])).toBeNull();
	});

	it("cuts only the pieces longer than a line, when cutting is allowed", () => {
		const cut = (advance: number, parts: number) => {
			const piece = paragraph([advance]).pieces[0] as MeasuredPiece;
			piece.parts = paragraph(Array(parts).fill(advance / parts), false).pieces.map((g, i) => ({
				...g,
				hyphen: i < parts - 1,
			}));
			return piece;
		};
		const long = cut(12, 4);
		const short = cut(4, 4);
		const lines = fewest({ ...paragraph([]), pieces: [long, short] }, 8) ?? [];
		expect(lines.flatMap((l) => l.pieces)).toContain(short);
		expect(lines.flatMap((l) => l.pieces)).not.toContain(long);
		for (const line of lines) expect(line.advance).toBeLessThanOrEqual(8);
	});

	it("reports a piece longer than the measure instead of overflowing", () => {
		expect(fewest(paragraph([3, 12, 3]), 10)).toBeNull();
	});
});
