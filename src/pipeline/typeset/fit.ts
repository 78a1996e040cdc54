/**
 * Laying text out in a frame (frame.ts) at a font size, and the largest size at which it fits.
 * Horizontal text: the block of lines is centred on the frame's centroid, each line gets the width
 * the frame has over its rows, and the balanced breaking into those widths is taken, with the fewest
 * lines that fit. Vertical text: columns right to left, the block centred, each column as long as
 * the frame is tall over the whole block. Every glyph's ink (with the style's reach) must then lie
 * inside the frame, a gap away from its edge: nothing is drawn on a balloon's outline.
 */
import type { Frame, Span } from "./frame";
import { breakLines, type Line, longestPiece, naturalLength } from "./linebreak";
import {
	type Align,
	BASELINE_BELOW_CENTRE,
	COLUMN_PITCH,
	glyphInk,
	type InkBounds,
	inkBounds,
	type PlacedGlyph,
	placeLine,
	placeVertical,
	shift,
} from "./place";
import type { MeasuredParagraph } from "./shape";

export interface FitOptions {
	vertical: boolean;
	/** Line height in em (horizontal text). */
	spacing: number;
	align: Align;
	/** Ink the style adds around each glyph (outline, emboldening) at a font size, px. */
	reach: (size: number) => number;
	/** Room left between the text block and the frame's edge at a font size, px (a letterer's halo). */
	halo: (size: number) => number;
	/** The least distance between any ink and the frame's edge, px (kept off the art). */
	gap: number;
}

export interface Fitted {
	size: number;
	/** Placed in image px. */
	glyphs: PlacedGlyph[];
	/** Ink bounds, image px, stroke reach included. */
	ink: InkBounds;
	lines: number;
}

const SEARCH_STEPS = 9;
/** More lines than the fewest the length needs are tried up to this many: a curved frame may need a few. */
const EXTRA_LINES = 8;
/** Half the height of a line's band, in em, for the width the frame has there (the ink check is exact). */
const LINE_HALF_EM = 0.55;

/** Lays the text out at `size` in `frame`; null when it does not fit. */
export function layoutAt(
	paragraphs: MeasuredParagraph[],
	size: number,
	frame: Frame,
	options: FitOptions,
): Fitted | null {
	if (!(size > 0) || longestPiece(paragraphs) === 0) return null;
	return options.vertical ? columnsAt(paragraphs, size, frame, options) : linesAt(paragraphs, size, frame, options);
}

/** Bisection on the size: the largest in [minSize, maxSize] that fits, or null when even minSize does not. */
export function fitText(
	paragraphs: MeasuredParagraph[],
	frame: Frame,
	options: FitOptions,
	minSize: number,
	maxSize: number,
): Fitted | null {
	const atMax = layoutAt(paragraphs, maxSize, frame, options);
	if (atMax) return atMax;
	let best = layoutAt(paragraphs, minSize, frame, options);
	if (!best || minSize >= maxSize) return best;
	let lo = minSize;
	let hi = maxSize;
	for (let step = 0; step < SEARCH_STEPS && hi - lo > 0.25; step++) {
		const mid = (lo + hi) / 2;
		const attempt = layoutAt(paragraphs, mid, frame, options);
		if (attempt) {
			best = attempt;
			lo = mid;
		} else hi = mid;
	}
	return best;
}

/**
 * The text at `size` whatever the frame's height: the lines as wide as the frame's middle, centred
 * on it, running past its top and bottom. For when nothing fits even at the smallest size.
 */
export function layoutOverflowing(
	paragraphs: MeasuredParagraph[],
	size: number,
	frame: Frame,
	options: FitOptions,
): Fitted | null {
	const { box, centre } = frame;
	const inset = options.reach(size) + options.gap;
	const middle = frame.across(centre.y - size / 2, centre.y + size / 2, inset);
	const measure = options.vertical
		? (box.y1 - box.y0 - 2 * inset) / size
		: middle
			? (middle.to - middle.from) / size
			: 0;
	const longest = Math.max(measure, longestPiece(paragraphs));
	const lower = Math.max(paragraphs.length, Math.ceil(naturalLength(paragraphs) / longest - 1e-9));
	for (let n = lower; n < lower + 4 * EXTRA_LINES; n++) {
		const lines = breakLines(paragraphs, new Array(n).fill(longest));
		if (!lines) continue;
		const glyphs: PlacedGlyph[] = [];
		if (options.vertical) {
			const width = ((n - 1) * COLUMN_PITCH + 1) * size;
			glyphs.push(...placeVertical(lines, size, centre.x + width / 2, box.y0 + inset));
		} else {
			const top = centre.y - (((n - 1) * options.spacing + 1) * size) / 2;
			lines.forEach((line, i) => {
				const middle = top + (i * options.spacing + 0.5) * size;
				placeLine(line, centre.x - (line.advance * size) / 2, middle + BASELINE_BELOW_CENTRE * size, size, glyphs);
			});
		}
		const ink = inkBounds(glyphs);
		if (!ink) return null;
		const reach = options.reach(size);
		return {
			size,
			glyphs,
			ink: { x0: ink.x0 - reach, y0: ink.y0 - reach, x1: ink.x1 + reach, y1: ink.y1 + reach },
			lines: n,
		};
	}
	return null;
}

