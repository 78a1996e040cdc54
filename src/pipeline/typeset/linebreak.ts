/**
 * Balanced line breaking into lines of given lengths: each line has its own measure (a balloon is
 * narrower at its top and bottom than across its middle), and among the breakings into exactly that
 * many lines the one whose lines fill their measures most evenly wins (least sum of squared slack,
 * the last line included, so a balloon gets a tidy block instead of a full line and a widow).
 * Dynamic programming over break opportunities (every boundary between pieces is one, segment.ts);
 * a paragraph always ends its line.
 */
import type { MeasuredParagraph, MeasuredPiece, Run } from "./shape";

export interface Line {
	pieces: MeasuredPiece[];
	/** Length along the line, in em, trailing space excluded. */
	advance: number;
	/** Width of a space between its pieces, in em. */
	space: number;
	/** Drawn at the end: the line breaks inside a word. */
	hyphen?: Run;
}

interface Item {
	piece: MeasuredPiece;
	space: number;
	hyphen?: Run;
	/** The last piece of its paragraph: a line must end after it. */
	last: boolean;
}

/** A break inside a word costs as much as this much slack squared (em^2): taken only when it pays. */
const HYPHEN_PENALTY = 4;
const EPSILON = 1e-9;

/**
 * The paragraphs in exactly `measures.length` lines, line k no longer than `measures[k]` em; null
 * when they do not fit. Pieces longer than a line are cut where they allow it (`parts`).
 */
export function breakLines(paragraphs: MeasuredParagraph[], measures: number[]): Line[] | null {
	const n = measures.length;
	let longest = 0;
	for (const m of measures) longest = Math.max(longest, m);
	const items: Item[] = [];
	for (const paragraph of paragraphs) {
		const pieces = paragraph.pieces.flatMap((p) => (p.advance > longest + EPSILON && p.parts ? p.parts : [p]));
		pieces.forEach((piece, k) => {
			const hyphen = piece.hyphen ? paragraph.hyphen : undefined;
			items.push({ piece, space: paragraph.space, hyphen, last: k === pieces.length - 1 });
		});
	}
	const count = items.length;
	if (count === 0 || n === 0 || count < n) return null;

	// best[k * (count + 1) + j]: least cost of items [0, j) in k lines, the k-th ending at j.
	const stride = count + 1;
	const best = new Float64Array((n + 1) * stride).fill(Number.POSITIVE_INFINITY);
	const from = new Int32Array((n + 1) * stride);
	best[0] = 0;
	for (let k = 1; k <= n; k++) {
		const measure = measures[k - 1] as number;
		for (let j = k; j <= count - (n - k); j++) {
			const end = items[j - 1] as Item;
			let width = j < count && !end.last && end.hyphen ? end.hyphen.advance : 0;
			for (let i = j - 1; i >= k - 1; i--) {
				const item = items[i] as Item;
				if (i < j - 1 && item.last) break;
				width += item.piece.advance + (i < j - 1 && item.piece.spaceAfter ? item.space : 0);
				if (width > measure + EPSILON) break;
				const before = best[(k - 1) * stride + i] as number;
				if (before === Number.POSITIVE_INFINITY) continue;
				const slack = measure - width;
				const cost = before + slack * slack + (end.hyphen && j < count && !end.last ? HYPHEN_PENALTY : 0);
				if (cost < (best[k * stride + j] as number)) {
					best[k * stride + j] = cost;
					from[k * stride + j] = i;
				}
			}
		}
	}
	if (best[n * stride + count] === Number.POSITIVE_INFINITY) return null;
	const lines: Line[] = [];
	for (let k = n, j = count; k > 0; k--) {
		const i = from[k * stride + j] as number;
		const slice = items.slice(i, j);
		const end = slice[slice.length - 1] as Item;
		lines.unshift(makeLine(slice, j < count && !end.last ? end.hyphen : undefined));
		j = i;
	}
	return lines;
}

function makeLine(items: Item[], hyphen?: Run): Line {
	let advance = hyphen?.advance ?? 0;
	items.forEach((item, k) => {
		advance += item.piece.advance + (k < items.length - 1 && item.piece.spaceAfter ? item.space : 0);
	});
	return { pieces: items.map((item) => item.piece), advance, space: items[0]?.space ?? 0, hyphen };
}

/** The total length of the paragraphs on one line each, in em: a lower bound for the lines needed. */
export function naturalLength(paragraphs: MeasuredParagraph[]): number {
	let total = 0;
	for (const p of paragraphs) {
		p.pieces.forEach((piece, k) => {
			total += piece.advance + (k < p.pieces.length - 1 && piece.spaceAfter ? p.space : 0);
		});
	}
	return total;
}

/** The longest piece that can't be cut, in em: no line may be shorter. */
export function longestPiece(paragraphs: MeasuredParagraph[]): number {
	let longest = 0;
	for (const p of paragraphs) {
		for (const piece of p.pieces) {
			const parts = piece.parts ?? [piece];
			for (const part of parts) longest = Math.max(longest, part.advance);
		}
	}
	return longest;
}
