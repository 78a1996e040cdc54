/**
 * Closed shapes of one colour around a reader's box: speech balloons (a light inside within a dark
 * outline) and panels (a flat-coloured label or caption box). Found by flooding the background
 * colour from the box's own background pixels, 4-connected, within the search area: a flood that
 * reaches the search area's edge is open background (a page, a sky, a balloon open to the art),
 * one that stops is a shape. Each shape is its flood (the interior) with everything the flood
 * encloses (glyphs, their counters): the inside.
 */
import type { Box, Patch } from "../types";
import { fillHoles } from "./masks";

export interface Shape {
	/** Bounding box of the inside, image px. */
	box: Box;
	/** 1 on the shape's background (the flood), per pixel of `box`. */
	interior: Uint8Array;
	/** 1 on the interior and all it encloses, per pixel of `box`. */
	inside: Uint8Array;
	/** Pixels of the reader's box that the shape encloses but are not its background: its lettering there. */
	inkInBox: number;
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
	const isBackground = (x: number, y: number) => {
		const p = ((oy + y) * stride + ox + x) * 4;
		return (
			Math.abs(data[p]! - r) <= tolerance &&
			Math.abs(data[p + 1]! - g) <= tolerance &&
			Math.abs(data[p + 2]! - b) <= tolerance &&
			Math.abs(data[p + 3]! - a) <= tolerance
		);
	};

	// 0: not visited; -1: visited, not background; k > 0: in flood k.
	const labels = new Int32Array(w * h);
	const stack = new Int32Array(w * h);
	const floods: { box: Box; open: boolean }[] = [];
	const rx0 = Math.max(0, readerBox.x0 - area.x0);
	const ry0 = Math.max(0, readerBox.y0 - area.y0);
	const rx1 = Math.min(w, readerBox.x1 - area.x0);
	const ry1 = Math.min(h, readerBox.y1 - area.y0);
	let top = 0;
	const visit = (j: number, x: number, y: number, label: number) => {
		if (labels[j] !== 0) return;
		if (!isBackground(x, y)) {
			labels[j] = -1;
			return;
		}
		labels[j] = label;
		stack[top++] = j;
	};
	for (let sy = ry0; sy < ry1; sy++) {
		for (let sx = rx0; sx < rx1; sx++) {
			const start = sy * w + sx;
			if (labels[start] !== 0) continue;
			const label = floods.length + 1;
			visit(start, sx, sy, label);
			if (top === 0) continue;
			const flood = { box: { x0: sx, y0: sy, x1: sx + 1, y1: sy + 1 }, open: false };
			floods.push(flood);
			while (top > 0) {
				const i = stack[--top]!;
				const x = i % w;
				const y = (i - x) / w;
				if (x < flood.box.x0) flood.box.x0 = x;
				if (x >= flood.box.x1) flood.box.x1 = x + 1;
				if (y < flood.box.y0) flood.box.y0 = y;
				if (y >= flood.box.y1) flood.box.y1 = y + 1;
				if (x === 0 || y === 0 || x === w - 1 || y === h - 1) flood.open = true;
				if (x > 0) visit(i - 1, x - 1, y, label);
				if (x < w - 1) visit(i + 1, x + 1, y, label);
				if (y > 0) visit(i - w, x, y - 1, label);
				if (y < h - 1) visit(i + w, x, y + 1, label);
			}
		}
	}

	const shapes: Shape[] = [];
	for (const [k, flood] of floods.entries()) {
		if (flood.open) continue;
		const { box } = flood;
		const bw = box.x1 - box.x0;
		const bh = box.y1 - box.y0;
		const interior = new Uint8Array(bw * bh);
		for (let y = 0; y < bh; y++) {
			for (let x = 0; x < bw; x++) if (labels[(box.y0 + y) * w + box.x0 + x] === k + 1) interior[y * bw + x] = 1;
		}
		const inside = fillHoles(interior.slice(), bw, bh);
		let inkInBox = 0;
		for (let y = Math.max(ry0, box.y0); y < Math.min(ry1, box.y1); y++) {
			for (let x = Math.max(rx0, box.x0); x < Math.min(rx1, box.x1); x++) {
				const i = (y - box.y0) * bw + x - box.x0;
				if (inside[i] && !interior[i]) inkInBox++;
			}
		}
		if (inkInBox === 0) continue;
		const image = { x0: box.x0 + area.x0, y0: box.y0 + area.y0, x1: box.x1 + area.x0, y1: box.y1 + area.y0 };
		shapes.push({ box: image, interior, inside, inkInBox });
	}
	return shapes.sort((p, q) => q.inkInBox - p.inkInBox);
}
