/**
 * The glyphs of one block inside a work patch, from an ink score (ink.ts): pixels with a high score
 * seed glyph components, pixels above the weak threshold next to them join (their anti-aliased rim),
 * and whatever they enclose (counters, the fill of outlined lettering). A balloon outline that glyphs
 * touch would take them along when dropped: it is found by its shape first (outline.ts) and taken
 * out of the ink, so the glyphs stand alone.
 *
 * Which components are glyphs depends on what holds them:
 * - in a container (a balloon or panel found in the pixels): every text-sized component that meets
 *   the container's background, wherever the reader's box was;
 * - on open background or art: the components the reader's box holds, and then every text-sized
 *   component within a glyph's size of those, and so on: the lettering beyond a box cut short.
 */
import { clipBox, grow, intersects, union, within } from "../patch";
import type { Box, Patch } from "../types";
import { type Component, labelComponents } from "./components";
import type { InkScore } from "./ink";
import { boundingBox, fillHolesInBounds, growInto, strokeWidth, without } from "./masks";
import { findOutline, insideAround } from "./outline";
import { panelSides } from "./panel-sides";
import type { HeldBalloon } from "./shelves";

export type { Component } from "./components";

/** The lettering found in a patch: 1 where a pixel belongs to a glyph (anti-aliased rim included). */
export interface Glyphs {
	mask: Uint8Array;
	/** Glyph pixels that stand out clearly: their colour is the text colour. */
	core: Uint8Array;
	/** Bounding box of the mask in patch coordinates; undefined when nothing was found. */
	box?: Box;
	/** The kept glyph components, for size and weight estimates. */
	components: Component[];
	/** Balloon outline (or art) that lettering touches: never lettering, and to be kept as drawn. */
	outline?: Uint8Array;
	/** Typical glyph size, px: the 80th percentile of the kept components' longer side. */
	glyphSize: number;
}

/** A shape's inside, in squares of the reader box's shorter side, at least, for its outline to be a drawn one. */
const DRAWN_EMS = 2;
/** Seeds' longer sides above this many glyph sizes across the lines are art, not lettering. */
const ACROSS_GLYPHS = 2.5;
/** ... and along the lines (an Arabic word is one component several glyphs long). */
const ALONG_GLYPHS = 10;
/** Beyond this many glyph sizes along the lines, a component is a word only if it is thick... */
const LONG_GLYPHS = 3;
/** ...this many glyph sizes across them. */
const THICK_GLYPHS = 0.4;
/** Thickness (area over length) of a component over half a glyph long, at least, in glyph sizes. */
const STROKE = 0.04;
/** Components within this many glyph sizes of the lettering join it (word spaces, line gaps, columns). */
const LINK_GLYPHS = 0.6;

/**
 * The glyphs inside a container: `interior` marks the container's background (the flood of it),
 * `inside` the whole shape (the interior and all it encloses); `lettered` is where its lettering
 * is known to lie (what the shape encloses and what the reader's box holds of it). Undefined when
 * the container holds art: a component larger than lettering, as a panel of the page around
 * narration would. Glyph
 * sizes measured are capped at `maxGlyph` (what the region's text could be at most, maxGlyph below),
 * so that art joined to the lettering does not pass for large glyphs.
 */
