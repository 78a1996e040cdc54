/**
 * From broken lines to glyphs at pixel positions (relative to the layout box's top left).
 * Horizontal lines are put in visual order with the Unicode bidi reordering (rule L2), so a
 * right-to-left line with embedded numbers and Latin words reads correctly. Vertical columns run
 * top to bottom, right to left.
 */
import type { HbFont } from "./harfbuzz";
import type { Line } from "./linebreak";
import type { Run } from "./shape";

/** Affine map [a b c d e f] from font units (y up) to pixels (y down), as SVG's matrix(). */
export type Matrix = [number, number, number, number, number, number];

export interface PlacedGlyph {
	font: HbFont;
	glyph: number;
	matrix: Matrix;
}

export interface InkBounds {
	x0: number;
	y0: number;
	x1: number;
	y1: number;
}

export type Align = "left" | "center" | "right";

/** Where the baseline sits below the centre of a line box, in em: the visual middle of most scripts. */
export const BASELINE_BELOW_CENTRE = 0.34;
const IDEOGRAPHIC_ASCENT = 0.88;
/** Distance between column centres in vertical text, in em. */
export const COLUMN_PITCH = 1.45;

interface Item {
	run?: Run;
	/** A space between pieces, in em. */
	space?: number;
	level: number;
}

function lineItems(line: Line): Item[] {
	const items: Item[] = [];
	line.pieces.forEach((piece, k) => {
		for (const run of piece.runs) items.push({ run, level: run.level });
		if (k < line.pieces.length - 1 && piece.spaceAfter) items.push({ space: line.space, level: piece.spaceLevel });
	});
	const last = items[items.length - 1];
	if (line.hyphen) items.push({ run: line.hyphen, level: last?.level ?? 0 });
	return items;
}

/** UAX #9 rule L2: from the highest level down to the lowest odd one, reverse every run at or above it. */
export function visualOrder<T extends { level: number }>(items: T[]): T[] {
	const out = [...items];
	let highest = 0;
	let lowestOdd = Number.POSITIVE_INFINITY;
	for (const item of out) {
		highest = Math.max(highest, item.level);
		if (item.level % 2 === 1) lowestOdd = Math.min(lowestOdd, item.level);
	}
	for (let level = highest; level >= lowestOdd; level--) {
		for (let i = 0; i < out.length; ) {
			if ((out[i] as T).level < level) {
				i++;
				continue;
			}
			let j = i;
			while (j < out.length && (out[j] as T).level >= level) j++;
			const reversed = out.slice(i, j).reverse();
			out.splice(i, j - i, ...reversed);
			i = j;
		}
	}
	return out;
}

/** One horizontal line, its left end at `x` and its baseline at `baseline`, px. */
export function placeLine(line: Line, x: number, baseline: number, size: number, out: PlacedGlyph[]): void {
	let pen = x;
	for (const item of visualOrder(lineItems(line))) {
		if (!item.run) {
			pen += (item.space ?? 0) * size;
			continue;
		}
		const k = size / item.run.font.upem;
		for (const g of item.run.glyphs) {
			out.push({
				font: item.run.font,
				glyph: g.glyph,
				matrix: [k, 0, 0, -k, pen + g.xOffset * k, baseline - g.yOffset * k],
			});
			pen += g.xAdvance * k;
		}
	}
}

/** Columns, the first at the right: `right` is the right edge of the first column, `top` where columns start, px. */
export function placeVertical(columns: Line[], size: number, right: number, top: number): PlacedGlyph[] {
	const placed: PlacedGlyph[] = [];
	columns.forEach((line, index) => {
		const centre = right - (index * COLUMN_PITCH + 0.5) * size;
		let pen = top;
		line.pieces.forEach((piece, p) => {
			for (const run of piece.runs) pen = placeVerticalRun(run, centre, pen, size, placed);
			if (p < line.pieces.length - 1 && piece.spaceAfter) pen += Math.min(line.space, 0.5) * size;
		});
	});
	return placed;
}

