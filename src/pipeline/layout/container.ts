/**
 * Closed shapes of one colour around a reader's box: speech balloons (a light inside within a dark
 * outline) and panels (a flat-coloured label or caption box). Found by flooding the background
 * colour from the box's own background pixels, 4-connected, within the search area: a flood that
 * reaches the search area's edge is open background (a page, a sky, a balloon open to the art)
 * and stops there, one that stops by itself is a shape. Each shape is its flood (the interior) with everything the flood
 * encloses (glyphs, their counters): the inside.
 */
import { clipBox, union } from "../patch";
import type { Box, Patch } from "../types";
import { boundingBox, fillHoles, reframe } from "./masks";

const NOT_BACKGROUND = 0xffff;
/** Fewest pixels of background a container has: a word of small lettering and its margins. */
const MIN_AREA = 200;
/** Levels from the shape's colour at which a pixel beyond it is an edge... */
const EDGE = 40;
/**
 * ...or levels it stands further from that colour than the shape does just inside it (two pixels in,
 * past an anti-aliased rim): a flat panel on a colour close to its own ends in a step, while a
 * gradient's ring of one colour fades out a level or two a pixel...
 */
const STEP = 14;
/** ...which most of the pixels around a balloon or a panel are. */
const EDGED = 0.5;

export interface Shape {
	/** Bounding box of the inside, image px. */
	box: Box;
	/** 1 on the shape's background (the flood), per pixel of `box`. */
	interior: Uint8Array;
	/** 1 on the interior and all it encloses, per pixel of `box`. */
	inside: Uint8Array;
	/** Pixels of `inside` set: the shape's area. */
	insideArea: number;
	/** Pixels the shape encloses that are not its background: its lettering (and anything else in it). */
	ink: number;
	/** Those of them where the reader says its lettering is (closedShapes' `lettered`). */
	inkInBox: number;
	/** Bounding box of them, image px: where the lettering is, and any art the shape holds. */
	enclosed: Box;
	/** Pieces of one balloon joined (joinedPieces): a container only if fitted to its lettering. */
	joined?: true;
}

/** A shape's extent: its bounding box and the inside over it. */
export type Outline = Pick<Shape, "box" | "inside" | "insideArea">;

/**
 * The shape with the lettering it holds (`mask`, one byte a pixel of `box`, image px) inside it, or
 * undefined when every glyph already is. Glyphs fitted tightly touch the outline, and the flood of
 * the paper stops at them: the glyphs, their counters and the paper they cut off against the outline
 * (between a letter's legs and the outline, or a whole piece of the balloon between two strokes) are
 * left out, and the inside is the paper between the letters. The inside a letterer fits text to is
 * the shape with its lettering: the flood continued through the glyphs and the paper (`colour`
 * within `tolerance`, in `crop`) they meet, and every hole then closed. Glyphs the outline parts
 * from the shape stay out. A shape without `inside` is its whole box.
 */