export function glyphsInContainer(
	patch: Patch,
	ink: InkScore,
	interior: Uint8Array,
	inside: Uint8Array,
	strokeBox: Box,
	readerBox: Box,
	lettered: Box,
	vertical: boolean,
	maxGlyph: number,
): Glyphs | undefined {
	const { width: w, height: h } = patch;
	const n = w * h;
	const { strongInk, background, bounds, insideArea } = splitInside(ink.score, ink.strong, inside, w, h);
	// The counters of a glyph touching the outline are not enclosed by the interior, yet are the
	// balloon's inside: taken for the world beyond, they would make the glyph a blot of outline.
	// Looked for all over the shape, not only where the reader's box is: a box moved off a line
	// fitted tight to the outline would leave that line's glyphs at the outline for outline.
	// A counter lies a stroke from the paper; 2·area/boundary reads short strokes thin (their ends
	// count as boundary), so a pixel more than the stroke rounded, past the pixel it is measured from.
	const reach = Math.max(COUNTER_REACH, Math.round(strokeWidth(strongInk, w, strokeBox)) + 2);
	const insideBackground = withCounters(inside, background, bounds, strongInk, ink, w, h, lettered, reach);
	const em = Math.min(readerBox.x1 - readerBox.x0, readerBox.y1 - readerBox.y0);
	// A drawn outline is kept whole (findOutline's `closed`) around a shape room for lettering, or a
	// rectangular panel half that size (the reader's box, run past a small panel, may be as large as
	// it: its straight sides still tell strokes fitted against the border from it); in a pocket of a
	// pattern no larger than a glyph or two, the "outline" is the pattern the glyph crosses (a
	// screentone's grid leaves rectangular pockets too).
	// Of a box run over the shape and far past it (two panels read as one), the part on the shape.
	const onShape = bounds ? clipBox(readerBox, bounds) : readerBox;
	const onShapeSide = Math.min(onShape.x1 - onShape.x0, onShape.y1 - onShape.y0);
	const shapeEm = onShapeSide > 0 ? Math.min(em, onShapeSide) : em;
	const drawn =
		insideArea >= DRAWN_EMS * shapeEm * shapeEm ||
		(insideArea >= shapeEm * shapeEm && panelSides(insideBackground, w, h) !== undefined);
	const outline = findOutline(strongInk, w, h, insideBackground, strokeBox, em, drawn);
	const labels = new Int32Array(n);
	const seeds = outline ? without(strongInk, outline) : strongInk;
	const components = labelComponents(seeds, w, h, labels);
	const meets = meetsAreas(labels, components.length, interior, insideBackground, w, h);
	const candidates = components.map(
		(c, k) => (meets[k]! & IN_FIRST) !== 0 && !c.touchesEdge && c.area <= 0.5 * insideArea,
	);
	// A stroke alone in a glyph's counter by the outline (the dot in 的's 勺) meets only that counter:
	// lettering when a glyph's bounds hold it, not as a speck in a pocket away from the glyphs.
	const glyphBoxes = components.filter((_, k) => candidates[k]);
	for (const [k, c] of components.entries())
		if (!candidates[k] && meets[k]! & IN_SECOND && !c.touchesEdge && glyphBoxes.some((g) => within(c, g)))
			candidates[k] = true;
	const glyphSize = Math.min(maxGlyph, sizeOf(components.filter((_, k) => candidates[k])));
	// Lettering is all a balloon holds: a larger shape in it is art, and the "container" a panel of the page.
	if (components.some((c, k) => candidates[k] && !textSized(c, glyphSize, vertical))) return undefined;
	return assemble(labels, candidates, components, ink, w, h, outline, glyphSize);
}

/**
 * What the search in a container asks of every pixel first, in one pass: the strong ink (the pixels
 * scoring `strong` or more), the inside's background (the inside without that ink), and the
 * inside's bounds and area.
 */
function splitInside(
	score: Uint8Array,
	strong: number,
	inside: Uint8Array,
	w: number,
	h: number,
): { strongInk: Uint8Array; background: Uint8Array; bounds?: Box; insideArea: number } {
	const strongInk = new Uint8Array(w * h);
	const background = new Uint8Array(w * h);
	let insideArea = 0;
	let x0 = w;
	let y0 = h;
	let x1 = 0;
	let y1 = 0;
	for (let y = 0, i = 0; y < h; y++) {
		let first = -1;
		let last = -1;
		for (let x = 0; x < w; x++, i++) {
			const isStrong = score[i]! >= strong ? 1 : 0;
			strongInk[i] = isStrong;
			if (!inside[i]) continue;
			insideArea++;
			background[i] = 1 - isStrong;
			if (first < 0) first = x;
			last = x;
		}
		if (first < 0) continue;
		if (first < x0) x0 = first;
		if (last >= x1) x1 = last + 1;
		if (y < y0) y0 = y;
		y1 = y + 1;
	}
	const bounds = x1 > x0 ? { x0, y0, x1, y1 } : undefined;
	return bounds ? { strongInk, background, bounds, insideArea } : { strongInk, background, insideArea };
}