/** Places one run of a column starting `pen` px below the top; returns the pen after it. */
function placeVerticalRun(run: Run, centre: number, pen: number, size: number, out: PlacedGlyph[]): number {
	const { font } = run;
	const k = size / font.upem;
	if (run.orientation === "upright") {
		// Origins sit at the ideographic em box top (0.88 em above the baseline) below the pen.
		const correction = (IDEOGRAPHIC_ASCENT * font.upem - font.verticalOrigin) * k;
		for (const g of run.glyphs) {
			out.push({
				font,
				glyph: g.glyph,
				matrix: [k, 0, 0, -k, centre + g.xOffset * k, pen - g.yOffset * k + correction],
			});
			pen -= g.yAdvance * k;
		}
		return pen;
	}
	let runWidth = 0;
	for (const g of run.glyphs) runWidth += g.xAdvance * k;
	if (run.orientation === "tcy") {
		// Set across the column, squeezed to the column's width when wider.
		const squeeze = runWidth > 0.95 * size ? (0.95 * size) / runWidth : 1;
		let x = centre - (runWidth * squeeze) / 2;
		const baseline = pen + IDEOGRAPHIC_ASCENT * size;
		for (const g of run.glyphs) {
			out.push({
				font,
				glyph: g.glyph,
				matrix: [k * squeeze, 0, 0, -k, x + g.xOffset * k * squeeze, baseline - g.yOffset * k],
			});
			x += g.xAdvance * k * squeeze;
		}
		return pen + size;
	}
	// Sideways: turned 90 degrees clockwise, glyph tops facing right, centred on the column.
	const baseX = centre - BASELINE_BELOW_CENTRE * size;
	let along = pen;
	for (const g of run.glyphs) {
		out.push({ font, glyph: g.glyph, matrix: [0, k, k, 0, baseX + g.yOffset * k, along + g.xOffset * k] });
		along += g.xAdvance * k;
	}
	return pen + runWidth;
}

/** The pixel box one glyph's ink covers, or null when it draws nothing (a space). */
export function glyphInk({ font, glyph, matrix }: PlacedGlyph): InkBounds | null {
	const ink = font.ink(glyph);
	if (ink.xMax <= ink.xMin || ink.yMax <= ink.yMin) return null;
	const [a, b, c, d, e, f] = matrix;
	let x0 = Number.POSITIVE_INFINITY;
	let y0 = Number.POSITIVE_INFINITY;
	let x1 = Number.NEGATIVE_INFINITY;
	let y1 = Number.NEGATIVE_INFINITY;
	for (const [u, v] of [
		[ink.xMin, ink.yMin],
		[ink.xMax, ink.yMin],
		[ink.xMin, ink.yMax],
		[ink.xMax, ink.yMax],
	] as const) {
		const x = a * u + c * v + e;
		const y = b * u + d * v + f;
		x0 = Math.min(x0, x);
		y0 = Math.min(y0, y);
		x1 = Math.max(x1, x);
		y1 = Math.max(y1, y);
	}
	return { x0, y0, x1, y1 };
}

/** The pixel box the glyphs' ink covers, or null when nothing is drawn. */
export function inkBounds(glyphs: PlacedGlyph[]): InkBounds | null {
	let all: InkBounds | null = null;
	for (const g of glyphs) {
		const ink = glyphInk(g);
		if (!ink) continue;
		all = all
			? {
					x0: Math.min(all.x0, ink.x0),
					y0: Math.min(all.y0, ink.y0),
					x1: Math.max(all.x1, ink.x1),
					y1: Math.max(all.y1, ink.y1),
				}
			: ink;
	}
	return all;
}

/** Moves every glyph by (dx, dy) pixels. */
export function shift(glyphs: PlacedGlyph[], dx: number, dy: number): void {
	for (const g of glyphs) {
		g.matrix[4] += dx;
		g.matrix[5] += dy;
	}
}