export function holdingLettering(
	shape: Pick<Shape, "box"> & { inside?: Uint8Array },
	lettering: { box: Box; mask: Uint8Array },
	crop: Patch,
	colour: number[],
	tolerance: number,
): Outline | undefined {
	// Most containers hold all their lettering: asked where the glyphs lie, before any copy is made.
	if (!glyphOutside(shape, lettering)) return undefined;
	const lettered = boundingBox(
		lettering.mask,
		lettering.box.x1 - lettering.box.x0,
		lettering.box.y1 - lettering.box.y0,
	)!;
	const glyphBox = {
		x0: lettered.x0 + lettering.box.x0,
		y0: lettered.y0 + lettering.box.y0,
		x1: lettered.x1 + lettering.box.x0,
		y1: lettered.y1 + lettering.box.y0,
	};
	const box = clipBox(union(shape.box, glyphBox), crop.box);
	const w = box.x1 - box.x0;
	const h = box.y1 - box.y0;
	const glyphs = reframe(lettering.mask, lettering.box, box);
	const { box: at } = shape;
	const inside = reframe(shape.inside ?? new Uint8Array((at.x1 - at.x0) * (at.y1 - at.y0)).fill(1), at, box);
	const [r, g, b, a] = colour as [number, number, number, number];
	const open = (i: number) => {
		if (glyphs[i]) return true;
		const p = ((box.y0 + ((i / w) | 0) - crop.box.y0) * crop.width + box.x0 + (i % w) - crop.box.x0) * 4;
		return matches(crop.data, p, r, g, b, a, tolerance);
	};
	// The flood took all the paper it could reach: it goes on only through the glyphs it stopped at.
	// Each pixel is taken at most once, so the stack never holds more than the box.
	const stack = new Int32Array(w * h);
	let top = 0;
	const take = (j: number) => {
		if (inside[j] || !open(j)) return;
		inside[j] = 1;
		stack[top++] = j;
	};
	const spread = (i: number) => {
		const x = i % w;
		if (x > 0) take(i - 1);
		if (x < w - 1) take(i + 1);
		if (i >= w) take(i - w);
		if (i + w < w * h) take(i + w);
	};
	for (let i = 0; i < glyphs.length; i++) {
		const x = i % w;
		const touches =
			(x > 0 && inside[i - 1]) || (x < w - 1 && inside[i + 1]) || (i >= w && inside[i - w]) || inside[i + w];
		if (glyphs[i] && !inside[i] && touches) take(i);
	}
	while (top > 0) spread(stack[--top]!);
	fillHoles(inside, w, h);
	const held = boundingBox(inside, w, h)!;
	const tight = { x0: held.x0 + box.x0, y0: held.y0 + box.y0, x1: held.x1 + box.x0, y1: held.y1 + box.y0 };
	const tightInside = reframe(inside, box, tight);
	let insideArea = 0;
	for (let i = 0; i < tightInside.length; i++) insideArea += tightInside[i]!;
	return { box: tight, inside: tightInside, insideArea };
}

/** Whether a glyph of `lettering` lies outside the shape's inside (its box, where it has no inside). */
function glyphOutside(shape: Pick<Shape, "box"> & { inside?: Uint8Array }, lettering: { box: Box; mask: Uint8Array }) {
	const { box: g, mask } = lettering;
	const { box, inside } = shape;
	const gw = g.x1 - g.x0;
	const w = box.x1 - box.x0;
	for (let y = g.y0; y < g.y1; y++) {
		for (let x = g.x0, i = (y - g.y0) * gw; x < g.x1; x++, i++) {
			if (!mask[i]) continue;
			if (x < box.x0 || x >= box.x1 || y < box.y0 || y >= box.y1) return true;
			if (inside && !inside[(y - box.y0) * w + x - box.x0]) return true;
		}
	}
	return false;
}

/** A flood of the shape's colour from a seed in the reader's box: search-area px. */
interface Flood {
	box: Box;
	/** It reached the search area's edge, or another flood that had. */
	open: boolean;
	area: number;
	/**
	 * A closed flood's pixels, row run by row run (y, first x, last x): its interior is filled from
	 * them rather than found among the labels of its whole box. Not kept past MAX_RUNS (a flood
	 * through noise), nor for an open flood.
	 */
	runs?: number[];
}

/**
 * Most row runs of a flood kept (about 1 MB of numbers at most): a balloon with a few dozen lines
 * of lettering has some thousands, each line crossing every row of it a few dozen times.
 */
const MAX_RUNS = 1 << 16;

/**
 * The closed shapes of `colour` (RGBA, each channel within `tolerance`) that meet the reader's box
 * and enclose some of the ink in `lettered` (where the reader says its lettering is: the box, and
 * the boxes of its lines, which a box cut short to some of them leaves out), most ink first. `area`
 * is the search area (image px, inside the crop). `pieces`: the pieces lettering fitted to a
 * balloon's outline cuts its inside into are joined too, given which way the lettering runs (after
 * the shapes, most ink first), and shapes are looked for where `lettered` is as well as the box.
 */