function linesAt(paragraphs: MeasuredParagraph[], size: number, frame: Frame, options: FitOptions): Fitted | null {
	const { box, centre } = frame;
	const reach = options.reach(size);
	const pitch = options.spacing * size;
	const { inset, fewest, most } = lineCounts(paragraphs, size, frame, options, pitch);
	for (let n = fewest; n <= most; n++) {
		const height = (n - 1) * pitch + size;
		const top = clamp(centre.y - height / 2, box.y0 + inset, box.y1 - inset - height);
		const spans: Span[] = [];
		for (let i = 0; i < n; i++) {
			const middle = top + (i * options.spacing + 0.5) * size;
			const span = frame.across(middle - LINE_HALF_EM * size, middle + LINE_HALF_EM * size, inset);
			if (!span) break;
			spans.push(span);
		}
		if (spans.length < n) continue;
		const lines = breakLines(
			paragraphs,
			spans.map((s) => (s.to - s.from) / size),
		);
		if (!lines) continue;
		const glyphs: PlacedGlyph[] = [];
		lines.forEach((line, i) => {
			const span = spans[i] as Span;
			const width = line.advance * size;
			const x =
				options.align === "left"
					? span.from
					: options.align === "right"
						? span.to - width
						: clamp(centre.x - width / 2, span.from, span.to - width);
			const middle = top + (i * options.spacing + 0.5) * size;
			const placed: PlacedGlyph[] = [];
			placeLine(line, x, middle + BASELINE_BELOW_CENTRE * size, size, placed);
			// Ink reaching past the advances (a final swash, an overhanging matra) is moved back into the span.
			const ink = inkBounds(placed);
			if (ink && ink.x1 + reach > span.to) shift(placed, span.to - ink.x1 - reach, 0);
			else if (ink && ink.x0 - reach < span.from) shift(placed, span.from - ink.x0 + reach, 0);
			glyphs.push(...placed);
		});
		const fitted = settle(glyphs, size, n, frame, options, { y: top + height / 2 });
		if (fitted) return fitted;
	}
	return null;
}

function columnsAt(paragraphs: MeasuredParagraph[], size: number, frame: Frame, options: FitOptions): Fitted | null {
	const { box, centre } = frame;
	const pitch = COLUMN_PITCH * size;
	const { inset, fewest, most } = lineCounts(paragraphs, size, frame, options, pitch);
	for (let n = fewest; n <= most; n++) {
		const width = (n - 1) * pitch + size;
		const left = clamp(centre.x - width / 2, box.x0 + inset, box.x1 - inset - width);
		const span = frame.along(left, left + width, inset);
		if (!span) continue;
		const columns: Line[] | null = breakLines(paragraphs, new Array(n).fill((span.to - span.from) / size));
		if (!columns) continue;
		const glyphs = placeVertical(columns, size, left + width, span.from);
		const fitted = settle(glyphs, size, n, frame, options, { x: left + width / 2, y: (span.from + span.to) / 2 });
		if (fitted) return fitted;
	}
	return null;
}

/**
 * How many lines (columns, for vertical text) `pitch` px apart to try: from the fewest the text's
 * length needs along the frame's widest extent, to the most its depth holds (at most EXTRA_LINES
 * more); and the inset kept from the frame's edge (stroke reach and halo, or the gap from the art).
 */
function lineCounts(
	paragraphs: MeasuredParagraph[],
	size: number,
	frame: Frame,
	options: FitOptions,
	pitch: number,
): { inset: number; fewest: number; most: number } {
	const { box } = frame;
	const inset = options.reach(size) + Math.max(options.halo(size), options.gap);
	const across = box.x1 - box.x0 - 2 * inset;
	const down = box.y1 - box.y0 - 2 * inset;
	const [along, depth] = options.vertical ? [down, across] : [across, down];
	if (along <= 0 || depth < size) return { inset, fewest: 1, most: 0 };
	const fewest = Math.max(paragraphs.length, Math.ceil((naturalLength(paragraphs) * size) / along - 1e-9));
	const most = Math.min(Math.floor((depth - size) / pitch) + 1, fewest + EXTRA_LINES);
	return { inset, fewest, most };
}

/**
 * The placed glyphs with their ink centred on `middle` (the nominal centring puts a line box's
 * middle there; the ink of a script sits a little off it), if every glyph then stays inside the
 * frame; else as placed, if those do; else null.
 */
function settle(
	glyphs: PlacedGlyph[],
	size: number,
	lines: number,
	frame: Frame,
	options: FitOptions,
	middle: { x?: number; y: number },
): Fitted | null {
	const reach = options.reach(size);
	const ink = inkBounds(glyphs);
	if (!ink) return null;
	const dx = middle.x === undefined ? 0 : middle.x - (ink.x0 + ink.x1) / 2;
	const dy = middle.y - (ink.y0 + ink.y1) / 2;
	for (const [sx, sy] of [
		[dx, dy],
		[0, 0],
	] as const) {
		if (!insideFrame(glyphs, sx, sy, reach, frame, options.gap)) continue;
		shift(glyphs, sx, sy);
		return {
			size,
			glyphs,
			ink: { x0: ink.x0 + sx - reach, y0: ink.y0 + sy - reach, x1: ink.x1 + sx + reach, y1: ink.y1 + sy + reach },
			lines,
		};
	}
	return null;
}

/** Every glyph's ink, moved by (dx, dy) and grown by `reach`, at least `gap` px inside the frame. */
function insideFrame(glyphs: PlacedGlyph[], dx: number, dy: number, reach: number, frame: Frame, gap: number) {
	for (const g of glyphs) {
		const ink = glyphInk(g);
		if (!ink) continue;
		const span = frame.across(ink.y0 + dy - reach, ink.y1 + dy + reach, gap);
		if (!span || ink.x0 + dx - reach < span.from - 1e-6 || ink.x1 + dx + reach > span.to + 1e-6) return false;
	}
	return true;
}

function clamp(v: number, lo: number, hi: number): number {
	return hi < lo ? (lo + hi) / 2 : Math.min(hi, Math.max(lo, v));
}
