import { clipBox, intersects, within } from "../patch";
import type { Box } from "../types";
import { labelComponents } from "./components";
import { dilate, forEachColumnRun, forEachEdgePixel, markJoined, neighboursOr, strokeWidth } from "./masks";
import { type PanelSides, panelSides } from "./panel-sides";
import { type HeldBalloon, shelvesOnOutline } from "./shelves";
import { stepsAcrossInk, UNREACHED } from "./steps";

/**
 * The ink that belongs to a balloon's outline (or to art beyond it), told from lettering by its
 * geometry, so that a glyph touching the outline can be erased without the outline.
 *
 * `inside` marks (1, else 0) the background that is the balloon's inside (its interior and the
 * background enclosed near it: counters, pockets between glyphs and the outline); everything else is outside:
 * ink, and the background beyond the outline. A square a little over twice the stroke width fits
 * nowhere in a glyph, but fits where the outline lies against the world beyond it: the opening of
 * the outside by that square, where it reaches past the patch or beyond the outline, holds the
 * outline and the art, and leaves out the glyphs that touch them. Out of the patch counts as
 * outside, so an outline running along the patch edge is found too. A stroke lying along the
 * outline thickens it and stays in the opening: it is peeled off afterwards (peelStrokes).
 *
 * `ink` holds 1 for ink pixels, 0 elsewhere; the stroke width is measured over `strokeBox`, and `em`
 * (the lettering's size) bounds how long a peeled stroke may be. `closed` says the inside is a closed
 * shape found in the pixels, so that the outline is a drawn one, smooth along its length (see
 * absorbSlivers). `held`: the balloon the reader's box holds, whose outline strokes laid against it
 * are told from by their darkness (shelves.ts). Undefined when nothing outside the balloon reaches
 * the patch edge (text well inside its balloon or on open background: no outline).
 */
export function findOutline(
	ink: Uint8Array,
	w: number,
	h: number,
	inside: Uint8Array,
	strokeBox: Box,
	em: number,
	closed: boolean,
	held?: HeldBalloon,
): Uint8Array | undefined {
	if (!outsideReachesEdge(ink, inside, w, h)) return undefined;
	const n = w * h;
	const outside = new Uint8Array(n);
	// Both masks hold 0 or 1: worked out without a branch, as ink and inside alternate along each row.
	for (let i = 0; i < n; i++) outside[i] = ink[i]! | (1 - inside[i]!);

	const radius = Math.max(2, Math.round(strokeWidth(ink, w, strokeBox)));
	const opened = dilate(erodeSquare(outside, w, h, radius), w, h, radius);
	const beyond = joinedBeyond(opened, ink, w, h);
	const outline = new Uint8Array(n);
	for (let i = 0; i < n; i++) outline[i] = ink[i]! & beyond[i]!;
	peelStrokes(outline, ink, outside, w, h, radius, em, held);
	const sides = closed || held ? panelSides(inside, w, h) : undefined;
	if (sides) takePaperSide(outline, ink, sides, w);
	if (closed) absorbSlivers(outline, ink, w, h, radius);
	return outline.includes(1) ? outline : undefined;
}

/**
 * Only what joins the world beyond: the pixels of `opened` 8-connected to one that is no ink or lies
 * on the patch edge. A heavy glyph enclosed by the balloon, opened all in ink, stays lettering.
 */
function joinedBeyond(opened: Uint8Array, ink: Uint8Array, w: number, h: number): Uint8Array {
	const joined = new Uint8Array(opened.length);
	for (let y = 0, i = 0; y < h; y++) {
		const edgeRow = y === 0 || y === h - 1;
		for (let x = 0; x < w; x++, i++) {
			if (!opened[i] || joined[i] || (ink[i] && !edgeRow && x !== 0 && x !== w - 1)) continue;
			markJoined(opened, joined, i, w);
		}
	}
	return joined;
}

/**
 * Joins to the outline the ink the opening left along it: where a curved or slanted outline meets
 * the pixel grid, and in the corner where a tail leaves the balloon, the square misses a few pixels
 * of its inner edge, and those chain into a thin line along the outline that would pass for a
 * stroke of lettering (and be erased, a notch cut into the outline). Such a piece lies along the
 * outline: every pixel of it within the square's width of the outline, and half of them next to
 * it. A glyph touching the outline meets it at a few pixels and reaches into the balloon.
 * Only for a closed shape's outline: on open background, "outline" is also lettering the patch edge
 * cuts (glyphs.ts grows the patch past it), and what touches it is the rest of those glyphs.
 */
