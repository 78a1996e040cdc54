/**
 * The copy of the image a reader is sent: sized for what the model actually looks at (a long
 * edge around 1600 px: every vendor scales larger images down anyway), JPEG compressed. It is
 * made while the image is decoded, row by row: each window's rows are averaged down and handed
 * to a streaming JPEG encoder, so neither the image nor the copy's pixels are ever held whole.
 * Images beyond 3:1 (webtoon strips, banners) are read as overlapping tiles instead, so that
 * their text is not shrunk below legibility.
 */
import type { SentImage } from "../models/ask";
import { JpegEncoder } from "./pixels/jpeg-encode";
import { pixelWords } from "./rows";

/** An area of the original image, in its pixels. */
export interface Window {
	x: number;
	y: number;
	width: number;
	height: number;
}

/** What the readers are sent: one copy per reading window, and the image's size. */
export interface ReaderCopies {
	width: number;
	height: number;
	windows: Window[];
	/** copies[i] shows windows[i]. */
	copies: SentImage[];
}

export const READER_LONG_EDGE = 1600;
export const JPEG_QUALITY = 85;
/** Beyond this aspect ratio the image is read in tiles. */
export const MAX_ASPECT = 3;
/** Tiles are at most this many times longer than wide. */
const TILE_ASPECT = 2;
/** Neighbouring tiles share this fraction of the short side, so a balloon cut by one edge is whole in the other tile. */
const TILE_OVERLAP = 0.5;
/** Parallel reads per image; a longer strip gets longer tiles instead of more of them. */
const MAX_TILES = 12;

/** The windows to read: the whole image, or overlapping tiles along its long axis. */
export function readingWindows(width: number, height: number): Window[] {
	const long = Math.max(width, height);
	const short = Math.min(width, height);
	if (long <= MAX_ASPECT * short) return [{ x: 0, y: 0, width, height }];
	const overlap = Math.round(short * TILE_OVERLAP);
	let span = TILE_ASPECT * short;
	let count = Math.ceil((long - overlap) / (span - overlap));
	if (count > MAX_TILES) {
		count = MAX_TILES;
		span = Math.ceil((long + overlap * (count - 1)) / count);
	}
	const step = (long - span) / (count - 1);
	return Array.from({ length: count }, (_, i) => {
		const offset = Math.round(i * step);
		return width >= height ? { x: offset, y: 0, width: span, height } : { x: 0, y: offset, width, height: span };
	});
}

/** Makes every window's reader copy as the image's rows go by: `take` the rows top to bottom, then `finish`. */
export class ReaderCopier {
	private readonly windows: Window[];
	private readonly shrinks: Shrink[];
	private readonly encoders: JpegEncoder[] = [];

	constructor(
		readonly width: number,
		readonly height: number,
		longEdge = READER_LONG_EDGE,
	) {
		this.windows = readingWindows(width, height);
		this.shrinks = this.windows.map((window, i) => {
			const shrink = new Shrink(window, longEdge, (row) => this.encoders[i]!.addRow(row));
			this.encoders.push(new JpegEncoder(shrink.width, shrink.height, JPEG_QUALITY));
			return shrink;
		});
	}

	/** `count` image rows from row `y`, straight RGBA. */
	take(y: number, count: number, rgba: Uint8Array): void {
		const pixels = pixelWords(rgba);
		for (let r = 0; r < count; r++) {
			const row = pixels.subarray(r * this.width, (r + 1) * this.width);
			for (const shrink of this.shrinks) shrink.addSourceRow(y + r, row);
		}
	}

	finish(): ReaderCopies {
		const copies = this.encoders.map(
			(encoder): SentImage => ({
				mime: "image/jpeg",
				base64: toBase64(encoder.finish()),
				width: encoder.width,
				height: encoder.height,
			}),
		);
		return { width: this.width, height: this.height, windows: this.windows, copies };
	}
}

/**
 * Area-average (box filter) downscale of one window, never up, composited over white: JPEG has
 * no alpha, and black behind transparent lettering would hide it from the reader. Source rows are
 * summed per column in 16-bit lanes (red and blue in one word, green in another: two additions a
 * pixel, on words that stay small integers for the JIT); when an output row is complete its
 * columns are summed, divided and emitted as RGB.
 */
export class Shrink {
	readonly width: number;
	readonly height: number;
	/** Per source column: red | blue << 16, and green, summed over the output row's source rows so far. */
	private readonly redBlue: Int32Array;
	private readonly green: Int32Array;
	/** Lane sums spilled every SPILL_ROWS rows, before blue's lane could reach the sign bit. */
	private wide: Float64Array | undefined;
	/** First source column of each output column, and one past the last (width + 1 entries). */
	private readonly columnStart: Int32Array;
	private readonly outputRow: Uint8Array;
	private outputY = 0;
	private rowsSummed = 0;
	private lanesSummed = 0;

