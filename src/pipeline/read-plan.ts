/**
 * How a page is read so that the answer comes in seconds: a model writes its answer at a fixed
 * pace (40 output tokens a second for the slow ones), so a page whose reading would take more
 * output than PART_OUTPUT_TOKENS is read in parts, in parallel, each part a crop of the page with
 * a margin shared with its neighbours (a balloon cut by one edge is whole in the other part; the
 * copies are merged afterwards). The amount of lettering is estimated from the pixels
 * (text-density.ts) before any model is asked.
 */
import type { Window } from "./read-copy";

/**
 * Output tokens one read may take: about 8 s at 40 tokens/s, so that a part, its time to the
 * first token and a translation after it stay within the seconds a client waits.
 */
export const PART_OUTPUT_TOKENS = 320;
/** Parallel reads per page: more parts lose context between balloons and cost more input. */
export const MAX_PARTS = 8;
/** Neighbouring parts share this fraction of the page's side across their edge. */
const PART_OVERLAP = 0.15;
/** Below this estimate a read also asks for each block's lines and colour: they cost under 3 s. */
const DETAIL_TOKENS = 120;

/**
 * Output tokens per estimated character: the source text (CJK about a token a character), its
 * translation, and each block's box, keys and punctuation spread over its characters. Measured on
 * the bench pages (bench/model-pages.mjs: 3 to 20 balloons give 4.6 to 5.3 in one call, 3.3 to
 * 3.9 reading only; small print is undercounted, 60 balloons give 10).
 */
const TOKENS_PER_CHARACTER = { read: 3.7, readAndTranslate: 5 } as const;

export interface ReadingPlan {
	/** Crops of the page to read, in reading order. */
	parts: Window[];
	/** Ask for lines and colours (sparse pages only). */
	withDetail: boolean;
	/** The output token limit of each part's request. */
	maxTokens: number;
}

export function planReading(
	page: { width: number; height: number },
	characters: number,
	options: { translate: boolean; rightToLeft: boolean },
): ReadingPlan {
	const tokens = characters * (options.translate ? TOKENS_PER_CHARACTER.readAndTranslate : TOKENS_PER_CHARACTER.read);
	// A read that a translation must follow gets half the tokens: the client waits for both.
	const budget = options.translate ? PART_OUTPUT_TOKENS : PART_OUTPUT_TOKENS / 2;
	const count = Math.min(MAX_PARTS, Math.max(1, Math.ceil(tokens / budget)));
	return {
		parts: gridParts(page, count, options.rightToLeft),
		withDetail: tokens <= DETAIL_TOKENS,
		maxTokens: outputLimit(tokens / count),
	};
}

/**
 * The token limit for a request expected to write `expected` tokens: room for a page that holds
 * three times what the pixels suggested, never so much that a runaway answer (a model repeating
 * itself) runs for minutes.
 */
export function outputLimit(expected: number): number {
	return Math.min(4096, Math.max(1024, Math.round(expected * 3) + 256));
}

/** `count` parts on a grid: bands down a portrait page (two columns from four parts), across a landscape one. */
export function gridParts(page: { width: number; height: number }, count: number, rightToLeft: boolean): Window[] {
	if (count <= 1) return [{ x: 0, y: 0, width: page.width, height: page.height }];
	const portrait = page.height >= page.width;
	const across = count >= 4 ? 2 : 1;
	const along = Math.ceil(count / across);
	const cols = portrait ? across : along;
	const rows = portrait ? along : across;
	const xs = spans(page.width, cols);
	const ys = spans(page.height, rows);
	const parts: Window[] = [];
	for (const [y, height] of ys) {
		const row = xs.map(([x, width]) => ({ x, y, width, height }));
		parts.push(...(rightToLeft ? row.reverse() : row));
	}
	return parts;
}

/** `n` equal spans of `length`, each grown by half the overlap into its neighbours, as [start, size]. */
function spans(length: number, n: number): [number, number][] {
	const half = n > 1 ? Math.round((length * PART_OVERLAP) / 2) : 0;
	return Array.from({ length: n }, (_, i) => {
		const start = Math.max(0, Math.floor((i * length) / n) - half);
		const end = Math.min(length, Math.floor(((i + 1) * length) / n) + half);
		return [start, end - start];
	});
}

/** A part whose answer was cut off at the token limit, as two halves along its longer side. */
export function halves(part: Window): Window[] {
	const tall = part.height >= part.width;
	const [a, b] = spans(tall ? part.height : part.width, 2) as [[number, number], [number, number]];
	return [a, b].map(([start, size]) =>
		tall
			? { x: part.x, y: part.y + start, width: part.width, height: size }
			: { x: part.x + start, y: part.y, width: size, height: part.height },
	);
}