export function closedShapes(
	crop: Patch,
	area: Box,
	readerBox: Box,
	colour: number[],
	tolerance: number,
	pieces?: { vertical: boolean },
	lettered: Box = readerBox,
): Shape[] {
	const w = area.x1 - area.x0;
	const h = area.y1 - area.y0;
	if (w < 3 || h < 3) return [];
	const { data } = crop;
	const stride = crop.width;
	const ox = area.x0 - crop.box.x0;
	const oy = area.y0 - crop.box.y0;
	// 0: not visited; NOT_BACKGROUND: visited, not background; k > 0: in flood k. Two bytes a pixel of
	// the search area.
	const labels = labelsOf(w * h);
	const rx0 = Math.max(0, readerBox.x0 - area.x0);
	const ry0 = Math.max(0, readerBox.y0 - area.y0);
	const rx1 = Math.min(w, readerBox.x1 - area.x0);
	const ry1 = Math.min(h, readerBox.y1 - area.y0);
	const inBox = { x0: rx0, y0: ry0, x1: rx1, y1: ry1 };
	// The lines' boxes beyond the reader's are flooded too (after the box, their labels following),
	// for the pieces of one balloon: lettering fitted tight to a panel cuts its paper into a piece per
	// glyph or two, and of those only the pieces flooded are joined (joinedPieces), the rest of the
	// line left out of the container, its glyphs taken for its outline.
	const letteredIn = {
		x0: Math.max(0, lettered.x0 - area.x0),
		y0: Math.max(0, lettered.y0 - area.y0),
		x1: Math.min(w, lettered.x1 - area.x0),
		y1: Math.min(h, lettered.y1 - area.y0),
	};
	const floods: Flood[] = [];
	const flood = (seeds: Box) => floodsFrom(data, stride, ox, oy, w, h, seeds, labels, colour, tolerance, floods);
	// More floods than labels: a box over noise, holding no balloon.
	if (!flood(inBox) || (pieces && !flood(letteredIn))) return [];
	if (pieces && !floodOnward(floods, pieces.vertical, letteredIn, w, h, flood)) return [];

	const field: FloodField = {
		floods,
		labels,
		area,
		w,
		lettered: letteredIn,
		crop: { data, stride, ox, oy },
		colour,
	};
	const shapeOf = (ks: number[], fillLines?: { vertical: boolean }) => shapeOfFloods(field, ks, fillLines);
	const shapes: { shape: Shape; k: number }[] = [];
	for (const [k, flood] of floods.entries()) {
		// The counters of glyphs are closed floods too, too small to hold lettering.
		const shape = flood.open || flood.area < MIN_AREA ? undefined : shapeOf([k]);
		if (shape) shapes.push({ shape, k });
	}
	const byInk = (p: { shape: Shape }, q: { shape: Shape }) => q.shape.inkInBox - p.shape.inkInBox;
	const joined = pieces ? joinedPieces(floods, pieces.vertical, shapeOf).sort(byInk) : [];
	return [...shapes.sort(byInk), ...joined].map((s) => s.shape);
}

/** The floods of a search area, and what a shape made of some of them reads of it. */
interface FloodField {
	floods: Flood[];
	labels: Uint16Array;
	/** The search area, image px, and its width. */
	area: Box;
	w: number;
	/** Where the reader says the lettering is (its box, and its lines'), search-area px. */
	lettered: Box;
	/** The crop's pixels, `stride` px a row, the search area's first at (ox, oy). */
	crop: { data: Uint8Array; stride: number; ox: number; oy: number };
	colour: number[];
}

/** How far pixel (x, y) of the search area is from the shape's colour: its largest channel difference. */
function distance({ crop, colour }: FloodField, x: number, y: number): number {
	const p = ((crop.oy + y) * crop.stride + crop.ox + x) * 4;
	const { data } = crop;
	return Math.max(
		Math.abs(data[p]! - colour[0]!),
		Math.abs(data[p + 1]! - colour[1]!),
		Math.abs(data[p + 2]! - colour[2]!),
		Math.abs(data[p + 3]! - colour[3]!),
	);
}

/**
 * Whether the shape ends at an edge (an outline, another colour): the pixels just outside its
 * interior are mostly far from its colour, or a step further from it than the interior just
 * inside. A radial gradient's ring of one colour ends softly. Counted into `edges` for each
 * interior pixel (x, y) on the rim, as shapeOfFloods walks the shape's box.
 */