function absorbSlivers(outline: Uint8Array, ink: Uint8Array, w: number, h: number, radius: number): void {
	const reach = 2 * radius;
	// Only a piece next to the outline can lie along it: each is walked from its first pixel next to
	// it, the rest of the lettering left alone. Two pieces never touch (they would be one), so a way
	// through ink from the outline to a pixel of a piece runs within that piece: the steps are
	// counted over each piece alone, not walked over the patch.
	const seen = outline.slice();
	const steps = new Uint16Array(outline.length);
	const piece: number[] = [];
	const queue: number[] = [];
	for (let i = 0; i < outline.length; i++) {
		if (!ink[i] || seen[i] || !nextToOutline(outline, i, w, h)) continue;
		piece.length = 0;
		markJoined(ink, seen, i, w, piece);
		queue.length = 0;
		for (const j of piece) {
			if (nextToOutline(outline, j, w, h)) {
				steps[j] = 1;
				queue.push(j);
			} else steps[j] = UNREACHED;
		}
		const next = queue.length;
		for (let head = 0; head < queue.length; head++) {
			const j = queue[head]!;
			const on = steps[j]! + 1;
			if (on > reach) break;
			forEachNeighbour(j, w, h, (k) => {
				if (steps[k] !== UNREACHED || !ink[k] || outline[k]) return;
				steps[k] = on;
				queue.push(k);
			});
		}
		if (queue.length === piece.length && 2 * next >= piece.length) for (const j of piece) outline[j] = 1;
	}
}

/**
 * Whether one of pixel i's eight neighbours is outline; past the patch edge, clamped back to the
 * pixel's own row or column (neighboursOr).
 */
function nextToOutline(outline: Uint8Array, i: number, w: number, h: number): boolean {
	const y = (i / w) | 0;
	const x = i - y * w;
	const row = i - x;
	const above = y > 0 ? row - w : row;
	const below = y < h - 1 ? row + w : row;
	const l = x > 0 ? x - 1 : x;
	const r = x < w - 1 ? x + 1 : x;
	return neighboursOr(outline, above, row, below, l, x, r) !== 0;
}

/** Calls `visit` with each of pixel i's eight neighbours within the patch. */
function forEachNeighbour(i: number, w: number, h: number, visit: (k: number) => void): void {
	const y = (i / w) | 0;
	const x = i - y * w;
	for (let ny = Math.max(0, y - 1); ny <= Math.min(h - 1, y + 1); ny++)
		for (let nx = Math.max(0, x - 1); nx <= Math.min(w - 1, x + 1); nx++) if (nx !== x || ny !== y) visit(ny * w + nx);
}

/**
 * The balloon's inside as seen from a reader's box, when no container was found: the background
 * region that holds most of the box, with the background it encloses (regions within its bounds
 * that do not reach the patch edge: counters, pockets between glyphs, and those the box meets),
 * wherever the box was. `held`: the box of a balloon the reader's box holds (patch px); the region
 * is the one holding most of the box within it, as a box run far past a balloon fitted to its
 * lettering holds more of the page around than of the paper between the glyphs. Undefined when that
 * region holds the whole patch edge, no ink on it: nothing lies beyond an outline (findOutline would
 * find none), as around lettering on open background.
 */
export function insideAround(
	ink: Uint8Array,
	w: number,
	h: number,
	readerBox: Box,
	held?: Box,
): Uint8Array | undefined {
	const onBalloon = held && clipBox(readerBox, held);
	const seeded = onBalloon && onBalloon.x1 > onBalloon.x0 && onBalloon.y1 > onBalloon.y0 ? onBalloon : readerBox;
	if (edgeHoldsMost(ink, w, h, seeded)) return undefined;
	const regions = new Int32Array(w * h);
	const background = labelComponents(ink, w, h, regions, 4, 0);
	const interior = mostInside(regions, background.length, w, seeded);
	const bounds = background[interior - 1];
	// 1 for each label (the ink's 0 included) whose pixels are inside: one read a pixel, no branch.
	const insideLabel = new Uint8Array(background.length + 1);
	for (const [k, c] of background.entries()) {
		const taken =
			k + 1 === interior || (!c.touchesEdge && ((!!bounds && within(c, bounds)) || intersects(c, readerBox)));
		insideLabel[k + 1] = taken ? 1 : 0;
	}
	const inside = new Uint8Array(w * h);
	for (let i = 0; i < inside.length; i++) inside[i] = insideLabel[regions[i]!]!;
	return inside;
}

