/**
 * Texts of regions joined into one block, and the text of one region shared out between the
 * containers it spans (a model that read two balloons as one).
 */

const NO_SPACE_SCRIPTS =
	/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\u3000-\u303f\uff00-\uffef]/u;
const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** Parts in reading order, joined with a space, or with nothing between scripts written without spaces. */
export function joinTexts(parts: string[]): string {
	let out = "";
	for (const raw of parts) {
		const part = raw.trim();
		if (part === "") continue;
		if (out === "") out = part;
		else out += NO_SPACE_SCRIPTS.test(out.at(-1)!) && NO_SPACE_SCRIPTS.test(part[0]!) ? part : ` ${part}`;
	}
	return out;
}

/** Where a text may be cut, and how well a cut there reads (sentence ends best). */
const SENTENCE_END = /[.!?。！？…」』)）]/u;
const CLAUSE_END = /[,、，;；:：]/u;
const BONUS = { sentence: 0.25, line: 0.25, clause: 0.15, space: 0.05, word: 0, character: -0.25 };
/** Kana a Japanese line never starts with (small kana, the long vowel mark, the wave dash). */
const NO_LINE_START = /[ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶー〜]/u;

/**
 * The text cut into `shares.length` consecutive parts of about those shares of its length: each cut
 * at the nearest sentence end, else clause mark, else space (word boundary in scripts written
 * without spaces), a nearer cut winning over a better one only when the better one is far off. In
 * scripts written without spaces a cut may fall between any two characters, as their lines break,
 * when no word boundary is near: a single word over two balloons is cut rather than one balloon
 * erased and left empty.
 */
export function splitByShares(text: string, shares: number[]): string[] {
	const pieces = [...graphemes.segment(text)].map((s) => s.segment);
	const total = shares.reduce((a, b) => a + b, 0);
	if (shares.length <= 1 || total <= 0 || pieces.length === 0) return shares.map((_, k) => (k === 0 ? text : ""));
	const spaced = pieces.some((p) => /\s/u.test(p));
	// Without spaces, words are where a cut may fall (ICU's dictionaries for Japanese, Chinese, Thai).
	const wordStarts = spaced ? undefined : wordBoundaries(pieces);
	const bonus = (i: number): number | undefined => {
		const before = pieces[i - 1] ?? "";
		const after = pieces[i] ?? "";
		// A line never starts with a stop: "..." and "?!" stay whole.
		if (SENTENCE_END.test(after) || CLAUSE_END.test(after)) return undefined;
		if (SENTENCE_END.test(before)) return BONUS.sentence;
		// The reader's line breaks: a region read over two containers breaks its text between them.
		if (before === "\n" || after === "\n") return BONUS.line;
		if (CLAUSE_END.test(before)) return BONUS.clause;
		if (/\s/u.test(after) || /\s/u.test(before)) return BONUS.space;
		if (wordStarts?.has(i)) return BONUS.word;
		const between = NO_SPACE_SCRIPTS.test(before) && NO_SPACE_SCRIPTS.test(after) && !NO_LINE_START.test(after);
		return between ? BONUS.character : undefined;
	};
	const cuts: number[] = [];
	let share = 0;
	for (let k = 0; k < shares.length - 1; k++) {
		share += shares[k]! / total;
		const target = share * pieces.length;
		const from = (cuts.at(-1) ?? 0) + 1;
		let best = -1;
		let bestCost = Number.POSITIVE_INFINITY;
		for (let i = from; i < pieces.length; i++) {
			const b = bonus(i);
			if (b === undefined) continue;
			const cost = Math.abs(i - target) / pieces.length - b;
			if (cost < bestCost) {
				bestCost = cost;
				best = i;
			}
		}
		cuts.push(best < 0 ? pieces.length : best);
	}
	const bounds = [0, ...cuts, pieces.length];
	return shares.map((_, k) =>
		pieces
			.slice(bounds[k], Math.max(bounds[k]!, bounds[k + 1]!))
			.join("")
			.trim(),
	);
}

/**
 * The text cut into `shares.length` parts: a line each when it has one a part (a reader breaks its
 * lines where the lettering does, so two balloons read as one come as a line each), else by shares.
 */
export function splitByLinesOrShares(text: string, shares: number[]): string[] {
	const lines = textLines(text);
	return lines.length === shares.length ? lines : splitByShares(text, shares);
}

/** A text's lines, empty ones dropped. */
export function textLines(text: string): string[] {
	return text
		.split("\n")
		.map((l) => l.trim())
		.filter((l) => l !== "");
}

/** Grapheme indices at which a word starts. */
function wordBoundaries(pieces: string[]): Set<number> {
	const starts = new Set<number>();
	let offset = 0;
	const at = new Map<number, number>();
	pieces.forEach((p, k) => {
		at.set(offset, k);
		offset += p.length;
	});
	for (const word of words.segment(pieces.join(""))) {
		const k = at.get(word.index);
		if (k !== undefined) starts.add(k);
	}
	return starts;
}

const words = new Intl.Segmenter(undefined, { granularity: "word" });

/** Same text after normalising case, width and spaces: a brand, a number or a price the model left as it was. */
export function sameText(a: string, b: string): boolean {
	return normalised(a) === normalised(b) && normalised(a) !== "";
}

/**
 * Whether two readings are of the same lettering: one holds the other (a copy cut by a tile edge),
 * or they share most character pairs (the same balloon read twice, a character read differently).
 */
export function sameReading(a: string, b: string): boolean {
	const na = normalised(a);
	const nb = normalised(b);
	if (na === "" || nb === "") return false;
	if (na.includes(nb) || nb.includes(na)) return true;
	return dice(na, nb) >= 0.7;
}

function normalised(text: string): string {
	return text.normalize("NFKC").toLowerCase().replace(/\s+/gu, "");
}

/** Dice coefficient of the two texts' character bigrams. */
function dice(a: string, b: string): number {
	const pairs = (s: string) => {
		const chars = [...s];
		const out = new Map<string, number>();
		for (let i = 0; i + 1 < chars.length; i++) {
			const pair = chars[i]! + chars[i + 1]!;
			out.set(pair, (out.get(pair) ?? 0) + 1);
		}
		return out;
	};
	const pa = pairs(a);
	const pb = pairs(b);
	let shared = 0;
	let count = 0;
	for (const [pair, n] of pa) {
		shared += Math.min(n, pb.get(pair) ?? 0);
		count += n;
	}
	for (const n of pb.values()) count += n;
	return count === 0 ? 0 : (2 * shared) / count;
}