/**
 * The inside's background with the counters of glyphs that touch the outline: pockets within the
 * inside's bounds, reaching to within `reach` (a stroke) of the inside or of a counter already found (a
 * glyph's counter may lie in another's pocket: the halves of 友's 又 in a corner). Where the
 * lettering is known to lie (`lettered`), any pocket; elsewhere, where a box moved off a line
 * fitted tight to the outline did not reach, only pockets of the container's paper: most of their
 * pixels score below the weak threshold, and they are larger than a speck. Light art beyond the
 * outline, in the corners of an ellipse's bounds, lies next to the inside too, but is not the
 * balloon's colour, and grain between the strokes of art leaves specks. The counters are added to
 * `insideBackground` (the inside without the strong ink); `bounds` are the inside's.
 */
function withCounters(
	inside: Uint8Array,
	insideBackground: Uint8Array,
	bounds: Box | undefined,
	strongInk: Uint8Array,
	ink: InkScore,
	w: number,
	h: number,
	lettered: Box,
	reach: number,
): Uint8Array {
	if (!bounds) return insideBackground;
	const area = {
		x0: Math.max(0, bounds.x0 - COUNTER_MARGIN),
		y0: Math.max(0, bounds.y0 - COUNTER_MARGIN),
		x1: Math.min(w, bounds.x1 + COUNTER_MARGIN),
		y1: Math.min(h, bounds.y1 + COUNTER_MARGIN),
	};
	const aw = area.x1 - area.x0;
	const ah = area.y1 - area.y0;
	/** Where row y of the area starts in the patch. */
	const rowAt = (y: number) => (area.y0 + y) * w + area.x0;
	const background = new Uint8Array(aw * ah);
	const reached = new Uint8Array(aw * ah);
	for (let y = 0; y < ah; y++) {
		const from = rowAt(y);
		reached.set(inside.subarray(from, from + aw), y * aw);
		for (let i = y * aw, j = from, end = i + aw; i < end; i++, j++) background[i] = 1 - strongInk[j]!;
	}
	const labels = new Int32Array(aw * ah);
	const local = { x0: bounds.x0 - area.x0, y0: bounds.y0 - area.y0, x1: bounds.x1 - area.x0, y1: bounds.y1 - area.y0 };
	const box = {
		x0: lettered.x0 - area.x0,
		y0: lettered.y0 - area.y0,
		x1: lettered.x1 - area.x0,
		y1: lettered.y1 - area.y0,
	};
	const pockets = labelComponents(background, aw, ah, labels, 4);
	/** How many pixels of pocket k score below the weak threshold: the container's paper. */
	const paper = (k: number) => {
		const { x0, y0, x1, y1 } = pockets[k]!;
		let count = 0;
		for (let y = y0; y < y1; y++) {
			const from = rowAt(y);
			for (let x = x0; x < x1; x++) if (labels[y * aw + x] === k + 1 && ink.score[from + x]! < ink.weak) count++;
		}
		return count;
	};
	const counters = pockets.map(
		(c, k) =>
			!c.touchesEdge &&
			within(c, local) &&
			(intersects(c, box) || (c.area >= MIN_POCKET && paper(k) >= PAPER_SHARE * c.area)),
	);
	// Each counter is asked over its own bounds, not the whole area: counters are a glyph's size.
	const taken = new Uint8Array(counters.length);
	let waiting = counters.flatMap((counter, k) => (counter ? [k] : []));
	for (let round = 0; round < COUNTER_DEPTH && waiting.length > 0; round++) {
		// Only the pixels of counters not yet taken are asked whether they are near: a square around
		// each, until one is, rather than a dilation of the whole area (most of it the inside) a round.
		const added = waiting.filter((k) => nearPocket(labels, pockets[k]!, k + 1, reached, aw, ah, reach));
		if (added.length === 0) break;
		for (const k of added) {
			taken[k] = 1;
			const { x0, y0, x1, y1 } = pockets[k]!;
			for (let y = y0; y < y1; y++)
				for (let i = y * aw + x0, end = y * aw + x1; i < end; i++) if (labels[i] === k + 1) reached[i] = 1;
		}
		waiting = waiting.filter((k) => !taken[k]);
	}
	for (const [k, pocket] of pockets.entries()) {
		if (!taken[k]) continue;
		for (let y = pocket.y0; y < pocket.y1; y++) {
			const to = rowAt(y);
			for (let x = pocket.x0; x < pocket.x1; x++) if (labels[y * aw + x] === k + 1) insideBackground[to + x] = 1;
		}
	}
	return insideBackground;
}

