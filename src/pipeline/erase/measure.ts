import type { Box, ErasedRegion, Rgb } from "../types";
import type { Lettering } from "./mask";
import { maskedPixels, medianRgba } from "./median";
import type { Patch } from "./patch";

/** Median colour of the pixels set in `where`: robust to the anti-aliased rim and stray pixels. */
export function medianColour(patch: Patch, where: Uint8Array): Rgb | undefined {
	const median = medianRgba(patch.data, maskedPixels(where));
	return median && [median[0]!, median[1]!, median[2]!];
}

/**
 * Bold when strokes are thick against the glyph size. Stroke width ≈ 2·area / boundary length
 * (a stroke of width s and length L has area sL and two sides of length L); glyph size is the
 * larger side of the bigger glyph components (an upper bound on the em that ignores dots and
 * accents). Regular text sits near 0.08 em, bold above 0.12 em.
 */
export function looksBold(lettering: Lettering, width: number): boolean {
	const { core } = lettering;
	let area = 0;
	let boundary = 0;
	for (let i = 0; i < core.length; i++) {
		if (!core[i]) continue;
		area++;
		const x = i % width;
		if (x === 0 || !core[i - 1]) boundary++;
		if (x === width - 1 || !core[i + 1]) boundary++;
		if (!core[i - width]) boundary++;
		if (!core[i + width]) boundary++;
	}
	const sizes = lettering.components.map((c) => Math.max(c.x1 - c.x0, c.y1 - c.y0)).sort((a, b) => a - b);
	const glyph = sizes[Math.floor(sizes.length * 0.75)] ?? 0;
	if (boundary === 0 || glyph === 0) return false;
	return (2 * area) / boundary / glyph > 0.105;
}

/**
 * How the source lines line up: the edge (left, right, centre) whose positions vary least
 * across lines wins. One line, or vertical text, is placed by its margins inside the area.
 */
export function lineAlignment(
	lettering: Lettering,
	width: number,
	vertical: boolean,
	area: Box,
): ErasedRegion["align"] {
	if (vertical || !lettering.box) return "center";
	const lines = lineExtents(lettering.mask, width, lettering.box);
	if (lines.length >= 2) {
		const spread = (values: number[]) => Math.max(...values) - Math.min(...values);
		const left = spread(lines.map((l) => l.x0));
		const right = spread(lines.map((l) => l.x1));
		const centre = spread(lines.map((l) => (l.x0 + l.x1) / 2));
		if (centre <= left && centre <= right) return "center";
		return left <= right ? "left" : "right";
	}
	const before = lettering.box.x0 - area.x0;
	const after = area.x1 - lettering.box.x1;
	const span = area.x1 - area.x0;
	if (Math.abs(before - after) <= 0.1 * span) return "center";
	return before < after ? "left" : "right";
}

/** Horizontal lines as runs of mask rows (gaps of a row or two are inside a line). */
function lineExtents(mask: Uint8Array, width: number, box: Box): { x0: number; x1: number }[] {
	const lines: { x0: number; x1: number }[] = [];
	let current: { x0: number; x1: number } | undefined;
	let gap = 0;
	for (let y = box.y0; y < box.y1; y++) {
		let x0 = width;
		let x1 = -1;
		for (let x = box.x0; x < box.x1; x++) {
			if (!mask[y * width + x]) continue;
			if (x < x0) x0 = x;
			x1 = x + 1;
		}
		if (x1 < 0) {
			gap++;
			if (gap > 2 && current) {
				lines.push(current);
				current = undefined;
			}
			continue;
		}
		gap = 0;
		if (!current) current = { x0, x1 };
		else {
			current.x0 = Math.min(current.x0, x0);
			current.x1 = Math.max(current.x1, x1);
		}
	}
	if (current) lines.push(current);
	return lines;
}