/**
 * Takes glyph strokes that lie along the outline off it. Across the outline, count ink pixels from
 * the balloon's inside (dIn) and from the world beyond it (dOut); the outline's own width there is
 * the median dOut of its inner rim nearby (some eight to twelve strokes around: longer than a
 * stroke laid along it, so a stroke does not count as the outline's width, yet local, as outlines
 * vary and art may back them; around a held balloon, see shelves.ts). Where the band is wider than that by up to two strokes, its outer part of the
 * outline's width is the outline and the rest a stroke laid against it, if that rest joins a glyph
 * or is a glyph's bar of its own (takeLoneStrokes; else it is the outline a pixel wider there) and is
 * no longer than a line is high. Wider bands,
 * and outlines measured wider than two strokes (art drawn against them), are beyond telling apart
 * and stay.
 */
function peelStrokes(
	outline: Uint8Array,
	ink: Uint8Array,
	outside: Uint8Array,
	w: number,
	h: number,
	stroke: number,
	em: number,
	held: HeldBalloon | undefined,
) {
	if (!touchesGlyph(outline, ink, w)) return;
	// Steps through ink from the inside, and from the world beyond (past the patch edge too), only as
	// far as they are read: a pixel is peeled only this near the inside, and from a band no wider than
	// the outline (read up to thickest()) and two strokes; farther is all one, so the walks stop there.
	const nearInside = 2 * stroke + 2;
	const thick = thickest(stroke);
	const { dIn, dOut } = stepsAcrossInk(outside, ink, w, h, nearInside, thick);
	const widthAt = localWidths(outline, dIn, dOut, w, h, stroke);
	const peeled: number[] = [];
	for (let i = 0; i < outline.length; i++) {
		if (!outline[i] || dIn[i]! > nearInside) continue;
		const band = dIn[i]! + dOut[i]! - 1;
		const width = widthAt(i);
		if (width <= 2 * stroke && band > width && band <= width + 2 * stroke + 2 && dOut[i]! > width) {
			outline[i] = 2;
			peeled.push(i);
		}
	}
	if (held) peeled.push(...shelvesOnOutline(outline, outside, ink, dIn, held, w, h));
	if (peeled.length === 0) return;
	// A stroke is no longer than a line of text is high (the reader box's short side at most): a
	// longer peel is the outline itself, measured thicker than the outline near it.
	restoreLong(outline, peeled, w, em);
	// Grow the glyphs into the peeled pixels; what they do not reach goes back to the outline.
	growGlyphsInto(outline, ink, peeled, w);
	const across = (i: number) => (dIn[i]! <= nearInside && dOut[i]! <= thick ? dIn[i]! + dOut[i]! - 1 : 0);
	takeLoneStrokes(outline, peeled, w, stroke, across, widthAt);
	for (const i of peeled) if (outline[i] === 2) outline[i] = 1;
}

/**
 * Gives to the glyphs (0) the outline pixels on the paper's side of a panel's straight sides, away
 * from its corners, that a glyph reaches through such pixels: strokes fitted against the border,
 * however the band across reads there. Only through them: the border itself, where peelStrokes read
 * it wrong, is not reached from there.
 */
function takePaperSide(outline: Uint8Array, ink: Uint8Array, sides: PanelSides, w: number): void {
	const { x0, y0, x1, y1, corner } = sides;
	const side: number[] = [];
	for (let y = y0; y < y1; y++) {
		const inCornerRows = y < y0 + corner || y >= y1 - corner;
		for (let x = x0; x < x1; x++) {
			const i = y * w + x;
			if (outline[i] !== 1 || (inCornerRows && (x < x0 + corner || x >= x1 - corner))) continue;
			outline[i] = 2;
			side.push(i);
		}
	}
	growGlyphsInto(outline, ink, side, w);
	for (const i of side) if (outline[i] === 2) outline[i] = 1;
}

/**
 * Gives to the glyphs (0) the peeled pixels (2) among `peeled` that a glyph reaches through peeled
 * pixels. The growth starts from the peeled pixels next to a glyph, not from every glyph pixel: it
 * reaches the same pixels, and the peeled ones are few.
 */
