/**
 * What layout found for one reader region in the pixels, before regions are grouped into blocks:
 * its container, its lettering (for the erase stage) and what the lettering measures.
 */
import { clipBox, cutPatch, grow, toImageBox, toPatchBox } from "../patch";
import type { Box, Container, Patch, Rgb, TextBlock, TranslatedRegion } from "../types";
import { type Background, fitBackground, shiftBackground } from "./background";
import type { Glyphs } from "./glyphs";
import { dilate, reframe } from "./masks";
import { letteringColour, letteringSize, lineAlignment, looksBold, medianColour } from "./measure";
import { paddedBox } from "./search";

/**
 * A block's lettering as the erase stage takes it: the glyph pixels and the art they touch, over
 * the area erasure may touch, with the background the lettering hides.
 */
export interface Lettering {
	/** Image px: the glyphs' bounding box with a margin; masks are one byte per pixel of it. */
	box: Box;
	/** 1 on glyph pixels, their anti-aliased rim and counters included. */
	mask: Uint8Array;
	/** 1 on art the glyphs touch (a balloon's outline): kept as drawn, and the fill stays on its side. */
	barrier?: Uint8Array;
	/** Measured around the lettering; planes in `box`'s coordinates. */
	background: Background;
}

export interface Finding {
	region: TranslatedRegion;
	/** The part of the region this finding holds: its whole text unless the region spans containers. */
	text: string;
	translation: string;
	/** Order of the part within the region. */
	part: number;
	container: Container;
	/** The container is a closed shape of the pixels (a balloon or a panel), not the area around free text. */
	closed: boolean;
	/** Undefined when no lettering could be told apart from what lies around it (the block is covered). */
	lettering?: Lettering;
	/** The glyphs' bounding box; the reader's box when none were found. */
	textBox: Box;
	/** Glyph pixels found. */
	inkArea: number;
	/** For a cover: the reader's box run on along its line as far as its lettering was seen to go. */
	lineRun?: Box;
	measures: Measures;
}

export type Measures = Pick<TextBlock, "textColor" | "backgroundColor" | "bold" | "align" | "sourceSize">;

/**
 * The measures and the erase hand-off of glyphs found in a work patch. `refit`: measure what the
 * glyphs hide again, around the glyphs found (free lettering, whose background was measured around
 * a rough box: a third too large on a gradient it may read as flat); a container's is its colour.
 */
export function measureGlyphs(
	patch: Patch,
	glyphs: Glyphs & { box: Box },
	bg: Background,
	region: TranslatedRegion,
	container: Box,
	refit: boolean,
): { lettering: Lettering; measures: Measures; inkArea: number } {
	const { width: w } = patch;
	const { mask: glyphMask, box: glyphBox } = glyphs;
	// Glyphs lie within their box, and the pixels beside them within BESIDE_PX of it: only those are walked.
	const besideBox = clipBox(grow(glyphBox, BESIDE_PX), patch);
	const beside: Rgb | undefined =
		bg.kind === "flat"
			? [clampByte(bg.planes[0]![0]), clampByte(bg.planes[1]![0]), clampByte(bg.planes[2]![0])]
			: medianColour(patch, besideGlyphs(glyphs, w, besideBox), besideBox);
	const textColor =
		(beside ? letteringColour(patch, glyphs.core, glyphBox, beside) : medianColour(patch, glyphs.core, glyphBox)) ??
		region.color ??
		([0, 0, 0] as Rgb);
	const backgroundColor = beside ?? contrasting(textColor);
	let inkArea = 0;
	for (let y = glyphBox.y0; y < glyphBox.y1; y++)
		for (let i = y * w + glyphBox.x0, end = y * w + glyphBox.x1; i < end; i++) inkArea += glyphMask[i]!;
	const textBox = toImageBox(patch, glyphs.box);
	const size = letteringSize(glyphs, w, region.vertical);
	const measures: Measures = {
		textColor,
		backgroundColor,
		bold: looksBold(glyphs, w, region.vertical),
		align: lineAlignment(glyphs, w, region.vertical, toPatchBox(patch, container)),
		sourceSize: size > 0 ? size : glyphs.glyphSize,
	};
	// Erasure may touch the glyphs' box with a margin, as far as the work patch reaches.
	const eraseBox = paddedBox(textBox, patch.box);
	const around = cutPatch(patch, eraseBox);
	const mask = reframe(glyphs.mask, patch.box, eraseBox);
	// A pattern's periods and a texture's ink colour hold wherever measured; flat art and gradients
	// are told apart by the area, and a rough box's is not the lettering's.
	const smooth = bg.kind === "flat" || bg.kind === "gradient";
	const background =
		refit && smooth
			? fitBackground(around, toPatchBox(around, textBox), dilate(mask, around.width, around.height, 1))
			: shiftBackground(bg, eraseBox.x0 - patch.box.x0, eraseBox.y0 - patch.box.y0);
	const lettering: Lettering = {
		box: eraseBox,
		mask,
		...(glyphs.outline ? { barrier: reframe(glyphs.outline, patch.box, eraseBox) } : {}),
		background,
	};
	return { lettering, measures, inkArea };
}

/** How far (px) from the glyphs the pixels they stand on are looked at. */
const BESIDE_PX = 3;

/**
 * The pixels within BESIDE_PX of the glyphs, neither glyph nor the outline they touch: what they
 * stand on. Over the patch (`w` wide), set only within `box`, the glyphs' box grown by BESIDE_PX.
 */
function besideGlyphs(glyphs: Glyphs, w: number, box: Box): Uint8Array {
	const patchBox = { x0: 0, y0: 0, x1: w, y1: glyphs.mask.length / w };
	const bw = box.x1 - box.x0;
	const near = dilate(reframe(glyphs.mask, patchBox, box), bw, box.y1 - box.y0, BESIDE_PX);
	const { mask, outline } = glyphs;
	const ring = new Uint8Array(mask.length);
	for (let y = box.y0; y < box.y1; y++) {
		for (let x = box.x0, i = y * w + x, k = (y - box.y0) * bw; x < box.x1; x++, i++, k++)
			ring[i] = near[k]! & (1 - mask[i]!) & (outline ? 1 - outline[i]! : 1);
	}
	return ring;
}

/** Nothing told apart from the background: the block is covered (never printed over lettering left). */
export function nothingFound(region: TranslatedRegion, textBox: Box, bounds: Box, background?: Rgb): Finding {
	const backgroundColor: Rgb = background ?? [255, 255, 255];
	const box = clipBox(textBox, bounds);
	return {
		region,
		text: region.text,
		translation: region.translation,
		part: 0,
		container: { kind: "free", box },
		closed: false,
		textBox: box,
		inkArea: 0,
		measures: {
			textColor: region.color ?? contrasting(backgroundColor),
			backgroundColor,
			bold: false,
			align: "center",
			sourceSize: sizeFromBox(region, box),
		},
	};
}

/** Without glyphs to measure: the box's thinner side, or a share of it for several lines. */
function sizeFromBox(region: TranslatedRegion, box: Box): number {
	const thin = region.vertical ? box.x1 - box.x0 : box.y1 - box.y0;
	const lines = Math.max(1, region.lines?.length ?? 1);
	return Math.max(1, Math.round((0.85 * thin) / lines));
}

export function contrasting([r, g, b]: Rgb): Rgb {
	return 0.299 * r + 0.587 * g + 0.114 * b > 128 ? [0, 0, 0] : [255, 255, 255];
}

function clampByte(v: number): number {
	return Math.max(0, Math.min(255, Math.round(v)));
}