function countRim(
	field: FloodField,
	box: Box,
	interior: Uint8Array,
	inside: Uint8Array,
	x: number,
	y: number,
	edges: { far: number; near: number },
): void {
	const bw = box.x1 - box.x0;
	const bh = box.y1 - box.y0;
	// Each 4-neighbour outside the shape (or its box) is a rim pixel: near the colour or an edge.
	for (let k = 0; k < 4; k++) {
		const nx = k === 0 ? x - 1 : k === 1 ? x + 1 : x;
		const ny = k === 2 ? y - 1 : k === 3 ? y + 1 : y;
		const inBox = nx >= 0 && ny >= 0 && nx < bw && ny < bh;
		if (inBox && inside[ny * bw + nx]) continue;
		const beyond = distance(field, box.x0 + nx, box.y0 + ny);
		const ix = 2 * x - nx;
		const iy = 2 * y - ny;
		const twoIn = ix >= 0 && iy >= 0 && ix < bw && iy < bh && interior[iy * bw + ix];
		const within = twoIn ? distance(field, box.x0 + ix, box.y0 + iy) : distance(field, box.x0 + x, box.y0 + y);
		if (beyond >= EDGE || beyond - within >= STEP) edges.far++;
		else edges.near++;
	}
}

/**
 * The shape of closed floods (`ks`, one unless pieces are joined): its interior, all it encloses
 * (with `fillLines`, each line along the lettering also filled from its first piece to its last: a
 * balloon is convex), and the ink in it. A function of its own, not a closure in closedShapes: its
 * loop walks every pixel of the shape's box, and reads its arrays and bounds as locals.
 */
function shapeOfFloods(field: FloodField, ks: number[], fillLines?: { vertical: boolean }): Shape | undefined {
	const { floods, labels, w, area } = field;
	const { x0: rx0, y0: ry0, x1: rx1, y1: ry1 } = field.lettered;
	const box = ks.map((k) => floods[k]!.box).reduce(union);
	const bw = box.x1 - box.x0;
	const bh = box.y1 - box.y0;
	const interior = new Uint8Array(bw * bh);
	for (const k of ks) {
		const label = k + 1;
		const { box: own, runs } = floods[k]!;
		if (runs) {
			for (let r = 0; r < runs.length; r += 3) {
				const row = (runs[r]! - box.y0) * bw - box.x0;
				for (let i = row + runs[r + 1]!, end = row + runs[r + 2]!; i <= end; i++) interior[i] = 1;
			}
			continue;
		}
		for (let y = own.y0; y < own.y1; y++) {
			const row = y * w;
			for (let x = own.x0; x < own.x1; x++) if (labels[row + x] === label) interior[(y - box.y0) * bw + x - box.x0] = 1;
		}
	}
	const inside = fillHoles(fillLines ? filledAlong(interior, bw, bh, fillLines.vertical) : interior.slice(), bw, bh);
	let insideArea = 0;
	let ink = 0;
	let inkInBox = 0;
	const held = { x0: bw, y0: bh, x1: 0, y1: 0 };
	const edges = { far: 0, near: 0 };
	for (let y = 0; y < bh; y++) {
		const inRows = y + box.y0 >= ry0 && y + box.y0 < ry1;
		for (let x = 0; x < bw; x++) {
			const i = y * bw + x;
			if (!inside[i]) continue;
			insideArea++;
			if (interior[i]) {
				// Most of the interior lies within the shape: asked first, in one go, whether any neighbour is out.
				const within =
					x > 0 &&
					x < bw - 1 &&
					y > 0 &&
					y < bh - 1 &&
					inside[i - 1] &&
					inside[i + 1] &&
					inside[i - bw] &&
					inside[i + bw];
				if (!within) countRim(field, box, interior, inside, x, y, edges);
				continue;
			}
			ink++;
			if (inRows && x + box.x0 >= rx0 && x + box.x0 < rx1) inkInBox++;
			if (x < held.x0) held.x0 = x;
			if (x >= held.x1) held.x1 = x + 1;
			if (y < held.y0) held.y0 = y;
			if (y >= held.y1) held.y1 = y + 1;
		}
	}
	if (inkInBox === 0 || edges.far < EDGED * (edges.near + edges.far)) return undefined;
	const toImage = (b: Box) => ({
		x0: b.x0 + box.x0 + area.x0,
		y0: b.y0 + box.y0 + area.y0,
		x1: b.x1 + box.x0 + area.x0,
		y1: b.y1 + box.y0 + area.y0,
	});
	return {
		box: toImage({ x0: 0, y0: 0, x1: bw, y1: bh }),
		interior,
		inside,
		insideArea,
		ink,
		inkInBox,
		enclosed: toImage(held),
	};
}

