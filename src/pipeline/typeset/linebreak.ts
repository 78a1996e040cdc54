/**
 * Balanced line breaking: the fewest lines that fit, and among those the breaking whose lines
 * are most even (least sum of squared slack, the last line included, so a balloon gets a tidy
 * block instead of a full line and a widow). Dynamic programming over break opportunities.
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

/** Lines of one paragraph no longer than `measure` em, or null when a single piece is longer. */
export function breakParagraph(paragraph: MeasuredParagraph, measure: number): Line[] | null {
	// Only a piece longer than the line is cut, and only when the paragraph allows it.
	const pieces = paragraph.pieces.flatMap((p) => (p.advance > measure + 1e-9 && p.graphemes ? p.graphemes : [p]));
	const n = pieces.length;
	if (n === 0) return [];
	for (const piece of pieces) if (piece.advance > measure + 1e-9) return null;

	// A new line costs more than any amount of slack: the line count is minimised first.
	const lineCost = measure * measure * (n + 1) + 1;
	const best = new Float64Array(n + 1).fill(Number.POSITIVE_INFINITY);
	const from = new Int32Array(n + 1);
	best[0] = 0;
	const hyphenAt = (j: number) => (paragraph.hyphen && pieces[j - 1]?.hyphen ? paragraph.hyphen : undefined);
	for (let j = 1; j <= n; j++) {
		let width = j < n ? (hyphenAt(j)?.advance ?? 0) : 0;
		for (let i = j - 1; i >= 0; i--) {
			const piece = pieces[i] as MeasuredPiece;
			width += piece.advance + (i < j - 1 && piece.spaceAfter ? paragraph.space : 0);
			if (width > measure + 1e-9) break;
			const slack = measure - width;
			const cost = (best[i] as number) + lineCost + slack * slack;
			if (cost < (best[j] as number)) {
				best[j] = cost;
				from[j] = i;
			}
		}
	}
	const lines: Line[] = [];
	for (let j = n; j > 0; j = from[j] as number) {
		const i = from[j] as number;
		lines.unshift(makeLine(pieces.slice(i, j), paragraph.space, j < n ? hyphenAt(j) : undefined));
	}
	return lines;
}

function makeLine(pieces: MeasuredPiece[], space: number, hyphen?: Run): Line {
	let advance = hyphen?.advance ?? 0;
	pieces.forEach((piece, k) => {
		advance += piece.advance + (k < pieces.length - 1 && piece.spaceAfter ? space : 0);
	});
	return { pieces, advance, space, hyphen };
}

/** All paragraphs broken to `measure` em; null when some piece does not fit. */
export function breakAll(paragraphs: MeasuredParagraph[], measure: number): Line[] | null {
	const lines: Line[] = [];
	for (const paragraph of paragraphs) {
		const broken = breakParagraph(paragraph, measure);
		if (!broken) return null;
		lines.push(...broken);
	}
	return lines;
}