function growGlyphsInto(outline: Uint8Array, ink: Uint8Array, peeled: number[], w: number): void {
	const queue = new Int32Array(peeled.length);
	let end = 0;
	for (const i of peeled) {
		if (outline[i] !== 2 || !nextToGlyph(outline, ink, i, w)) continue;
		outline[i] = 0;
		queue[end++] = i;
	}
	spreadPeeled(outline, queue, end, w, 0);
}

/** Whether one of pixel i's eight neighbours is ink the outline does not hold: a glyph's. */
function nextToGlyph(outline: Uint8Array, ink: Uint8Array, i: number, w: number): boolean {
	const x = i % w;
	for (let dy = -1; dy <= 1; dy++) {
		const row = i + dy * w;
		if (row < 0 || row >= outline.length) continue;
		for (let dx = x > 0 ? -1 : 0; dx <= (x < w - 1 ? 1 : 0); dx++) if (ink[row + dx] && !outline[row + dx]) return true;
	}
	return false;
}

/**
 * Gives to the lettering (0) the peeled pieces no glyph reached that are glyphs of one stroke laid
 * along the outline (an alef, an "l" ending a line against a tight panel's border): such a glyph
 * joins no other. Told from the outline measured a little wider there by being a bar: it stands out
 * of the outline by more than a stroke (`across`, the band's width, less the outline's), is wider
 * than the outline itself, at least four strokes long and three times as long as wide, and fills
 * its bounds (a crescent where a brushed outline swells, or a rounded corner, does not).
 */
function takeLoneStrokes(
	outline: Uint8Array,
	peeled: number[],
	w: number,
	stroke: number,
	across: (i: number) => number,
	widthAt: (i: number) => number,
): void {
	forEachPiece(outline, peeled, w, (piece, size, box) => {
		let beyond = 0;
		let width = 0;
		for (let k = 0; k < size; k++) {
			const i = piece[k]!;
			width = Math.max(width, widthAt(i));
			beyond = Math.max(beyond, across(i) - widthAt(i));
		}
		const long = Math.max(box.x1 - box.x0, box.y1 - box.y0);
		const short = Math.min(box.x1 - box.x0, box.y1 - box.y0);
		const bar = long >= 4 * stroke && long >= 3 * short && 5 * size >= 4 * long * short;
		if (bar && beyond > stroke && short > width) for (let k = 0; k < size; k++) outline[piece[k]!] = 0;
	});
}

/**
 * Gives back to the outline (1) the peeled pixels (2) whose piece, 8-connected, is longer than `em`
 * across or down.
 */
function restoreLong(outline: Uint8Array, peeled: number[], w: number, em: number): void {
	forEachPiece(outline, peeled, w, (piece, size, box) => {
		if (Math.max(box.x1 - box.x0, box.y1 - box.y0) > em) for (let k = 0; k < size; k++) outline[piece[k]!] = 1;
	});
}

/**
 * Calls `visit` with each 8-connected piece of peeled pixels (2): its first `size` pixels of `piece`
 * and its bounds; `visit` may give them back to the outline (1) or to the glyphs (0). Each piece is
 * walked over its own pixels, marked 3 as they are met (2 again once all are, those left so): the
 * peeled pixels are few, and labelling the patch for them cost more than the peel.
 */
function forEachPiece(
	outline: Uint8Array,
	peeled: number[],
	w: number,
	visit: (piece: Int32Array, size: number, box: Box) => void,
): void {
	const piece = new Int32Array(peeled.length);
	for (const start of peeled) {
		if (outline[start] !== 2) continue;
		outline[start] = 3;
		piece[0] = start;
		const end = spreadPeeled(outline, piece, 1, w, 3);
		let x0 = w;
		let y0 = Number.POSITIVE_INFINITY;
		let x1 = 0;
		let y1 = 0;
		for (let k = 0; k < end; k++) {
			const y = (piece[k]! / w) | 0;
			const x = piece[k]! - y * w;
			if (x < x0) x0 = x;
			if (x >= x1) x1 = x + 1;
			if (y < y0) y0 = y;
			if (y >= y1) y1 = y + 1;
		}
		visit(piece, end, { x0, y0, x1, y1 });
	}
	for (const i of peeled) if (outline[i] === 3) outline[i] = 2;
}

