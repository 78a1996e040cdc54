/**
 * The largest font size at which the balanced breaking of the text fits a box, ink included,
 * found by bisection between the minimum legible size and the source's size.
 */
import { breakAll } from "./linebreak";
import {
	type Align,
	COLUMN_PITCH,
	type InkBounds,
	inkBounds,
	type PlacedGlyph,
	placeHorizontal,
	placeVertical,
	shift,
} from "./place";
import type { MeasuredParagraph } from "./shape";

export interface FitOptions {
	minSize: number;
	maxSize: number;
	vertical: boolean;
	/** Line height in em (horizontal text). */
	spacing: number;
	align: Align;
	/** Ink the style adds around each glyph (outline, emboldening) at a font size, in px. */
	reach: (size: number) => number;
}

export interface Fitted {
	size: number;
	glyphs: PlacedGlyph[];
	/** Ink bounds, relative to the box's top left, stroke reach included. */
	ink: InkBounds;
	lines: number;
}

const SEARCH_STEPS = 9;
/** Float noise in the ink bounds, px; far below what antialiasing can show. */
const INK_EPSILON = 1e-6;

/** Lays the text out at `size` in a box `width` by `height` px; null when it does not fit. */
export function layoutAt(
	paragraphs: MeasuredParagraph[],
	size: number,
	width: number,
	height: number,
	options: FitOptions,
	unboundedHeight = false,
): Fitted | null {
	const reach = options.reach(size);
	const measure = ((options.vertical ? height : width) - 2 * reach) / size;
	if (measure <= 0) return null;
	const lines = breakAll(paragraphs, measure);
	if (!lines) return null;
	// Lines (columns) one pitch apart, the block one em deep plus a pitch per further line; the ink
	// check below is the real bound (a one-line label may use its whole box height).
	const cross = options.vertical
		? ((lines.length - 1) * COLUMN_PITCH + 1) * size
		: ((lines.length - 1) * options.spacing + 1) * size;
	if (!unboundedHeight && cross > (options.vertical ? width : height) - 2 * reach + 1e-6) return null;
	const glyphs = options.vertical
		? placeVertical(lines, size, width)
		: placeHorizontal(lines, size, width - 2 * reach, options.align, options.spacing);
	if (!options.vertical) shift(glyphs, reach, 0);
	const ink = inkBounds(glyphs);
	if (!ink) return null;
	const padded = { x0: ink.x0 - reach, y0: ink.y0 - reach, x1: ink.x1 + reach, y1: ink.y1 + reach };
	const inkWidth = padded.x1 - padded.x0;
	const inkHeight = padded.y1 - padded.y0;
	// No tolerance: the glyph boxes are exact (or wider than the ink), and a quarter pixel past a
	// tight balloon's edge is drawn, antialiased, on its outline.
	if (inkWidth > width + INK_EPSILON || (!unboundedHeight && inkHeight > height + INK_EPSILON)) return null;
	// Centre the block's ink vertically (horizontally too for vertical text); keep it inside horizontally.
	let dx = 0;
	if (options.vertical) dx = width / 2 - (padded.x0 + padded.x1) / 2;
	else if (padded.x0 < 0) dx = -padded.x0;
	else if (padded.x1 > width) dx = width - padded.x1;
	const dy = height / 2 - (padded.y0 + padded.y1) / 2;
	shift(glyphs, dx, dy);
	return {
		size,
		glyphs,
		ink: { x0: padded.x0 + dx, y0: padded.y0 + dy, x1: padded.x1 + dx, y1: padded.y1 + dy },
		lines: lines.length,
	};
}

/** Bisection on the size: the largest that fits, or null when even the minimum does not. */
export function fitText(
	paragraphs: MeasuredParagraph[],
	width: number,
	height: number,
	options: FitOptions,
): Fitted | null {
	const atMax = layoutAt(paragraphs, options.maxSize, width, height, options);
	if (atMax) return atMax;
	let best = layoutAt(paragraphs, options.minSize, width, height, options);
	if (!best) return null;
	let lo = options.minSize;
	let hi = options.maxSize;
	for (let step = 0; step < SEARCH_STEPS && hi - lo > 0.25; step++) {
		const mid = (lo + hi) / 2;
		const attempt = layoutAt(paragraphs, mid, width, height, options);
		if (attempt) {
			best = attempt;
			lo = mid;
		} else hi = mid;
	}
	return best;
}
