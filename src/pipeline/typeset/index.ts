/**
 * The typeset stage: each erased region and its translation become one small overlay (straight
 * RGBA over the region's area), drawn by the compose stage. Per region: clean the text, shape it
 * once with the target's fonts, find the largest size whose balanced breaking fits the box (then
 * the erased area, then with words broken; kept off the art the source lettering met), draw it in
 * the mode's style as one small SVG of glyph outlines, rasterize it with resvg.
 */
import type { Mode } from "../../request/options";
import type { Box, ErasedRegion, Overlay } from "../types";
import { type FitOptions, type Fitted, fitText, layoutAt } from "./fit";
import { type FontLoader, FontSession } from "./font-cache";
import { fontFilesFor, isCjk, isRightToLeft, lineSpacing } from "./fonts";
import { addOutline } from "./outline";
import type { Align } from "./place";
import { rasterize } from "./rasterize";
import { cleanTranslation } from "./sanitize";
import { type MeasuredParagraph, shapeParagraphs } from "./shape";
import { sourceFontSize } from "./source-size";
import { type Style, strokeReach, styleFor } from "./style";
import { buildSvg } from "./svg";

export type { FontLoader } from "./font-cache";
export { FontSession, loadedFontBytes } from "./font-cache";
export { harfbuzzMemoryBytes } from "./harfbuzz";

export interface TypesetOptions {
	mode: Mode;
	targetLanguage: string;
	sourceLanguage: string;
	imageWidth: number;
	imageHeight: number;
	loadFont: FontLoader;
}

export interface TypesetResult {
	overlays: Overlay[];
	/** Ids of regions whose text did not fit at the minimum size, even in the erased area. */
	overflow: number[];
}

/** Beyond this many regions the rest are left erased but untypeset (and reported as overflow). */
export const MAX_REGIONS = 2000;
/** Below this a reader squints (on large images the floor is a share of the image instead). */
export const MIN_LEGIBLE_PX = 10;
/** No lettering is drawn larger than this. */
export const MAX_FONT_PX = 160;
/**
 * An overlay's pixels at most (16 MB of RGBA, and as much again inside resvg while it renders):
 * long text is kept small enough for its ink to fit, a light-novel panel shrinks to the text.
 */
export const MAX_OVERLAY_PIXELS = 4_000_000;

export async function typesetRegions(regions: ErasedRegion[], opts: TypesetOptions): Promise<TypesetResult> {
	const session = new FontSession(opts.loadFont);
	const overlays: Overlay[] = [];
	const overflow: number[] = [];
	try {
		for (const [index, region] of regions.entries()) {
			if (index >= MAX_REGIONS) {
				overflow.push(region.id);
				continue;
			}
			const drawing = await drawRegion(region, opts, session);
			if (drawing.overflowed) overflow.push(region.id);
			if (!drawing.svg) continue;
			const raster = await rasterize(drawing.svg);
			if (drawing.outline) addOutline(raster, drawing.outline.color, drawing.outline.radius);
			overlays.push({ x: drawing.x, y: drawing.y, raster });
		}
	} finally {
		session.release();
	}
	return { overlays, overflow };
}

/** One region, laid out and drawn as SVG (not yet rasterized): what tests and benchmarks inspect. */
export interface RegionDrawing {
	/** Absent when there is nothing to draw (empty translation, degenerate box). */
	svg?: string;
	/** Top left of the SVG in the image, px. */
	x: number;
	y: number;
	overflowed: boolean;
	fitted?: Fitted;
	/** The box the text was fitted in, image px. */
	box?: Box;
	/** Line height in em used for horizontal text. */
	spacing: number;
	/** The manga outline, added to the raster after rendering. */
	outline?: Style["outline"];
}

const width = (b: Box) => b.x1 - b.x0;
const height = (b: Box) => b.y1 - b.y0;

const finite = (b: Box) => [b.x0, b.y0, b.x1, b.y1].every(Number.isFinite);

