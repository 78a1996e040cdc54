import type { Box } from "../types";
import { type Component, labelComponents } from "./components";
import type { InkScore } from "./ink";
import { findOutline } from "./outline";
import type { Patch } from "./patch";

export type { Component } from "./components";

/** The lettering found in a patch: 1 where a pixel belongs to a glyph (anti-aliased rim included). */
export interface Lettering {
	mask: Uint8Array;
	/** Glyph pixels that stand out clearly: their colour is the text colour. */
	core: Uint8Array;
	/** Bounding box of the mask in patch coordinates; undefined when nothing was found. */
	box?: Box;
	/** Sizes of the kept glyph components, for the weight and size estimates. */
	components: Component[];
	/** Balloon outline (or art) that lettering touches: never lettering, and to be kept as drawn. */
	outline?: Uint8Array;
}

/**
 * Separates lettering from background inside a patch: pixels with a high ink score seed glyph
 * components, pixels above the weak threshold next to them join (hysteresis); only
 * text-like components are kept (inside the reader's box, not touching the patch edge like a
 * balloon outline or art running off, not one large shape); then their anti-aliased rim is added,
 * and whatever they enclose: the fill of outlined lettering, when the outline is what was found.
 * A balloon outline that glyphs touch would take them along when dropped: it is found by its
 * shape first (outline.ts) and taken out of the ink, so the glyphs stand alone.
 */
export function findLettering(patch: Patch, ink: InkScore, readerBox: Box): Lettering {
	const n = patch.width * patch.height;
	const { strong, weak } = ink;
	const strongInk = new Uint8Array(n);
	for (let i = 0; i < n; i++) strongInk[i] = ink.score[i]! >= strong ? 1 : 0;
	// On a pattern, lettering splits the tone into pockets that would pass for the world beyond an outline.
	const outline = ink.onPattern ? undefined : findOutline(strongInk, patch.width, patch.height, readerBox);
	const dist = outline ? ink.score.map((v, i) => (outline[i] ? 0 : v)) : ink.score;

	const labels = new Int32Array(n);
	const seeds = outline ? strongInk.map((v, i) => v & (1 - outline[i]!)) : strongInk;
	const components = labelComponents(seeds, patch.width, patch.height, labels);
	const readerArea = (readerBox.x1 - readerBox.x0) * (readerBox.y1 - readerBox.y0);
	const kept = components.map((c) => isTextLike(c, patch, readerBox, readerArea));

	const core = new Uint8Array(n);
	for (let i = 0; i < n; i++) if (labels[i]! > 0 && kept[labels[i]! - 1]) core[i] = 1;
	const mask = fillHoles(growInto(core, dist, weak, patch.width, patch.height, 2), patch.width, patch.height);
	return {
		mask,
		core,
		box: boundingBox(mask, patch.width, patch.height),
		components: components.filter((_, k) => kept[k]),
		outline,
	};
}

function isTextLike(c: Component, patch: Patch, reader: Box, readerArea: number): boolean {
	if (c.touchesEdge) return false;
	const inside = c.x1 > reader.x0 && c.x0 < reader.x1 && c.y1 > reader.y0 && c.y0 < reader.y1;
	if (!inside) return false;
	const encloses = c.x1 - c.x0 > 0.9 * patch.width && c.y1 - c.y0 > 0.9 * patch.height;
	return !encloses && c.area <= 0.5 * readerArea;
}

/** Adds pixels above the weak threshold within `steps` pixels of the seeds (the glyphs' soft rim). */
function growInto(seeds: Uint8Array, dist: Uint8Array, weak: number, w: number, h: number, steps: number): Uint8Array {
	const mask = seeds.slice();
	let frontier: number[] = [];
	for (let i = 0; i < mask.length; i++) if (mask[i]) frontier.push(i);
	for (let step = 0; step < steps && frontier.length > 0; step++) {
		const next: number[] = [];
		for (const i of frontier) {
			const x = i % w;
			const y = (i - x) / w;
			for (let dy = -1; dy <= 1; dy++) {
				for (let dx = -1; dx <= 1; dx++) {
					const nx = x + dx;
					const ny = y + dy;
					if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
					const j = ny * w + nx;
					if (mask[j] || dist[j]! < weak) continue;
					mask[j] = 1;
					next.push(j);
				}
			}
		}
		frontier = next;
	}
	return mask;
}

/** Sets every unset pixel that cannot reach the patch edge through unset pixels (4-connected). */
function fillHoles(mask: Uint8Array, w: number, h: number): Uint8Array {
	const outside = new Uint8Array(mask.length);
	const stack = new Int32Array(mask.length);
	let top = 0;
	const visit = (i: number) => {
		if (mask[i] || outside[i]) return;
		outside[i] = 1;
		stack[top++] = i;
	};
	for (let x = 0; x < w; x++) {
		visit(x);
		visit((h - 1) * w + x);
	}
	for (let y = 0; y < h; y++) {
		visit(y * w);
		visit(y * w + w - 1);
	}
	while (top > 0) {
		const i = stack[--top]!;
		const x = i % w;
		if (x > 0) visit(i - 1);
		if (x < w - 1) visit(i + 1);
		if (i >= w) visit(i - w);
		if (i + w < mask.length) visit(i + w);
	}
	for (let i = 0; i < mask.length; i++) if (!outside[i]) mask[i] = 1;
	return mask;
}

/** Square dilation by `radius` (separable: rows then columns). */
export function dilate(mask: Uint8Array, w: number, h: number, radius: number): Uint8Array {
	const rows = new Uint8Array(mask.length);
	for (let y = 0; y < h; y++) {
		for (let x = 0; x < w; x++) {
			if (!mask[y * w + x]) continue;
			for (let k = Math.max(0, x - radius); k <= Math.min(w - 1, x + radius); k++) rows[y * w + k] = 1;
		}
	}
	const out = new Uint8Array(mask.length);
	for (let y = 0; y < h; y++) {
		for (let x = 0; x < w; x++) {
			if (!rows[y * w + x]) continue;
			for (let k = Math.max(0, y - radius); k <= Math.min(h - 1, y + radius); k++) out[k * w + x] = 1;
		}
	}
	return out;
}

export function boundingBox(mask: Uint8Array, w: number, h: number): Box | undefined {
	let x0 = w;
	let y0 = h;
	let x1 = 0;
	let y1 = 0;
	for (let y = 0; y < h; y++) {
		for (let x = 0; x < w; x++) {
			if (!mask[y * w + x]) continue;
			if (x < x0) x0 = x;
			if (x >= x1) x1 = x + 1;
			if (y < y0) y0 = y;
			y1 = y + 1;
		}
	}
	return x1 > x0 ? { x0, y0, x1, y1 } : undefined;
}
