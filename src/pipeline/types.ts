/**
 * The typed hand-offs between pipeline stages. Each stage is a plain function of
 * these values; none of them knows about HTTP, keys or credits.
 *
 *   decode -> read -> translate -> erase -> typeset -> compose -> encode
 */
import type { Mode, Translator } from "../request/options";

/** The validated request, as the pipeline sees it. */
export interface TranslateJob {
	/** The decoded image file (PNG, JPEG, WebP or GIF bytes), never re-encoded before decode. */
	image: Uint8Array;
	format: ImageFormat;
	/** From the file header, checked against the pixel limit before the job was accepted. */
	width: number;
	height: number;
	/** A listed code, lower-cased and with aliases resolved, or `auto`. */
	sourceLanguage: string;
	targetLanguage: string;
	mode: Mode;
	translator: Translator;
	customPrompt?: string;
}

export type ImageFormat = "png" | "jpeg" | "webp" | "gif";

/** Straight (not premultiplied) RGBA, 8 bits a channel, rows top to bottom. */
export interface Raster {
	width: number;
	height: number;
	data: Uint8Array;
}

/** Pixel box in the original image: x0/y0 inclusive, x1/y1 exclusive. */
export interface Box {
	x0: number;
	y0: number;
	x1: number;
	y1: number;
}

export type Rgb = readonly [number, number, number];

/** One block of text that belongs together (a balloon, a paragraph, a label), as read. */
export interface TextRegion {
	/** Index in reading order; translations refer to it. */
	id: number;
	text: string;
	box: Box;
	vertical: boolean;
	lines?: { text: string; box: Box }[];
	/** Lettering colour, when the reader reported one. */
	color?: Rgb;
}

export interface TranslatedRegion extends TextRegion {
	/** Empty when the block needs no text in the target (the region is still erased). */
	translation: string;
}

/** What the erase stage learned about a region, for typesetting. */
export interface ErasedRegion extends TranslatedRegion {
	/** The reader's box tightened to the lettering actually found. */
	textBox: Box;
	/** The area that was cleaned: text may grow into it when it does not fit textBox. */
	erasedBox: Box;
	textColor: Rgb;
	backgroundColor: Rgb;
	/** Estimated from stroke width against line height. */
	bold: boolean;
	/** Estimated from where the source lines start and end. */
	align: "left" | "center" | "right";
}

/** A small rendered patch to draw over the image, straight RGBA. */
export interface Overlay {
	x: number;
	y: number;
	raster: Raster;
}

/** Per-stage wall time in milliseconds, kept in the record log. */
export type StageTimings = Partial<
	Record<"decode" | "read" | "translate" | "erase" | "typeset" | "compose" | "encode", number>
>;
