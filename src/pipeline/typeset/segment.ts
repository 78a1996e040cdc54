/**
 * Where a paragraph may break, per script: a "piece" is text no line break may enter.
 * - Thai, Lao, Khmer, Burmese are written without spaces: dictionary words from Intl.Segmenter.
 * - Chinese and Japanese break between any two characters, except where kinsoku shori forbids it:
 *   no closing punctuation or small kana at a line start, no opening bracket at a line end.
 * - Everything else (Korean included, which spaces its words) breaks at spaces.
 * Breaking inside a word is a last resort, done by cutWord when nothing else fits.
 */

export interface Piece {
	/** Offsets into the paragraph, UTF-16. */
	start: number;
	end: number;
	/** Followed by a space: it is drawn between pieces on one line, dropped at a line end. */
	spaceAfter: boolean;
	/** A break after it falls inside a word of an alphabet: a hyphen is drawn at that line end. */
	hyphen?: boolean;
}

const SEGMENTED_LANGUAGES = new Set(["th", "lo", "km", "my"]);

/** Han, kana, CJK punctuation and full-width forms: a line may break between any two of them. */
const CJK_BREAKABLE =
	/[\u2e80-\u2fff\u3000-\u30ff\u3190-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]/u;
/** Never at a line start (JIS X 4051 line-start prohibited characters, plus Western closers). */
const NO_LINE_START = new Set(
	[
		..."、。，．・：；？！‼⁇⁈⁉ー～…‥)]}）〕〉》」』】〙〗〟’”｠»›",
		..."ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ々〻゠〜",
		...",.:;!?%",
	].map((c) => c.codePointAt(0) ?? 0),
);
/** Never at a line end. */
const NO_LINE_END = new Set([..."([{（〔〈《「『【〘〖〝‘“｟«‹"].map((c) => c.codePointAt(0) ?? 0));

export function usesWordSegmenter(language: string): boolean {
	return SEGMENTED_LANGUAGES.has(language);
}

export function segmentParagraph(text: string, language: string): Piece[] {
	const pieces: Piece[] = [];
	const words = /[^ ]+/g;
	for (let match = words.exec(text); match; match = words.exec(text)) {
		const start = match.index;
		const end = start + match[0].length;
		const inner = usesWordSegmenter(language)
			? dictionaryBreaks(text, start, end, language)
			: cjkBreaks(text, start, end);
		let from = start;
		for (const at of [...inner, end]) {
			pieces.push({ start: from, end: at, spaceAfter: false });
			from = at;
		}
		const last = pieces[pieces.length - 1];
		if (last) last.spaceAfter = end < text.length;
	}
	return pieces;
}

/** Break offsets strictly inside [start, end) between dictionary words; punctuation stays with its word. */
function dictionaryBreaks(text: string, start: number, end: number, language: string): number[] {
	const segmenter = new Intl.Segmenter(language, { granularity: "word" });
	const breaks: number[] = [];
	for (const segment of segmenter.segment(text.slice(start, end))) {
		if (segment.index === 0 || !segment.isWordLike) continue;
		breaks.push(start + segment.index);
	}
	return breaks;
}

/** Break offsets strictly inside [start, end) between CJK characters, kinsoku applied. */
function cjkBreaks(text: string, start: number, end: number): number[] {
	const breaks: number[] = [];
	let previous: number | undefined;
	for (let i = start; i < end; ) {
		const cp = text.codePointAt(i) ?? 0;
		const width = cp > 0xffff ? 2 : 1;
		if (previous !== undefined && mayBreakBetween(previous, cp)) breaks.push(i);
		previous = cp;
		i += width;
	}
	return breaks;
}

function mayBreakBetween(before: number, after: number): boolean {
	const cjk = CJK_BREAKABLE.test(String.fromCodePoint(before)) || CJK_BREAKABLE.test(String.fromCodePoint(after));
	if (!cjk) return false;
	if (NO_LINE_START.has(after) || NO_LINE_END.has(before)) return false;
	// Combining marks and variation selectors belong to the character before them.
	if (/\p{M}|[\ufe00-\ufe0f\u200d]/u.test(String.fromCodePoint(after))) return false;
	// A run of ellipses or dashes is one mark.
	if (before === after && (before === 0x2026 || before === 0x2025 || before === 0x2014)) return false;
	return true;
}

/** Words shorter than this many letters are never cut across lines. */
export const MIN_CUT_WORD_LETTERS = 8;
/** Letters kept on each side of a cut. */
const MIN_CUT_SIDE_LETTERS = 3;

/**
 * The last resort for a word longer than any line: the word in parts, cut only where a reader
 * accepts it (after a hyphen it already has, or between graphemes with at least three letters on
 * each side, in words of eight letters or more; "tomorrow" may become "tom-orrow", never
 * "tom-orro-w"). Null when the word may not be cut at all. The first part of each cut in an
 * alphabet is marked for a hyphen.
 */
export function cutWord(text: string, piece: Piece): Piece[] | null {
	const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
	const graphemes = [...segmenter.segment(text.slice(piece.start, piece.end))];
	const isLetter = graphemes.map((g) => /\p{L}/u.test(g.segment));
	const cuts: { at: number; hyphen: boolean }[] = [];
	// The word's own hyphens split it into parts; each part is a word for the rule on letters.
	let partStart = 0;
	for (let k = 0; k <= graphemes.length; k++) {
		const own = k < graphemes.length && HYPHENS.has(graphemes[k]?.segment ?? "");
		if (!own && k < graphemes.length) continue;
		cuts.push(...lettersCuts(graphemes.slice(partStart, k), isLetter.slice(partStart, k), piece.start));
		if (own && k + 1 < graphemes.length) cuts.push({ at: piece.start + (graphemes[k + 1]?.index ?? 0), hyphen: false });
		partStart = k + 1;
	}
	if (cuts.length === 0) return null;
	const parts: Piece[] = [];
	let from = piece.start;
	for (const cut of cuts) {
		parts.push({ start: from, end: cut.at, spaceAfter: false, hyphen: cut.hyphen });
		from = cut.at;
	}
	parts.push({ start: from, end: piece.end, spaceAfter: piece.spaceAfter });
	return parts;
}

const HYPHENS = new Set(["-", "\u2010"]);

/** Cuts inside one hyphen-free word: between two letters, MIN_CUT_SIDE_LETTERS from either end. */
function lettersCuts(
	graphemes: Intl.SegmentData[],
	isLetter: boolean[],
	offset: number,
): { at: number; hyphen: boolean }[] {
	const letters = isLetter.filter(Boolean).length;
	if (letters < MIN_CUT_WORD_LETTERS) return [];
	const cuts: { at: number; hyphen: boolean }[] = [];
	let before = 0;
	for (let k = 1; k < graphemes.length; k++) {
		if (isLetter[k - 1]) before++;
		if (before < MIN_CUT_SIDE_LETTERS || letters - before < MIN_CUT_SIDE_LETTERS) continue;
		if (!isLetter[k - 1] || !isLetter[k]) continue;
		const previous = graphemes[k - 1]?.segment ?? "";
		const next = graphemes[k]?.segment ?? "";
		cuts.push({ at: offset + (graphemes[k]?.index ?? 0), hyphen: ALPHABETIC.test(previous) && ALPHABETIC.test(next) });
	}
	return cuts;
}

/** Letters of the scripts that hyphenate a word broken across lines. */
const ALPHABETIC = /^[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Armenian}\p{Script=Georgian}]/u;
