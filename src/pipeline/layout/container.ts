/**
 * Closed shapes of one colour around a reader's box: speech balloons (a light inside within a dark
 * outline) and panels (a flat-coloured label or caption box). Found by flooding the background
 * colour from the box's own background pixels, 4-connected, within the search area: a flood that
 * reaches the search area's edge is open background (a page, a sky, a balloon open to the art)
 * and stops there, one that stops by itself is a shape. Each shape is its flood (the interior) with everything the flood
 * encloses (glyphs, their counters): the inside.
 */
import type { Box, Patch } from "../types";
import { fillHoles } from "./masks";

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
	/** Pixels the shape encloses that are not its background: its lettering (and anything else in it). */
	ink: number;
	/** Those of them in the reader's box. */
	inkInBox: number;
	/** Bounding box of them, image px: where the lettering is, and any art the shape holds. */
	enclosed: Box;
}

/**
 * The closed shapes of `colour` (RGBA, each channel within `tolerance`) that meet the reader's box
 * and enclose some of its ink, most ink first. `area` is the search area (image px, inside the crop).
 */
export function closedShapes(crop: Patch, area: Box, readerBox: Box, colour: number[], tolerance: number): Shape[] {
	const w = area.x1 - area.x0;
	const h = area.y1 - area.y0;
	if (w < 3 || h < 3) return [];
	const { data } = crop;
	const stride = crop.width;
	const ox = area.x0 - crop.box.x0;
	const oy = area.y0 - crop.box.y0;
	const [r, g, b, a] = colour as [number, number, number, number];
	const isBackground = (x: number, y: number) => matches(data, ((oy + y) * stride + ox + x) * 4, r, g, b, a, tolerance);

	// 0: not visited; NOT_BACKGROUND: visited, not background; k > 0: in flood k. Two bytes a pixel of
	// the search area, and a stack that grows only as far as the floods reach.
	const labels = new Uint16Array(w * h);
	const stack: number[] = [];
	const floods: { box: Box; open: boolean; area: number }[] = [];
	const rx0 = Math.max(0, readerBox.x0 - area.x0);
	const ry0 = Math.max(0, readerBox.y0 - area.y0);
	const rx1 = Math.min(w, readerBox.x1 - area.x0);
	const ry1 = Math.min(h, readerBox.y1 - area.y0);
	for (let sy = ry0; sy < ry1; sy++) {
		for (let sx = rx0; sx < rx1; sx++) {
			const start = sy * w + sx;
			if (labels[start] !== 0) continue;
			const label = floods.length + 1;
			// More floods than labels: a box over noise, holding no balloon.
			if (label >= NOT_BACKGROUND) return [];
			if (!isBackground(sx, sy)) {
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
			floods.push({ box: { x0, y0, x1, y1 }, open, area: size });
			stack.length = 0;
		}
	}

	/** How far a pixel of the search area is from the colour: its largest channel difference. */
	const distance = (x: number, y: number) => {
		const p = ((oy + y) * stride + ox + x) * 4;
		return Math.max(
			Math.abs(data[p]! - r),
			Math.abs(data[p + 1]! - g),
			Math.abs(data[p + 2]! - b),
			Math.abs(data[p + 3]! - a),
		);
	};
	/**
	 * Whether the shape ends at an edge (an outline, another colour): the pixels just outside its
	 * interior are mostly far from its colour, or a step further from it than the interior just
	 * inside. A radial gradient's ring of one colour ends softly.
	 */
	const edged = (box: Box, interior: Uint8Array, inside: Uint8Array) => {
		const bw = box.x1 - box.x0;
		const bh = box.y1 - box.y0;
		let far = 0;
		let near = 0;
		for (let y = 0; y < bh; y++) {
			for (let x = 0; x < bw; x++) {
				const i = y * bw + x;
				if (!interior[i]) continue;
				// Most of the interior lies within the shape: asked first, in one go, whether any neighbour is out.
				if (
					x > 0 &&
					x < bw - 1 &&
					y > 0 &&
					y < bh - 1 &&
					inside[i - 1] &&
					inside[i + 1] &&
					inside[i - bw] &&
					inside[i + bw]
				)
					continue;
				// Each 4-neighbour outside the shape (or its box) is a rim pixel: near the colour or an edge.
				for (let k = 0; k < 4; k++) {
					const nx = k === 0 ? x - 1 : k === 1 ? x + 1 : x;
					const ny = k === 2 ? y - 1 : k === 3 ? y + 1 : y;
					const inBox = nx >= 0 && ny >= 0 && nx < bw && ny < bh;
					if (inBox && inside[ny * bw + nx]) continue;
					const beyond = distance(box.x0 + nx, box.y0 + ny);
					const [ix, iy] = [2 * x - nx, 2 * y - ny];
					const twoIn = ix >= 0 && iy >= 0 && ix < bw && iy < bh && interior[iy * bw + ix];
					const within = twoIn ? distance(box.x0 + ix, box.y0 + iy) : distance(box.x0 + x, box.y0 + y);
					if (beyond >= EDGE || beyond - within >= STEP) far++;
					else near++;
				}
			}
		}
		return far >= EDGED * (near + far);
	};

	/** The shape of a closed flood: its interior, all it encloses, and the ink in it. */
	const shapeOf = (k: number): Shape | undefined => {
		const { box } = floods[k]!;
		const bw = box.x1 - box.x0;
		const bh = box.y1 - box.y0;
		const interior = new Uint8Array(bw * bh);
		const label = k + 1;
		for (let y = 0; y < bh; y++) {
			const row = (box.y0 + y) * w + box.x0;
			for (let x = 0; x < bw; x++) if (labels[row + x] === label) interior[y * bw + x] = 1;
		}
		const inside = fillHoles(interior.slice(), bw, bh);
		let ink = 0;
		let inkInBox = 0;
		const held = { x0: bw, y0: bh, x1: 0, y1: 0 };
		for (let y = 0; y < bh; y++) {
			const inRows = y + box.y0 >= ry0 && y + box.y0 < ry1;
			for (let x = 0; x < bw; x++) {
				const i = y * bw + x;
				if (!inside[i] || interior[i]) continue;
				ink++;
				if (inRows && x + box.x0 >= rx0 && x + box.x0 < rx1) inkInBox++;
				if (x < held.x0) held.x0 = x;
				if (x >= held.x1) held.x1 = x + 1;
				if (y < held.y0) held.y0 = y;
				if (y >= held.y1) held.y1 = y + 1;
			}
		}
		if (inkInBox === 0 || !edged(box, interior, inside)) return undefined;
		const toImage = (b: Box) => ({
			x0: b.x0 + box.x0 + area.x0,
			y0: b.y0 + box.y0 + area.y0,
			x1: b.x1 + box.x0 + area.x0,
			y1: b.y1 + box.y0 + area.y0,
		});
		return { box: toImage({ x0: 0, y0: 0, x1: bw, y1: bh }), interior, inside, ink, inkInBox, enclosed: toImage(held) };
	};

	const shapes: Shape[] = [];
	for (const [k, flood] of floods.entries()) {
		// The counters of glyphs are closed floods too, too small to hold lettering.
		const shape = flood.open || flood.area < MIN_AREA ? undefined : shapeOf(k);
		if (shape) shapes.push(shape);
	}
	return shapes.sort((p, q) => q.inkInBox - p.inkInBox);
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