/**
 * Adds to `floods` the floods of the colour (RGBA, each channel within `tolerance`) from every pixel
 * of `seeds` not labelled yet, labelled in `labels` (search-area px, `w` by `h`, at (ox, oy) in `data`,
 * `stride` px a row); false when there are more than labels. A function of its own, not a closure in closedShapes:
 * its loop visits every pixel of every balloon, and reads its arrays and bounds as locals.
 */
function floodsFrom(
	data: Uint8Array,
	stride: number,
	ox: number,
	oy: number,
	w: number,
	h: number,
	seeds: Box,
	labels: Uint16Array,
	colour: number[],
	tolerance: number,
	floods: Flood[],
): boolean {
	const [r, g, b, a] = colour as [number, number, number, number];
	const { x0: rx0, y0: ry0, x1: rx1, y1: ry1 } = seeds;
	const stack: number[] = [];
	for (let sy = ry0; sy < ry1; sy++) {
		for (let sx = rx0; sx < rx1; sx++) {
			const start = sy * w + sx;
			if (labels[start] !== 0) continue;
			const label = floods.length + 1;
			if (label >= NOT_BACKGROUND) return false;
			if (!matches(data, ((oy + sy) * stride + ox + sx) * 4, r, g, b, a, tolerance)) {
				labels[start] = NOT_BACKGROUND;
				continue;
			}
			labels[start] = label;
			stack.push(start);
			// The flood's bounds and state as locals: this loop visits every pixel of every balloon.
			let x0 = sx;
			let y0 = sy;
			let x1 = sx + 1;
			let y1 = sy + 1;
			let open = false;
			let size = 0;
			let runs: number[] | undefined = [];
			// A run at a time (a pixel taken from the stack is extended left and right, and the rows
			// above and below it give one new seed per stretch of background), and depth first, so that on
			// open background the flood runs to the edge soon and stops there: a balloon costs its own
			// area, open background little more than the way out. Background already reached from
			// elsewhere is an open flood's (closed ones are whole): this one is open too. Whether a flood
			// is closed does not depend on the order it visits its pixels in: a closed one is a whole
			// component of the colour that stays off the edge.
			while (stack.length > 0 && !open) {
				const i = stack.pop()!;
				const y = (i / w) | 0;
				const row = y * w;
				const rowPixel = ((oy + y) * stride + ox) * 4;
				let left = i - row;
				while (left > 0) {
					const seen = labels[row + left - 1]!;
					if (seen === label || seen === NOT_BACKGROUND) break;
					if (seen > 0) {
						open = true;
						break;
					}
					if (!matches(data, rowPixel + (left - 1) * 4, r, g, b, a, tolerance)) {
						labels[row + left - 1] = NOT_BACKGROUND;
						break;
					}
					labels[row + --left] = label;
				}
				let right = i - row;
				while (right < w - 1) {
					const seen = labels[row + right + 1]!;
					if (seen === label || seen === NOT_BACKGROUND) break;
					if (seen > 0) {
						open = true;
						break;
					}
					if (!matches(data, rowPixel + (right + 1) * 4, r, g, b, a, tolerance)) {
						labels[row + right + 1] = NOT_BACKGROUND;
						break;
					}
					labels[row + ++right] = label;
				}
				size += right - left + 1;
				if (runs && runs.length < 3 * MAX_RUNS) runs.push(y, left, right);
				else runs = undefined;
				if (left < x0) x0 = left;
				if (right >= x1) x1 = right + 1;
				if (y < y0) y0 = y;
				if (y >= y1) y1 = y + 1;
				if (left === 0 || y === 0 || right === w - 1 || y === h - 1) open = true;
				for (let other = y - 1; other <= y + 1; other += 2) {
					if (other < 0 || other >= h) continue;
					const otherPixel = ((oy + other) * stride + ox) * 4;
					let inRun = false;
					for (let x = left; x <= right; x++) {
						const j = other * w + x;
						const seen = labels[j]!;
						if (seen !== 0) {
							if (seen !== label && seen !== NOT_BACKGROUND) open = true;
							inRun = false;
						} else if (!matches(data, otherPixel + x * 4, r, g, b, a, tolerance)) {
							labels[j] = NOT_BACKGROUND;
							inRun = false;
						} else if (!inRun) {
							labels[j] = label;
							stack.push(j);
							inRun = true;
						}
					}
				}
			}
			floods.push(
				open || !runs
					? { box: { x0, y0, x1, y1 }, open, area: size }
					: { box: { x0, y0, x1, y1 }, open, area: size, runs },
			);
			stack.length = 0;
		}
	}
	return true;
}