/** The erased area (never smaller than the text box), pulled in a little so text does not touch a balloon's edge. */
function roomIn(region: ErasedRegion): Box {
	const t = region.textBox;
	const e = finite(region.erasedBox)
		? {
				x0: Math.min(t.x0, region.erasedBox.x0),
				y0: Math.min(t.y0, region.erasedBox.y0),
				x1: Math.max(t.x1, region.erasedBox.x1),
				y1: Math.max(t.y1, region.erasedBox.y1),
			}
		: t;
	const insetX = Math.max(0, (width(e) - width(t)) * 0.12);
	const insetY = Math.max(0, (height(e) - height(t)) * 0.12);
	return { x0: e.x0 + insetX, y0: e.y0 + insetY, x1: e.x1 - insetX, y1: e.y1 - insetY };
}

/** Gap kept from art the source lettering met, in em of the source size (at least a pixel). */
const ART_GAP_EM = 0.08;

/**
 * `box` kept `gap` px inside the text box on the sides where nothing was cleaned beyond the
 * lettering: there the source letters met art (a balloon fitted tightly to the text, its outline
 * running over the letters' edge), and ink drawn to the text box's edge would sit on the outline.
 */
function awayFromArt(region: ErasedRegion, box: Box, gap: number): Box {
	const t = region.textBox;
	const e = region.erasedBox;
	if (!finite(e)) return box;
	return {
		x0: e.x0 >= t.x0 ? Math.max(box.x0, t.x0 + gap) : box.x0,
		y0: e.y0 >= t.y0 ? Math.max(box.y0, t.y0 + gap) : box.y0,
		x1: e.x1 <= t.x1 ? Math.min(box.x1, t.x1 - gap) : box.x1,
		y1: e.y1 <= t.y1 ? Math.min(box.y1, t.y1 - gap) : box.y1,
	};
}

export async function drawRegion(
	region: ErasedRegion,
	opts: TypesetOptions,
	session: FontSession,
): Promise<RegionDrawing> {
	const spacing = lineSpacing(opts.targetLanguage);
	const nothing = { x: 0, y: 0, spacing };
	const paragraphs = cleanTranslation(region.translation);
	if (paragraphs.length === 0 || !finite(region.textBox) || width(region.textBox) <= 0 || height(region.textBox) <= 0) {
		return { ...nothing, overflowed: false };
	}

	const language = opts.targetLanguage;
	const vertical = opts.mode === "manga" && region.vertical && isCjk(language);
	const rightToLeft = isRightToLeft(language);
	const shaped = await shapeParagraphs(paragraphs, {
		language,
		fontFiles: fontFilesFor(language, opts.mode, opts.sourceLanguage),
		session,
		rightToLeft,
		vertical,
	});
	// Nothing any face can draw (emoji only, say): nothing to place, and nothing overflowed.
	if (shaped.paragraphs.every((p) => p.pieces.length === 0)) return { ...nothing, overflowed: false };

	const source = sourceFontSize(region);
	// Never below the legible minimum, even for fine print: overflow is reported rather than squinted at.
	const minSize = Math.max(MIN_LEGIBLE_PX, Math.min(opts.imageWidth, opts.imageHeight) / 120);
	// Ink area of n characters is at most about n * (1.5 em)^2 in any script.
	const characters = paragraphs.reduce((n, p) => n + p.length, 0);
	const memoryBound = Math.sqrt(MAX_OVERLAY_PIXELS / (characters * 2.25));
	const maxSize = Math.max(minSize, Math.min(MAX_FONT_PX, source * 1.1, memoryBound));
	const align: Align = opts.mode === "manga" ? "center" : rightToLeft ? "right" : region.align;
	const reach = (size: number) => strokeReach(styleFor(opts.mode, region, size));
	const options: FitOptions = { minSize, maxSize, vertical, spacing, align, reach };

	const gap = Math.max(1, ART_GAP_EM * source);
	const clear = { text: awayFromArt(region, region.textBox, gap), room: awayFromArt(region, roomIn(region), gap) };
	const flush = { text: region.textBox, room: roomIn(region) };
	const attempt = (paras: MeasuredParagraph[], { text, room }: { text: Box; room: Box }) => {
		const inText = fitText(paras, width(text), height(text), options);
		// Grow into the erased area when the text box alone forces small lettering.
		if (inText && inText.size >= maxSize * 0.8) return { fitted: inText, box: text };
		const inRoom = fitText(paras, width(room), height(room), options);
		if (inRoom && (!inText || inRoom.size > inText.size)) return { fitted: inRoom, box: room };
		return inText ? { fitted: inText, box: text } : undefined;
	};
	let broken: MeasuredParagraph[] | undefined;
	const wordsBroken = () => (broken ??= shaped.broken());
	// Touching the art beats breaking words, and both beat overflowing.
	let placed =
		attempt(shaped.paragraphs, clear) ??
		attempt(shaped.paragraphs, flush) ??
		attempt(wordsBroken(), clear) ??
		attempt(wordsBroken(), flush);
	let overflowed = false;
	if (!placed) {
		// Even the minimum size does not fit: keep it legible, let it run past the area, and say so.
		overflowed = true;
		const { room } = clear;
		const fitted = layoutAt(wordsBroken(), minSize, width(room), height(room), options, true);
		if (!fitted) return { ...nothing, overflowed };
		placed = { fitted, box: room };
	}
	const drawn = toSvg(placed.fitted, placed.box, region, opts);
	const outline = styleFor(opts.mode, region, placed.fitted.size).outline;
	return { ...nothing, ...drawn, overflowed, fitted: placed.fitted, box: placed.box, outline };
}