/** Whether a pixel labelled `label` (within its pocket's bounds) is within `reach` of `reached`. */
function nearPocket(
	labels: Int32Array,
	pocket: Box,
	label: number,
	reached: Uint8Array,
	w: number,
	h: number,
	reach: number,
): boolean {
	for (let y = pocket.y0; y < pocket.y1; y++)
		for (let x = pocket.x0; x < pocket.x1; x++)
			if (labels[y * w + x] === label && nearSet(reached, w, h, x, y, reach)) return true;
	return false;
}

/** Whether a pixel of `mask` is set within `radius` (chessboard) of (x, y): a square dilation, asked at one pixel. */
function nearSet(mask: Uint8Array, w: number, h: number, x: number, y: number, radius: number): boolean {
	if (mask[y * w + x]) return true;
	const x0 = Math.max(0, x - radius);
	const x1 = Math.min(w - 1, x + radius);
	for (let ny = Math.max(0, y - radius), y1 = Math.min(h - 1, y + radius); ny <= y1; ny++)
		for (let i = ny * w + x0, end = ny * w + x1; i <= end; i++) if (mask[i]) return true;
	return false;
}

/** Margin (px) around the inside's bounds within which counters are looked for: a pocket reaching it leaks out. */
const COUNTER_MARGIN = 16;
/** How far from the inside (px) a glyph's counter may lie, at least: a thin stroke's width (heavier lettering, its own). */
const COUNTER_REACH = 4;
/** Fewest pixels of a pocket told by its colour: a speck's few pixels say nothing of it. */
const MIN_POCKET = 9;
/** Share of a pocket's pixels of the container's colour, at least, for it to be the container's paper. */
const PAPER_SHARE = 0.75;
/** How many counters deep (a counter within a stroke of a counter only) they are looked for. */
const COUNTER_DEPTH = 3;

/** Which sides of the patch the search may not grow past: lettering running into them is cut off there. */
export interface Sides {
	left: boolean;
	top: boolean;
	right: boolean;
	bottom: boolean;
}

/**
 * The lettering around a reader's box on open background or art. `ownedElsewhere` tells, for a
 * component (patch coordinates), that it is another block's: inside another region's box rather
 * than this one's, or inside another block's container. `final` marks the patch sides that are the
 * search area's: components that touch them are art running on (or lettering beyond reach), never
 * glyphs. `balloon` marks the inside of a balloon the reader's box holds (its strokes may lie along
 * its outline, and the art around it be ink against its paper). Components touching another side,
 * or as near it as glyphs are linked, make `reachesEdge` true: the caller grows the patch.
 */