	constructor(
		readonly window: Window,
		longEdge: number,
		/** Takes each output row, RGB, 3 bytes a pixel (the buffer is reused). */
		private readonly emit: (row: Uint8Array) => void,
	) {
		const scale = Math.min(1, longEdge / Math.max(window.width, window.height));
		this.width = Math.max(1, Math.round(window.width * scale));
		this.height = Math.max(1, Math.round(window.height * scale));
		this.redBlue = new Int32Array(window.width);
		this.green = new Int32Array(window.width);
		this.columnStart = new Int32Array(this.width + 1);
		for (let ox = 0; ox <= this.width; ox++) {
			this.columnStart[ox] = ox === this.width ? window.width : Math.ceil((ox * window.width) / this.width);
		}
		this.outputRow = new Uint8Array(this.width * 3);
	}

	/** Source row `y` of the image (its pixel words); rows outside the window are ignored. */
	addSourceRow(y: number, row: Int32Array): void {
		const { window } = this;
		if (y < window.y || y >= window.y + window.height || this.outputY >= this.height) return;
		const redBlue = this.redBlue;
		const green = this.green;
		const columns = window.width;
		for (let x = 0, i = window.x; x < columns; x++, i++) {
			let p = row[i]!;
			if (p >>> 24 !== 255) p = overWhite(p);
			redBlue[x]! += p & 0xff00ff;
			green[x]! += (p >>> 8) & 0xff;
		}
		this.rowsSummed++;
		if (++this.lanesSummed === SPILL_ROWS) this.spill();
		const sourceRow = y - window.y + 1;
		if (sourceRow === this.rowEnd(this.outputY)) this.emitRow();
	}

	/** One past the last source row (in the window) of output row `oy`. */
	private rowEnd(oy: number): number {
		return oy === this.height - 1 ? this.window.height : Math.floor(((oy + 1) * this.window.height) / this.height);
	}

	private spill(): void {
		this.wide ??= new Float64Array(this.window.width * 3);
		const wide = this.wide;
		for (let x = 0; x < this.window.width; x++) {
			const rb = this.redBlue[x]!;
			wide[x * 3]! += rb & 0xffff;
			wide[x * 3 + 1]! += this.green[x]!;
			wide[x * 3 + 2]! += rb >>> 16;
		}
		this.redBlue.fill(0);
		this.green.fill(0);
		this.lanesSummed = 0;
	}

	private emitRow(): void {
		if (this.wide) this.spill();
		const out = this.outputRow;
		const wide = this.wide;
		for (let ox = 0; ox < this.width; ox++) {
			let r = 0;
			let g = 0;
			let b = 0;
			const end = this.columnStart[ox + 1]!;
			for (let x = this.columnStart[ox]!; x < end; x++) {
				if (wide) {
					r += wide[x * 3]!;
					g += wide[x * 3 + 1]!;
					b += wide[x * 3 + 2]!;
				} else {
					const rb = this.redBlue[x]!;
					r += rb & 0xffff;
					g += this.green[x]!;
					b += rb >>> 16;
				}
			}
			const n = (end - this.columnStart[ox]!) * this.rowsSummed || 1;
			out[ox * 3] = Math.round(r / n);
			out[ox * 3 + 1] = Math.round(g / n);
			out[ox * 3 + 2] = Math.round(b / n);
		}
		this.emit(out);
		this.redBlue.fill(0);
		this.green.fill(0);
		this.wide?.fill(0);
		this.rowsSummed = 0;
		this.lanesSummed = 0;
		this.outputY++;
	}
}

/** 128 rows of 255 fill 15 bits: blue's lane, shifted by 16, stays below 2^31. */
const SPILL_ROWS = 128;

/** A pixel word composited over white, made opaque: a transparent pixel reads as paper, not as black. */
function overWhite(p: number): number {
	const a = p >>> 24;
	const white = 255 * (255 - a) + 127;
	const r = ((p & 0xff) * a + white) / 255;
	const g = (((p >>> 8) & 0xff) * a + white) / 255;
	const b = (((p >>> 16) & 0xff) * a + white) / 255;
	return (0xff << 24) | ((b & 0xff) << 16) | ((g & 0xff) << 8) | (r & 0xff);
}

function toBase64(bytes: Uint8Array): string {
	let binary = "";
	for (let i = 0; i < bytes.length; i += 0x8000) {
		binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
	}
	return btoa(binary);
}