/**
 * Spreads from the first `end` pixels of `queue` through peeled pixels (2), 8-connected, marking
 * each one met `mark` and adding it to `queue`; the queue's new end. Walked over the peeled pixels
 * alone: they are few, and a flood over the patch would read all of it.
 */
function spreadPeeled(outline: Uint8Array, queue: Int32Array, end: number, w: number, mark: number): number {
	for (let head = 0; head < end; head++) {
		const i = queue[head]!;
		const x = i % w;
		for (let dy = -1; dy <= 1; dy++) {
			const row = i + dy * w;
			if (row < 0 || row >= outline.length) continue;
			for (let dx = x > 0 ? -1 : 0; dx <= (x < w - 1 ? 1 : 0); dx++) {
				if (outline[row + dx] !== 2) continue;
				outline[row + dx] = mark;
				queue[end++] = row + dx;
			}
		}
	}
	return end;
}

/**
 * Whether any other ink touches the outline: only then can a stroke lie along it. Row by row, a
 * neighbour past the patch edge clamped back to the pixel's own row or column (no outline there to
 * find, or one the clamped neighbour already is): no division, no bounds checked per neighbour.
 */
function touchesGlyph(outline: Uint8Array, ink: Uint8Array, w: number): boolean {
	const h = outline.length / w;
	for (let y = 0; y < h; y++) {
		const row = y * w;
		const above = y > 0 ? row - w : row;
		const below = y < h - 1 ? row + w : row;
		for (let x = 0; x < w; x++) {
			if (!ink[row + x] || outline[row + x]) continue;
			const l = x > 0 ? x - 1 : x;
			const r = x < w - 1 ? x + 1 : x;
			if (neighboursOr(outline, above, row, below, l, x, r)) return true;
		}
	}
	return false;
}

/**
 * The outline's width near each pixel: the median dOut of the outline's inner rim in the cells of
 * eight strokes around the pixel's cell (cells keep it linear in the patch size).
 */
function localWidths(outline: Uint8Array, dIn: Uint16Array, dOut: Uint16Array, w: number, h: number, stroke: number) {
	const thick = thickest(stroke);
	const cell = 8 * stroke;
	const cw = Math.ceil(w / cell);
	const ch = Math.ceil(h / cell);
	const counts = new Uint32Array(cw * ch * (thick + 1));
	for (let i = 0; i < outline.length; i++) {
		if (!outline[i] || dIn[i] !== 1) continue;
		const x = i % w;
		const c = Math.floor((i - x) / w / cell) * cw + Math.floor(x / cell);
		counts[c * (thick + 1) + Math.min(thick, dOut[i]!)]!++;
	}
	const medians = new Uint16Array(cw * ch);
	const around = new Uint32Array(thick + 1);
	for (let cy = 0; cy < ch; cy++) {
		for (let cx = 0; cx < cw; cx++) {
			around.fill(0);
			let n = 0;
			for (let y = Math.max(0, cy - 1); y <= Math.min(ch - 1, cy + 1); y++) {
				for (let x = Math.max(0, cx - 1); x <= Math.min(cw - 1, cx + 1); x++) {
					for (let d = 0; d <= thick; d++) {
						const k = counts[(y * cw + x) * (thick + 1) + d]!;
						around[d]! += k;
						n += k;
					}
				}
			}
			let median = thick;
			for (let d = 0, seen = 0; d <= thick && n > 0; d++) {
				seen += around[d]!;
				if (2 * seen >= n) {
					median = d;
					break;
				}
			}
			medians[cy * cw + cx] = median;
		}
	}
	return (i: number) => {
		const x = i % w;
		return medians[Math.floor((i - x) / w / cell) * cw + Math.floor(x / cell)]!;
	};
}

/** Widest outline localWidths tells apart (wider ones all count as this wide): four strokes and a little. */
function thickest(stroke: number): number {
	return 4 * stroke + 4;
}

/**
 * Whether, no ink lying on the patch edge, the background along it (one region, the first labelled)
 * holds some of the box and as much of it as the rest of the background there together: then it is
 * the region mostInside picks whatever the others are, and they need no labels. Told by the box's
 * background pixels with a straight way to the edge free of ink, along their row or their column:
 * those lie in the background along the edge, so when they are as many as the rest, it holds the
 * most. Lettering on open background leaves most of its box's background so (between its lines, and
 * round it); in a balloon, the inside holds the box, and the labels are needed.
 */