export function glyphsAround(
	patch: Patch,
	ink: InkScore,
	readerBox: Box,
	vertical: boolean,
	maxGlyph: number,
	ownedElsewhere: (c: Component) => boolean,
	final: Sides,
	balloon?: Uint8Array,
): Glyphs & { reachesEdge: boolean } {
	const { width: w, height: h } = patch;
	const strongInk = threshold(ink.score, ink.strong);
	const held: HeldBalloon | undefined = balloon && {
		inside: balloon,
		dark: asDarkAsLettering(ink, strongInk, readerBox, w),
	};
	// On a pattern, lettering splits the tone into pockets that would pass for the world beyond an outline.
	const em = Math.min(readerBox.x1 - readerBox.x0, readerBox.y1 - readerBox.y0);
	const inside = ink.onPattern
		? undefined
		: insideAround(strongInk, w, h, readerBox, balloon && boundingBox(balloon, w, h));
	const outline = inside && findOutline(strongInk, w, h, inside, readerBox, em, false, held);
	const labels = new Int32Array(w * h);
	const seeds = outline ? without(strongInk, outline) : strongInk;
	const components = labelComponents(seeds, w, h, labels);
	const readerArea = (readerBox.x1 - readerBox.x0) * (readerBox.y1 - readerBox.y0);
	const cut = (c: Component) =>
		(final.left && c.x0 === 0) ||
		(final.top && c.y0 === 0) ||
		(final.right && c.x1 === w) ||
		(final.bottom && c.y1 === h);
	const usable = components.map((c) => {
		const encloses = c.x1 - c.x0 > 0.9 * w && c.y1 - c.y0 > 0.9 * h;
		return !encloses && !cut(c) && c.area <= 0.5 * readerArea && !ownedElsewhere(c);
	});
	const inBox = components.map((c, k) => usable[k]! && mostlyIn(c, readerBox));
	const glyphSize = Math.min(maxGlyph, sizeOf(components.filter((_, k) => inBox[k])));
	const kept = components.map((c, k) => inBox[k]! && textSized(c, glyphSize, vertical));
	const candidate = (k: number) => usable[k]! && textSized(components[k]!, glyphSize, vertical);
	linkNeighbours(components, kept, candidate, glyphSize);
	// On texture the glyphs are those of the ink's colour: lines of it across the lettering found, set
	// at its size along the same stretch, are the block's other lines, however wide its leading.
	if (ink.colour) linkLines(components, kept, candidate, glyphSize, vertical);
	const glyphs = assemble(labels, kept, components, ink, w, h, outline, glyphSize);
	const reach = linkReach(glyphSize);
	const nearSide = (c: Component, d: number) =>
		(!final.left && c.x0 < d) ||
		(!final.top && c.y0 < d) ||
		(!final.right && c.x1 > w - d) ||
		(!final.bottom && c.y1 > h - d);
	// A glyph as near the patch edge as glyphs are linked may have a neighbour just beyond it (the gap
	// between two words, or between a Korean syllable's parts, can be wider than the patch's margin).
	// A piece of outline the patch edge cuts may be a glyph taken for outline (beyond the patch counts
	// as the world beyond a balloon): next to the lettering, it asks for a larger patch too, where it is
	// seen whole.
	const reachesEdge =
		glyphs.components.some((c) => nearSide(c, reach)) ||
		(!!outline &&
			outlinePieces(outline, w, h).some((p) => nearSide(p, 1) && glyphs.components.some((c) => gap(p, c) <= reach)));
	return { ...glyphs, reachesEdge };
}

/**
 * The ink as dark as the lettering: scoring within DARK_LEVELS of the lettering's own score, the
 * score nine tenths of the strong ink in the reader's box reach (the lettering is the darkest there;
 * a rough box takes in art too). Balloons are outlined in the lettering's black; the art around them
 * is lighter where it does not meet the lettering's black.
 */
function asDarkAsLettering(ink: InkScore, strongInk: Uint8Array, readerBox: Box, w: number): Uint8Array {
	const counts = new Uint32Array(256);
	let n = 0;
	for (let y = readerBox.y0; y < readerBox.y1; y++) {
		for (let x = readerBox.x0; x < readerBox.x1; x++) {
			if (!strongInk[y * w + x]) continue;
			counts[ink.score[y * w + x]!]!++;
			n++;
		}
	}
	let level = ink.strong;
	for (let v = 0, seen = 0; v < 256 && n > 0; v++) {
		seen += counts[v]!;
		if (seen >= LETTERING_SHARE * n) {
			level = v;
			break;
		}
	}
	return threshold(ink.score, Math.max(ink.strong, level - DARK_LEVELS));
}

/** Share of the strong ink in the reader's box scoring at most the lettering's level. */
const LETTERING_SHARE = 0.9;
/** How far below the lettering's score ink is still as dark (out of 255). */
const DARK_LEVELS = 16;

/** The outline's connected pieces (findOutline's mask is 0 or 1 a pixel, as labelComponents takes). */
function outlinePieces(outline: Uint8Array, w: number, h: number): Component[] {
	return labelComponents(outline, w, h, new Int32Array(w * h));
}