/**
 * Lettering fitted to a balloon cuts its inside in pieces from outline to outline across the lines,
 * none holding a glyph whole: each run of closed floods spanning the same lines (or some of them,
 * where it narrows to its ends; within PIECE_SLACK), each within a line's height of the next, joined into one shape (`shapeOf`, lines filled between
 * pieces). Over MAX_PIECES floods spanning a line are specks of noise or texture: no balloon, none.
 */
function joinedPieces(
	floods: Flood[],
	vertical: boolean,
	shapeOf: (ks: number[], fillLines: { vertical: boolean }) => Shape | undefined,
): { shape: Shape; k: number }[] {
	const runs = pieceRuns(floods, vertical);
	if (!runs) return [];
	const joined: { shape: Shape; k: number }[] = [];
	for (const run of runs) {
		if (run.ks.length < 2) continue;
		const shape = shapeOf(run.ks, { vertical });
		if (shape) joined.push({ shape: { ...shape, joined: true }, k: run.ks[0]! });
	}
	return joined;
}

/** A run of pieces along the lettering: their span across the lines and along them (search-area px), and their floods. */
interface PieceRun {
	a0: number;
	a1: number;
	start: number;
	end: number;
	ks: number[];
}

/**
 * The closed floods spanning a line, in runs along it: each piece spans the same lines as the run
 * (or some of them, where it narrows to its ends; within PIECE_SLACK) and lies within a line's height
 * of it. Undefined over MAX_PIECES such floods: specks of noise or texture, no balloon.
 */
function pieceRuns(floods: Flood[], vertical: boolean): PieceRun[] | undefined {
	const across = (b: Box) => (vertical ? [b.x0, b.x1] : [b.y0, b.y1]) as [number, number];
	const along = (b: Box) => (vertical ? [b.y0, b.y1] : [b.x0, b.x1]) as [number, number];
	const candidates = floods
		.map((f, k) => ({ f, k }))
		.filter(({ f }) => !f.open && f.area >= PIECE_AREA && across(f.box)[1] - across(f.box)[0] >= MIN_LINE);
	if (candidates.length > MAX_PIECES) return undefined;
	candidates.sort((p, q) => along(p.f.box)[0] - along(q.f.box)[0]);
	const runs: PieceRun[] = [];
	for (const { f, k } of candidates) {
		const [a0, a1] = across(f.box);
		const [b0, b1] = along(f.box);
		// One span holds the other (a balloon narrows to its ends), and the gap is under a line's height.
		const nested = (r: { a0: number; a1: number }) =>
			(a0 >= r.a0 - PIECE_SLACK && a1 <= r.a1 + PIECE_SLACK) || (r.a0 >= a0 - PIECE_SLACK && r.a1 <= a1 + PIECE_SLACK);
		const run = runs.find((r) => nested(r) && b0 - r.end <= Math.max(a1 - a0, r.a1 - r.a0));
		if (run) {
			run.ks.push(k);
			run.end = Math.max(run.end, b1);
			run.a0 = Math.min(run.a0, a0);
			run.a1 = Math.max(run.a1, a1);
		} else runs.push({ a0, a1, start: b0, end: b1, ks: [k] });
	}
	return runs;
}

/**
 * Floods the pieces of a tight panel beyond where the reader says its lettering is (`seeded`,
 * search-area px, `w` by `h`): a box cut short or moved along the line leaves the panel's last
 * glyphs, and the paper they cut off, unflooded, and the panel would end at the stem of the last
 * glyph the box holds. Each run of two pieces or more that ends within a line's height of the
 * seeded stretch's end is flooded on (`flood`) across its lines, a line's height past its end,
 * until no run reaches further. False when the floods outnumber the labels.
 */