function edgeHoldsMost(ink: Uint8Array, w: number, h: number, box: Box): boolean {
	// A box run past the patch (a caption's, grown past the search area) is left to the labels.
	if (box.x0 < 0 || box.y0 < 0 || box.x1 > w || box.y1 > h) return false;
	let inkOnEdge = false;
	forEachEdgePixel(w, h, (i) => {
		if (ink[i]) inkOnEdge = true;
	});
	if (inkOnEdge) return false;
	const bw = box.x1 - box.x0;
	const bh = box.y1 - box.y0;
	// The first and last ink of each of the box's rows across the patch, and of each of its columns down it.
	const rowFirst = new Int32Array(bh).fill(w);
	const rowLast = new Int32Array(bh).fill(-1);
	for (let y = box.y0; y < box.y1; y++) {
		const row = y * w;
		let x = 0;
		while (x < w && !ink[row + x]) x++;
		if (x === w) continue;
		rowFirst[y - box.y0] = x;
		x = w - 1;
		while (!ink[row + x]) x--;
		rowLast[y - box.y0] = x;
	}
	const colFirst = new Int32Array(bw).fill(h);
	const colLast = new Int32Array(bw).fill(-1);
	for (let y = 0; y < h; y++) {
		for (let x = box.x0, i = y * w + x; x < box.x1; x++, i++) {
			if (!ink[i]) continue;
			if (colFirst[x - box.x0] === h) colFirst[x - box.x0] = y;
			colLast[x - box.x0] = y;
		}
	}
	let straight = 0;
	let blocked = 0;
	for (let y = box.y0; y < box.y1; y++) {
		const [first, last] = [rowFirst[y - box.y0]!, rowLast[y - box.y0]!];
		for (let x = box.x0, i = y * w + x; x < box.x1; x++, i++) {
			if (ink[i]) continue;
			const k = x - box.x0;
			if (x < first || x > last || y < colFirst[k]! || y > colLast[k]!) straight++;
			else blocked++;
		}
	}
	return straight > 0 && straight >= blocked;
}

/** The 1-based region label with the most pixels inside the box (0 when none). */
function mostInside(regions: Int32Array, count: number, w: number, box: Box): number {
	const inside = new Uint32Array(count + 1);
	for (let y = box.y0; y < box.y1; y++) for (let x = box.x0; x < box.x1; x++) inside[regions[y * w + x]!]!++;
	// Label 0 is the ink, which may well hold more of a tight box than any background region.
	let best = 0;
	for (let k = 1; k <= count; k++) if (inside[k]! > (best === 0 ? 0 : inside[best]!)) best = k;
	return best;
}

/**
 * Whether the outside (ink, or not inside) holds a pixel on the patch edge: asked of the edge alone,
 * before the outside is worked out over the whole patch (text on open background has none).
 */
function outsideReachesEdge(ink: Uint8Array, inside: Uint8Array, w: number, h: number): boolean {
	const outside = (i: number) => ink[i] !== 0 || inside[i] === 0;
	for (let x = 0; x < w; x++) if (outside(x) || outside((h - 1) * w + x)) return true;
	for (let y = 0; y < h; y++) if (outside(y * w) || outside(y * w + w - 1)) return true;
	return false;
}

/**
 * 1 where the whole square of side 2·radius+1 around the pixel is set; pixels beyond the patch
 * count as set. Separable, by runs: along each row, a run of set pixels keeps its pixels more than
 * `radius` from both its ends (a run reaching the patch edge has no end there); then likewise down
 * the columns (forEachColumnRun). Only the pixels kept are written: most of a patch is unset or kept
 * whole.
 */
function erodeSquare(set: Uint8Array, w: number, h: number, radius: number): Uint8Array {
	const rows = new Uint8Array(set.length);
	for (let y = 0; y < h; y++) {
		const row = y * w;
		let x = 0;
		while (x < w) {
			while (x < w && !set[row + x]) x++;
			const start = x;
			while (x < w && set[row + x]) x++;
			const to = x === w ? w : x - radius;
			for (let k = row + (start === 0 ? 0 : start + radius), end = row + to; k < end; k++) rows[k] = 1;
		}
	}
	const out = new Uint8Array(set.length);
	forEachColumnRun(rows, w, h, (x, start, end) => {
		const to = end === h ? h : end - radius;
		for (let k = start === 0 ? 0 : start + radius; k < to; k++) out[k * w + x] = 1;
	});
	return out;
}