/**
 * Adds to `kept` every candidate within LINK_GLYPHS glyph sizes of a kept component, until none is
 * left to add. On a pattern or texture the candidates are many (every dot of the tone is text-sized),
 * so they are filed in a grid of cells, each in the cells its box grown by the reach meets: a kept
 * component asks only the cells its own box meets.
 */
function linkNeighbours(
	components: Component[],
	kept: boolean[],
	candidate: (k: number) => boolean,
	glyphSize: number,
): void {
	const reach = linkReach(glyphSize);
	const cell = Math.max(LINK_CELL_MIN, Math.ceil(2 * reach));
	let columns = 1;
	for (const c of components) columns = Math.max(columns, Math.floor((c.x1 + reach) / cell) + 1);
	const cells = new Map<number, number[]>();
	const waiting = new Uint8Array(components.length);
	const queue: number[] = [];
	for (const [k, c] of components.entries()) {
		if (kept[k]) {
			queue.push(k);
			continue;
		}
		if (!candidate(k)) continue;
		waiting[k] = 1;
		const [cx0, cx1] = [Math.max(0, Math.floor((c.x0 - reach) / cell)), Math.floor((c.x1 + reach) / cell)];
		for (let cy = Math.max(0, Math.floor((c.y0 - reach) / cell)); cy <= Math.floor((c.y1 + reach) / cell); cy++) {
			for (let cx = cx0; cx <= cx1; cx++) {
				const key = cy * columns + cx;
				const list = cells.get(key);
				if (list) list.push(k);
				else cells.set(key, [k]);
			}
		}
	}
	while (queue.length > 0) {
		const f = components[queue.pop()!]!;
		for (let cy = Math.floor(f.y0 / cell); cy <= Math.floor(f.y1 / cell); cy++) {
			for (let cx = Math.floor(f.x0 / cell); cx <= Math.floor(f.x1 / cell); cx++) {
				for (const k of cells.get(cy * columns + cx) ?? []) {
					if (!waiting[k] || gap(components[k]!, f) > reach) continue;
					waiting[k] = 0;
					kept[k] = true;
					queue.push(k);
				}
			}
		}
	}
}

/** Smallest side (px) of linkNeighbours' grid cells. */
const LINK_CELL_MIN = 8;

/** Glyph sizes across the lines between one line and the next, at most: a wide leading. */
const LINE_GAP_GLYPHS = 1;
/** Glyphs, at least, a line across the lettering holds (a stray mark of the ink's colour is one). */
const LINE_GLYPHS = 2;
/** Share of the glyph size a line's tallest glyph reaches across the lines, at least: specks are no line. */
const LINE_HEIGHT = 0.6;

/**
 * Adds to `kept`, line by line, the candidates lying across the lines from the kept lettering (above
 * and below it, or beside it for columns) within LINE_GAP_GLYPHS glyph sizes, along the stretch it
 * spans: when they make a line of LINE_GLYPHS glyphs or more, one at least as tall as lettering,
 * they are its next line, and the glyphs linked to them (linkNeighbours) join it too.
 */
function linkLines(
	components: Component[],
	kept: boolean[],
	candidate: (k: number) => boolean,
	glyphSize: number,
	vertical: boolean,
): void {
	const across = (c: Box): [number, number] => (vertical ? [c.x0, c.x1] : [c.y0, c.y1]);
	const along = (c: Box): [number, number] => (vertical ? [c.y0, c.y1] : [c.x0, c.x1]);
	const reach = LINE_GAP_GLYPHS * glyphSize;
	for (let added = true; added; ) {
		added = false;
		const held = components.filter((_, k) => kept[k]);
		if (held.length === 0) return;
		const bounds = held.reduce<Box>((b, c) => union(b, c), held[0]!);
		const [a0, a1] = across(bounds);
		const [l0, l1] = along(bounds);
		for (const before of [true, false]) {
			const line = components.flatMap((c, k) => {
				if (kept[k] || !candidate(k)) return [];
				const [c0, c1] = across(c);
				const [d0, d1] = along(c);
				const gapAcross = before ? a0 - c1 : c0 - a1;
				return gapAcross > 0 && gapAcross <= reach && d1 > l0 - glyphSize && d0 < l1 + glyphSize ? [k] : [];
			});
			const tallest = line.reduce(
				(most, k) => Math.max(most, across(components[k]!)[1] - across(components[k]!)[0]),
				0,
			);
			if (line.length < LINE_GLYPHS || tallest < LINE_HEIGHT * glyphSize) continue;
			for (const k of line) kept[k] = true;
			linkNeighbours(components, kept, candidate, glyphSize);
			added = true;
		}
	}
}

