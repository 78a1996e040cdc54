/**
 * The inside of a rectangular panel as its paper says it is, for lettering fitted tight to the
 * panel: glyph strokes running into the border thicken it where they lie, and the band across the
 * border there reads as the border (outline.ts). A drawn panel's sides are straight: along each side,
 * where no glyph touches the border, the paper runs right up to it, all at one row or column. That
 * line is where the border's inside edge is along the whole side; ink on the paper's side of it is
 * not the border, whatever touches it. Read only when every side is straight over a share of the
 * paper's rows or columns, the paper reaches every side near its corners (a balloon's ellipse reaches
 * its bounds halfway along them only) and it stops inside the patch.
 */
import type { Box } from "../types";

/** The paper's straight sides (patch px, end-exclusive) and how far in from each corner the border curves. */
export interface PanelSides extends Box {
	/** Side of the square at each corner left to the border (its rounding, or glyphs that hide it). */
	corner: number;
}

/**
 * Share of the paper's rows (columns) that reach one side at one column (row), give or take an
 * anti-aliased pixel, at least: glyph stems may hide most of a side (a line's first letters against
 * it), leaving the border bare between lines only. An ellipse passes this near its ends too; its
 * corners rule it out (the paper reaches its bounds only halfway along them).
 */
const STRAIGHT = 0.15;

/** The panel's sides read from `paper` (w × h, 1 on the panel's background), or undefined when it is no rectangle. */
export function panelSides(paper: Uint8Array, w: number, h: number): PanelSides | undefined {
	// Each row's and column's paper ends, each looked for from its end of the row (column) inward:
	// the paper begins a few pixels in, where its outline ends, so most of the patch is never read.
	const first = new Int32Array(h).fill(-1);
	const last = new Int32Array(h).fill(-1);
	const top = new Int32Array(w).fill(-1);
	const bottom = new Int32Array(w).fill(-1);
	for (let y = 0; y < h; y++) {
		const row = y * w;
		let x = 0;
		while (x < w && !paper[row + x]) x++;
		if (x === w) continue;
		first[y] = x;
		x = w - 1;
		while (!paper[row + x]) x--;
		last[y] = x;
	}
	for (let x = 0; x < w; x++) {
		let y = 0;
		while (y < h && !paper[y * w + x]) y++;
		if (y === h) continue;
		top[x] = y;
		y = h - 1;
		while (!paper[y * w + x]) y--;
		bottom[x] = y;
	}
	const rows = [...first].filter((x) => x >= 0).length;
	const columns = [...top].filter((y) => y >= 0).length;
	if (rows === 0) return undefined;
	const x0 = sideAt(first, w, rows, 1);
	const x1 = sideAt(last, w, rows, -1);
	const y0 = sideAt(top, h, columns, 1);
	const y1 = sideAt(bottom, h, columns, -1);
	if (x0 === undefined || x1 === undefined || y0 === undefined || y1 === undefined) return undefined;
	if (x0 === 0 || y0 === 0 || x1 === w - 1 || y1 === h - 1 || x1 <= x0 || y1 <= y0) return undefined;
	// Each corner's extent: from the corner to where the paper first reaches each of its two sides.
	const reach = (ends: Int32Array, from: number, to: number, onSide: (v: number) => boolean) => {
		const step = to > from ? 1 : -1;
		let k = from;
		while (k !== to && !(ends[k]! >= 0 && onSide(ends[k]!))) k += step;
		return Math.abs(k - from);
	};
	const left = (v: number) => v <= x0 + 1;
	const right = (v: number) => v >= x1 - 1;
	const above = (v: number) => v <= y0 + 1;
	const below = (v: number) => v >= y1 - 1;
	const corner = Math.min(
		Math.max(reach(first, y0, y1, left), reach(top, x0, x1, above)),
		Math.max(reach(last, y0, y1, right), reach(top, x1, x0, above)),
		Math.max(reach(first, y1, y0, left), reach(bottom, x0, x1, below)),
		Math.max(reach(last, y1, y0, right), reach(bottom, x1, x0, below)),
	);
	if (2 * corner >= Math.min(x1 - x0, y1 - y0)) return undefined;
	return { x0, y0, x1: x1 + 1, y1: y1 + 1, corner };
}

/**
 * Where the paper's ends (`ends`, one per row or column, -1 where it has none; `count` have one) line
 * up on one side: the outermost position, of `size`, that the ends of STRAIGHT of the rows or columns
 * reach, give or take a pixel (the commoner of the two); undefined when none does. `inward` is the
 * way into the panel from that side (1 from the low side, -1 from the high one).
 */
function sideAt(ends: Int32Array, size: number, count: number, inward: 1 | -1): number | undefined {
	const hist = new Uint32Array(size);
	for (const v of ends) if (v >= 0) hist[v]!++;
	for (let k = 0; k < size - 1; k++) {
		const v = inward === 1 ? k : size - 1 - k;
		const next = v + inward;
		if (hist[v]! + hist[next]! < STRAIGHT * count) continue;
		return hist[v]! >= hist[next]! ? v : next;
	}
	return undefined;
}