function floodOnward(
	floods: Flood[],
	vertical: boolean,
	seeded: Box,
	w: number,
	h: number,
	flood: (seeds: Box) => boolean,
): boolean {
	let [from, to] = vertical ? [seeded.y0, seeded.y1] : [seeded.x0, seeded.x1];
	const [a0, a1] = vertical ? [seeded.x0, seeded.x1] : [seeded.y0, seeded.y1];
	const length = vertical ? h : w;
	// A tight panel's paper spans its lines, which the reader's box spans too; a balloon holding its
	// lettering whole spans more, and a run of it and the specks of art beside it is no panel to follow.
	const acrossSeeds = (r: PieceRun) => r.a0 >= a0 - PIECE_SLACK && r.a1 <= a1 + PIECE_SLACK;
	for (;;) {
		const runs = (pieceRuns(floods, vertical) ?? []).filter((r) => r.ks.length >= 2 && acrossSeeds(r));
		const strips: Box[] = [];
		let [nextFrom, nextTo] = [from, to];
		for (const run of runs) {
			const line = run.a1 - run.a0;
			const strip = (b0: number, b1: number) =>
				vertical ? { x0: run.a0, y0: b0, x1: run.a1, y1: b1 } : { x0: b0, y0: run.a0, x1: b1, y1: run.a1 };
			const past = Math.min(length, run.end + line);
			if (past > to) {
				strips.push(strip(to, past));
				nextTo = Math.max(nextTo, past);
			}
			const before = Math.max(0, run.start - line);
			if (before < from) {
				strips.push(strip(before, from));
				nextFrom = Math.min(nextFrom, before);
			}
		}
		if (strips.length === 0) return true;
		for (const s of strips) if (!flood(s)) return false;
		[from, to] = [nextFrom, nextTo];
	}
}

/** Fewest pixels of a piece of a balloon's inside, and fewest px across the lines it spans. */
const PIECE_AREA = 8;
const MIN_LINE = 8;
/** Most floods spanning a line that are looked at for pieces of one balloon. */
const MAX_PIECES = 256;

/** How far (px) the pieces of one container may start and end from each other across the lines. */
const PIECE_SLACK = 4;

/** A copy of the mask with each line along the lettering set from its first set pixel to its last. */
function filledAlong(mask: Uint8Array, w: number, h: number, vertical: boolean): Uint8Array {
	const out = mask.slice();
	const [lines, length] = vertical ? [w, h] : [h, w];
	const at = (line: number, k: number) => (vertical ? k * w + line : line * w + k);
	for (let line = 0; line < lines; line++) {
		let from = -1;
		let to = -1;
		for (let k = 0; k < length; k++) {
			if (!mask[at(line, k)]) continue;
			if (from < 0) from = k;
			to = k;
		}
		for (let k = Math.max(0, from); k <= to; k++) out[at(line, k)] = 1;
	}
	return out;
}

/**
 * The floods' labels, zeroed, kept between calls and grown to the largest search area: a fresh
 * array each call (two bytes a pixel of a search area of up to a megapixel or more) cost more to
 * allocate and collect than zeroing one. Its shapes copy what they keep, and the floods run
 * synchronously, so no two calls use it at once, however many requests the isolate serves.
 */
let labelScratch = new Uint16Array(0);

function labelsOf(n: number): Uint16Array {
	if (labelScratch.length < n) labelScratch = new Uint16Array(n);
	return labelScratch.subarray(0, n).fill(0);
}

/** Whether the RGBA pixel at byte `p` is within `tolerance` of (r, g, b, a) in every channel. */
function matches(data: Uint8Array, p: number, r: number, g: number, b: number, a: number, tolerance: number): boolean {
	return (
		Math.abs(data[p]! - r) <= tolerance &&
		Math.abs(data[p + 1]! - g) <= tolerance &&
		Math.abs(data[p + 2]! - b) <= tolerance &&
		Math.abs(data[p + 3]! - a) <= tolerance
	);
}