/** How far (px) from the lettering a component joins it, for glyphs of this size. */
export function linkReach(glyphSize: number): number {
	return Math.max(2, LINK_GLYPHS * glyphSize);
}

/** Chessboard distance between two boxes (0 when they touch or overlap). */
function gap(a: Box, b: Box): number {
	return Math.max(0, a.x0 - b.x1, b.x0 - a.x1, a.y0 - b.y1, b.y0 - a.y1);
}

function mostlyIn(c: Component, box: Box): boolean {
	const w = Math.min(c.x1, box.x1) - Math.max(c.x0, box.x0);
	const h = Math.min(c.y1, box.y1) - Math.max(c.y0, box.y0);
	return w > 0 && h > 0 && 2 * w * h >= (c.x1 - c.x0) * (c.y1 - c.y0);
}

/**
 * A component no larger than lettering of this glyph size: across its lines, and along them; and,
 * when longer than a few glyphs (a word of a joined script), as thick as a line of text is, where a
 * speed line, a hatching stroke or a panel border is thin; and, over half a glyph, not a thin line.
 */
function textSized(c: Component, glyphSize: number, vertical: boolean): boolean {
	const across = vertical ? c.x1 - c.x0 : c.y1 - c.y0;
	const along = vertical ? c.y1 - c.y0 : c.x1 - c.x0;
	if (across > ACROSS_GLYPHS * glyphSize + 2 || along > ALONG_GLYPHS * glyphSize + 2) return false;
	if (along > LONG_GLYPHS * glyphSize && across < THICK_GLYPHS * glyphSize) return false;
	// A glyph's strokes, even a lone "l", are a few hundredths of its size thick; a thin line across
	// the art, straight or slanted, is thinner: its area over its length.
	const side = Math.max(across, along);
	return side <= 0.5 * glyphSize || c.area >= STROKE * side * glyphSize;
}

/** The 80th percentile of the components' longer sides (tiny specks aside): about a glyph's size. */
function sizeOf(components: Component[]): number {
	// A typed array sorts numbers without a comparator called per step: on texture, every speck of
	// the ink's colour is a component.
	const sides = new Int32Array(components.length);
	let n = 0;
	for (const c of components) if (c.area >= 4) sides[n++] = Math.max(c.x1 - c.x0, c.y1 - c.y0);
	const sorted = sides.subarray(0, n).sort();
	return n > 0 ? sorted[Math.floor(n * 0.8)]! : 0;
}

/**
 * For each component, IN_FIRST when it has a pixel in `first` or 4-next to one, and IN_SECOND
 * likewise for `second`: both asked in one pass over the labels.
 */
function meetsAreas(
	labels: Int32Array,
	count: number,
	first: Uint8Array,
	second: Uint8Array,
	w: number,
	h: number,
): Uint8Array {
	const meets = new Uint8Array(count);
	for (let y = 0, i = 0; y < h; y++) {
		for (let x = 0; x < w; x++, i++) {
			const l = labels[i]!;
			if (l === 0 || meets[l - 1] === (IN_FIRST | IN_SECOND)) continue;
			const left = x > 0;
			const right = x < w - 1;
			const up = y > 0;
			const down = y < h - 1;
			if (nextTo(first, i, w, left, right, up, down)) meets[l - 1]! |= IN_FIRST;
			if (nextTo(second, i, w, left, right, up, down)) meets[l - 1]! |= IN_SECOND;
		}
	}
	return meets;
}