/** The SVG of a fitted layout, cut to its ink (and panel), in image pixels clipped to the image. */
function toSvg(
	fitted: Fitted,
	box: Box,
	region: ErasedRegion,
	opts: TypesetOptions,
): { svg?: string; x: number; y: number } {
	const style = styleFor(opts.mode, region, fitted.size);
	// Overlay area: the ink (and the panel, for light-novel) in image pixels, clipped to the image.
	let area = {
		x0: box.x0 + fitted.ink.x0,
		y0: box.y0 + fitted.ink.y0,
		x1: box.x0 + fitted.ink.x1,
		y1: box.y0 + fitted.ink.y1,
	};
	if (style.panel) {
		const p = style.panel.padding;
		const block = {
			x0: Math.min(area.x0, region.textBox.x0) - p,
			y0: Math.min(area.y0, region.textBox.y0) - p,
			x1: Math.max(area.x1, region.textBox.x1) + p,
			y1: Math.max(area.y1, region.textBox.y1) + p,
		};
		const text = { x0: area.x0 - p, y0: area.y0 - p, x1: area.x1 + p, y1: area.y1 + p };
		area = width(block) * height(block) <= MAX_OVERLAY_PIXELS ? block : text;
	}
	const x0 = Math.max(0, Math.floor(area.x0));
	const y0 = Math.max(0, Math.floor(area.y0));
	const x1 = Math.min(opts.imageWidth, Math.ceil(area.x1));
	const y1 = Math.min(opts.imageHeight, Math.ceil(area.y1));
	if (x1 <= x0 || y1 <= y0) return { x: 0, y: 0 };

	const dx = box.x0 - x0;
	const dy = box.y0 - y0;
	for (const g of fitted.glyphs) {
		g.matrix[4] += dx;
		g.matrix[5] += dy;
	}
	const panel = style.panel
		? { x: area.x0 - x0, y: area.y0 - y0, width: area.x1 - area.x0, height: area.y1 - area.y0 }
		: undefined;
	return { svg: buildSvg(fitted.glyphs, style, { width: x1 - x0, height: y1 - y0 }, panel), x: x0, y: y0 };
}
