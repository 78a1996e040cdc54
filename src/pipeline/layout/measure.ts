import type { Box, Patch, Rgb, TextBlock } from "../types";
import { maskedPixels, medianRgba } from "./median";

/** What the measures read of the lettering, in patch coordinates. */
interface Lettering {
	mask: Uint8Array;
	core: Uint8Array;
	box?: Box;
}

/**
 * Median colour of the pixels set in `where` (all of them within `box`): robust to the anti-aliased
 * rim and stray pixels.
 */
export function medianColour(patch: Patch, where: Uint8Array, box: Box): Rgb | undefined {
	const median = medianRgba(patch.data, maskedPixels(where, { width: patch.width, box }));
	return median && [median[0]!, median[1]!, median[2]!];
}

/**
 * The colour the lettering is drawn in: the median of its core pixels standing out nearly as far
 * from `background` as the most inked of them. A thin stroke is mostly anti-aliased rim, partly
 * covered pixels between the ink and the paper: the median of all of them is a grey the letterer
 * never used, and the translation would be drawn in it. The core lies within `box`.
 */
export function letteringColour(patch: Patch, core: Uint8Array, box: Box, background: Rgb): Rgb | undefined {
	const pixels = maskedPixels(core, { width: patch.width, box });
	const { data } = patch;
	const far = new Uint8Array(pixels.length);
	const counts = new Uint32Array(256);
	for (let k = 0; k < pixels.length; k++) {
		const p = pixels[k]! * 4;
		let off = 0;
		for (let c = 0; c < 3; c++) off = Math.max(off, Math.abs(data[p + c]! - background[c]!));
		far[k] = off;
		counts[off]!++;
	}
	// The distance the most inked tenth of the core reaches: the ink at full cover.
	let full = 0;
	for (let v = 255, seen = 0; v >= 0; v--) {
		seen += counts[v]!;
		if (seen >= INKED_SHARE * pixels.length) {
			full = v;
			break;
		}
	}
	let count = 0;
	for (let k = 0; k < pixels.length; k++) if (far[k]! >= FULL_COVER * full) pixels[count++] = pixels[k]!;
	const median = medianRgba(data, pixels, count);
	return median && [median[0]!, median[1]!, median[2]!];
}

/** Share of the core, most inked first, whose distance from the background is the ink's at full cover. */
const INKED_SHARE = 0.1;
/** Share of that distance a core pixel reaches, at least, to be counted as covered by the ink. */
const FULL_COVER = 0.75;

/**
 * Bold when strokes are thick against the line. Stroke width ≈ 2·area / boundary length (a
 * stroke of width s and length L has area sL and two sides of length L); the em is the median
 * thickness of the lines (rows of text, or columns when vertical).
 */
export function looksBold(lettering: Lettering, width: number, vertical: boolean): boolean {
	const { core, box } = lettering;
	if (!box) return false;
	// The core lies within the lettering's box: only its rows and columns are walked.
	const last = core.length - width;
	let area = 0;
	let boundary = 0;
	for (let y = box.y0; y < box.y1; y++) {
		for (let x = box.x0, i = y * width + x; x < box.x1; x++, i++) {
			if (!core[i]) continue;
			area++;
			if (x === 0 || !core[i - 1]) boundary++;
			if (x === width - 1 || !core[i + 1]) boundary++;
			if (i < width || !core[i - width]) boundary++;
			if (i >= last || !core[i + width]) boundary++;
		}
	}
	if (boundary === 0) return false;
	const thickness = lineBands(lettering.mask, width, box, vertical)
		.map((band) => band.end - band.start)
		.sort((a, b) => a - b);
	const em = thickness[thickness.length >> 1] ?? 0;
	return em > 0 && (2 * area) / boundary / em > BOLD_STROKE;
}

/** Stroke width over line thickness above which text reads as bold (calibrated on bench/corpus). */
const BOLD_STROKE = 0.105;

/**
 * How the source lines line up: the edge (left, right, centre) whose positions vary least
 * across lines wins. One line, or vertical text, is placed by its margins inside the area.
 */
export function lineAlignment(lettering: Lettering, width: number, vertical: boolean, area: Box): TextBlock["align"] {
	if (vertical || !lettering.box) return "center";
	const lines = lineBands(lettering.mask, width, lettering.box, false);
	if (lines.length >= 2) {
		const spread = (values: number[]) => Math.max(...values) - Math.min(...values);
		const left = spread(lines.map((l) => l.from));
		const right = spread(lines.map((l) => l.to));
		const centre = spread(lines.map((l) => (l.from + l.to) / 2));
		if (centre <= left && centre <= right) return "center";
		return left <= right ? "left" : "right";
	}
	const before = lettering.box.x0 - area.x0;
	const after = area.x1 - lettering.box.x1;
	const span = area.x1 - area.x0;
	if (Math.abs(before - after) <= 0.1 * span) return "center";
	return before < after ? "left" : "right";
}

/**
 * The source's font size, px: the median thickness of its lines (their ink's height, or width when
 * vertical), which is about the em of the face that drew them.
 */
export function letteringSize(lettering: Lettering, width: number, vertical: boolean): number {
	if (!lettering.box) return 0;
	const thickness = lineBands(lettering.mask, width, lettering.box, vertical)
		.map((band) => band.end - band.start)
		.sort((a, b) => a - b);
	return thickness[thickness.length >> 1] ?? 0;
}

/**
 * How many characters' worth of lettering there is, about: the lettering's length along its lines
 * (word spaces included) over its size (letteringSize). A CJK glyph is about an em wide, so this is
 * their count; Latin letters and Arabic words run a steady share of an em per character, so within
 * one script it follows the character count, whatever the size or weight (which ink area does not).
 */
export function letteringLength(lettering: Lettering, width: number, vertical: boolean): number {
	const size = letteringSize(lettering, width, vertical);
	if (!lettering.box || size === 0) return 0;
	const bands = lineBands(lettering.mask, width, lettering.box, vertical);
	return bands.reduce((sum, band) => sum + (band.to - band.from), 0) / size;
}

/**
 * Lines of text as runs of mask rows (or columns when vertical; gaps of a row or two stay inside
 * a line): `start`/`end` across the lines, `from`/`to` the extent along each.
 */
function lineBands(
	mask: Uint8Array,
	width: number,
	box: Box,
	vertical: boolean,
): { start: number; end: number; from: number; to: number }[] {
	const bands: { start: number; end: number; from: number; to: number }[] = [];
	let current: { start: number; end: number; from: number; to: number } | undefined;
	let gap = 0;
	const [acrossFrom, acrossTo, alongFrom, alongTo] = vertical
		? [box.x0, box.x1, box.y0, box.y1]
		: [box.y0, box.y1, box.x0, box.x1];
	for (let a = acrossFrom; a < acrossTo; a++) {
		let from = alongTo;
		let to = -1;
		for (let b = alongFrom; b < alongTo; b++) {
			if (!mask[vertical ? b * width + a : a * width + b]) continue;
			if (b < from) from = b;
			to = b + 1;
		}
		if (to < 0) {
			gap++;
			if (gap > 2 && current) {
				bands.push(current);
				current = undefined;
			}
			continue;
		}
		gap = 0;
		if (!current) current = { start: a, end: a + 1, from, to };
		else {
			current.end = a + 1;
			current.from = Math.min(current.from, from);
			current.to = Math.max(current.to, to);
		}
	}
	if (current) bands.push(current);
	return bands;
}