/** Whether `area` holds pixel i or a 4-neighbour of it (those on the sides given that the patch has). */
function nextTo(area: Uint8Array, i: number, w: number, left: boolean, right: boolean, up: boolean, down: boolean) {
	return (
		area[i] !== 0 ||
		(left && area[i - 1] !== 0) ||
		(right && area[i + 1] !== 0) ||
		(up && area[i - w] !== 0) ||
		(down && area[i + w] !== 0)
	);
}

/** meetsAreas' bits. */
const IN_FIRST = 1;
const IN_SECOND = 2;

function threshold(score: Uint8Array, at: number): Uint8Array {
	const out = new Uint8Array(score.length);
	// The sign bit of (below - score): 1 from `at` up (scores are whole, `at` may not be), with no
	// branch to mispredict on texture's ragged scores.
	const below = Math.ceil(at) - 1;
	for (let i = 0; i < score.length; i++) out[i] = (below - score[i]!) >>> 31;
	return out;
}

/** Steps (px) the glyphs' anti-aliased rim is grown by. */
const RIM_STEPS = 2;

function assemble(
	labels: Int32Array,
	kept: ArrayLike<boolean | number>,
	components: Component[],
	ink: InkScore,
	w: number,
	h: number,
	outline: Uint8Array | undefined,
	glyphSize: number,
): Glyphs {
	// Each kept component over its own bounds: glyphs are a small part of the patch, and the rim
	// grown from them lies within RIM_STEPS of their bounds.
	const core = new Uint8Array(w * h);
	let bounds: Box | undefined;
	for (const [k, c] of components.entries()) {
		if (!kept[k]) continue;
		bounds = bounds ? union(bounds, c) : c;
		for (let y = c.y0; y < c.y1; y++)
			for (let i = y * w + c.x0, end = y * w + c.x1; i < end; i++) if (labels[i] === k + 1) core[i] = 1;
	}
	// The rim grows into weak ink, never into the outline; two-toned lettering's own outline round
	// its fill is the glyphs' as far as it is thick.
	const mask = growInto(core, ink.score, ink.weak, w, h, RIM_STEPS, outline, bounds);
	const { edging } = ink;
	// The outline's thickness is measured from the fill, its first step the blend where the two tones
	// meet: a rim, which the erase's margin takes as it takes any glyph's. The outline's own colour
	// past it is grown over from the glyphs' core, no further than it is thick.
	const edgingSteps = edging ? edging.thickness - 1 : 0;
	if (edging) {
		const edged = growInto(core, edging.score, ink.weak, w, h, edgingSteps, outline, bounds);
		for (let i = 0; i < mask.length; i++) mask[i]! |= edged[i]!;
	}
	const reach = Math.max(RIM_STEPS, edgingSteps);
	// Counters and the fill of outlined glyphs are holes of a glyph's size; a ring of glyphs holds art.
	// Holes lie within the mask's bounds, which filling them leaves as they were.
	const maxHole = Math.max(16, (1.5 * glyphSize) ** 2);
	const box = bounds && boundingBox(mask, w, h, clipBox(grow(bounds, reach), { width: w, height: h }));
	if (box) fillHolesInBounds(mask, w, h, box, maxHole);
	return {
		mask,
		core,
		box,
		components: components.filter((_, k) => kept[k]),
		outline,
		glyphSize,
	};
}

/**
 * The largest glyph size a region's text could have in its box (px): as many characters as it holds,
 * about an em wide each in CJK and half that in alphabets, over the box; with room for a box cut
 * short to part of its lettering or read much too large.
 */
export function maxGlyph(text: string, box: Box, vertical: boolean): number {
	const chars = [...text.replace(/\s+/gu, "")].length;
	const w = box.x1 - box.x0;
	const h = box.y1 - box.y0;
	const thin = vertical ? w : h;
	if (chars === 0) return thin;
	const emPerChar = WIDE_SCRIPTS.test(text) ? 1 : 0.55;
	const em = Math.min(Math.sqrt((w * h) / (chars * emPerChar * 1.2)), thin);
	return Math.max(8, SLACK * em);
}

const WIDE_SCRIPTS = /[\u1100-\u11ff\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/u;
/** How much larger than the estimate from the box a glyph may be: a box cut short, or a glyph larger than the line. */
const SLACK = 1.5;
