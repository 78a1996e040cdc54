/**
 * The typed hand-offs between pipeline stages. Each stage is a plain function of
 * these values; none of them knows about HTTP, keys or credits.
 *
 *   decode (reader copies) -> read -> translate -> layout, erase (crops) -> typeset -> compose, encode (bands)
 */
import type { Env } from "../env";
import type { Mode, Translator } from "../request/options";
import type { ProbedImage } from "./probe";

/** What every stage may use besides its input: the Worker's configuration, cancellation, timings. */
export interface PipelineContext {
	env: Env;
	/** Aborted when the client goes away: outstanding model calls stop. */
	signal: AbortSignal;
	/** Filled in by the pipeline, stage by stage, for the record log. */
	timings: StageTimings;
}

/** The validated request, as the pipeline sees it. */
export interface TranslateJob {
	/**
	 * The client's file (PNG, JPEG, WebP or GIF bytes, never re-encoded) as the probe read it before
	 * the job was accepted: format, displayed size (within the pixel limit), its container's parse
	 * and what decoding it may cost. `decodeRows` decodes it, as many times as a pass needs.
	 */
	image: ProbedImage;
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

/**
 * Where `decodeRows` delivers an image: every row once, top to bottom, as displayed (EXIF
 * orientation applied), in straight RGBA. Each call hands `count` (1 or more) consecutive rows
 * from row `y`: `rgba` holds `count * width * 4` bytes and is valid only during the call (the
 * decoder reuses it). Throwing from `rows` stops the decode.
 */
export interface RowSink {
	rows(y: number, count: number, rgba: Uint8Array): void;
	/**
	 * For a sink that keeps grey pixels a byte each (image-rows.ts, pass 3's band of a grey PNG): a
	 * decoder whose pixels are opaque 8-bit grey as stored (a grey PNG, or grey pixels held) hands
	 * its rows over here instead, `count * width` bytes, sparing the expansion to RGBA and the
	 * sink's packing back.
	 */
	greyRows?(y: number, count: number, grey: Uint8Array): void;
}

/** Pixel box in the original image: x0/y0 inclusive, x1/y1 exclusive. */
export interface Box {
	x0: number;
	y0: number;
	x1: number;
	y1: number;
}

export type Rgb = readonly [number, number, number];

/**
 * A copy of one rectangle of the image (a crop): layout and erase work on it and hand back only
 * what they found or changed, so no stage after decoding needs the whole raster.
 */
export interface Patch {
	/** Where the patch sits in the image. */
	box: Box;
	width: number;
	height: number;
	/** Straight RGBA8, rows of `width`. */
	data: Uint8Array;
}

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

/**
 * What holds a block's lettering, found in the pixels by the layout stage: a speech balloon (a
 * closed light area inside a dark outline, the outline being art), a label or caption panel (a
 * flat-coloured shape), or, when there is none, the cleared area around text set on the art.
 */
export interface Container {
	kind: "balloon" | "panel" | "free";
	/** Bounding box of the container's inside, image px (the outline is not inside). */
	box: Box;
	/**
	 * The inside, one byte per pixel of `box` (1 = inside), when the shape is not its box (a balloon's
	 * ellipse or cloud, a rounded label); the translation is fitted to this shape.
	 */
	inside?: Uint8Array;
}

/**
 * One block of text as the page holds it: the reader regions that share a container, merged, with
 * the lettering found in the pixels. Layout makes blocks; erase, typeset and compose use them.
 */
export interface TextBlock {
	/** Reading order on the page. */
	id: number;
	/** The reader regions it was made of, in reading order (ids of TranslatedRegion). */
	regionIds: number[];
	/** Source texts of its regions, joined in reading order. */
	text: string;
	/** Their translations, joined likewise; empty when the block needs no text in the target. */
	translation: string;
	/** The source was set in vertical columns. */
	vertical: boolean;
	container: Container;
	/** Bounding box of every glyph of the block found in the pixels, image px. */
	textBox: Box;
	/**
	 * replace: the lettering is erased and the translation typeset in the container;
	 * keep: the translation equals the source (a brand, a number, a price): the pixels stay as drawn;
	 * cover: the lettering can't be separated from the art: an opaque panel in the local background
	 *   colour hides it, and the translation is set on the panel (never printed over unerased text).
	 */
	treatment: "replace" | "keep" | "cover";
	/** Dialogue shares one size per page; captions and sound effects may differ. */
	role: "dialogue" | "caption" | "sfx";
	/** The source lettering's font size, estimated from the glyphs found, px. */
	sourceSize: number;
	textColor: Rgb;
	backgroundColor: Rgb;
	bold: boolean;
	align: "left" | "center" | "right";
}

/**
 * The pixels the erase stage changed for one block, kept small (the lettering's bounding box) until
 * the last pass writes them into the rows it streams out.
 */
export interface ErasedPixels {
	/** Image px. */
	box: Box;
	/** One byte per pixel of `box`: 1 where the image takes `rgba`'s pixel. */
	mask: Uint8Array;
	/** Straight RGBA, 4 bytes per pixel of `box` (only masked pixels are meaningful). */
	rgba: Uint8Array;
}

/** A small rendered patch to draw over the image, straight RGBA. */
export interface Overlay {
	x: number;
	y: number;
	raster: Raster;
}

/**
 * Per-stage wall time in milliseconds, kept in the record log: decode is the first pass (reader
 * copies), layout and erase the second (crops), typeset the page plan. The last pass (compose,
 * encode) runs while the response streams, after the call is settled, so the record cannot hold its time.
 */
export type StageTimings = Partial<Record<"decode" | "read" | "translate" | "layout" | "erase" | "typeset", number>>;
