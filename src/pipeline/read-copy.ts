/**
 * The copy of the image a reader is sent: sized for what the model actually looks at (a long
 * edge around 1600 px: every vendor scales larger images down anyway), JPEG compressed. It is
 * made while the image is decoded, row by row: each window's rows are averaged down and handed
 * to a streaming JPEG encoder, so neither the image nor the copy's pixels are ever held whole.
 * Images beyond 3:1 (webtoon strips, banners) are read as overlapping tiles instead, so that
 * their text is not shrunk below legibility.
 */
import type { SentImage } from "../models/model-ask";
import { AreaShrink, type SourceArea } from "./area-shrink";
import { freeBuffer } from "./free-buffer";
import { overWhite } from "./over-white";
import { JpegEncoder } from "./pixels/jpeg-encode";
import { pixelWords } from "./rows";
import { estimateCharacters } from "./text-density";
import type { RowSink } from "./types";

/** An area of the original image, in its pixels. */
export interface Window {
	x: number;
	y: number;
	width: number;
	height: number;
}

/** What reading needs of the image, made from its rows without holding it. */
export interface ReaderImage {
	width: number;
	height: number;
	/**
	 * A page (up to 3:1): its whole copy and the characters of lettering its pixels suggest
	 * (text-density.ts); or a long strip: its tiles, each with its copy.
	 */
	view: { page: SentImage; characters: number } | { tiles: { window: Window; copy: SentImage }[] };
	/** Copies of other windows (parts of a dense page, halves of a part whose answer was cut off): the rows pass again. */
	copies(windows: Window[]): Promise<SentImage[]>;
}

/** Hands an image's rows to a sink, top to bottom, every time it is called (a decode of the file). */
export type RowSource = (sink: RowSink) => void | Promise<void>;

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

/**
 * The reader's view of the image from one pass over its rows (`alongside` sees the same rows:
 * the pipeline scans their colours in that pass). With `halfRows` (the image at half its size each
 * way, rounded up, which a JPEG decodes at a fraction of the cost) that pass reads those instead:
 * only when `halfSizeSuffices`, so that the copies come out at the same size.
 */
export async function readerImage(
	width: number,
	height: number,
	rows: RowSource,
	alongside?: RowSink,
	halfRows?: RowSource,
): Promise<ReaderImage> {
	const windows = readingWindows(width, height);
	// A page's copy keeps its pixels until the rows end, for the lettering estimate (6.8 MB at 1600x1067).
	const copier = new ReaderCopier(width, windows, windows.length === 1, halfRows !== undefined);
	await (halfRows ?? rows)({
		rows(y, count, rgba) {
			copier.rows(y, count, rgba);
			alongside?.rows(y, count, rgba);
		},
	});
	const made = copier.finish();
	const scaled = copier.firstPixels();
	const view = scaled
		? { page: made[0]!, characters: estimateCharacters(scaled.pixels, scaled.width, scaled.height) }
		: { tiles: windows.map((window, i) => ({ window, copy: made[i]! })) };
	if (scaled) freeBuffer(scaled.pixels);
	return { width, height, view, copies: copiesFrom(width, rows) };
}

/**
 * Whether the copies of the image's windows are made from it at half its size: a long strip's
 * tiles, when a copy (never larger than READER_LONG_EDGE on its long side) still gets that many
 * pixels from each window halved. A page's copy is made from full size, because the lettering
 * estimate reads it: cut by area from pixels already averaged, the copy is softer, and fine strokes
 * of small print fall short of the estimate's ink threshold (a dense page counted at a third to
 * three fifths), so a JPEG would get fewer reading parts than the same page as a PNG.
 */
export function halfSizeSuffices(width: number, height: number): boolean {
	const windows = readingWindows(width, height);
	return windows.length > 1 && windows.every((w) => Math.max(w.width, w.height) >= 2 * READER_LONG_EDGE);
}

/**
 * Copies of any windows, from a new pass over the rows. Made apart from readerImage's locals: a
 * closure there would keep its first copier (and the page's pixels) alive while the models think.
 */
function copiesFrom(width: number, rows: RowSource): ReaderImage["copies"] {
	return async (windows) => {
		const copier = new ReaderCopier(width, windows);
		await rows(copier);
		return copier.finish();
	};
}

/** Makes the reader copy of each window as the image's rows go by. */
export class ReaderCopier implements RowSink {
	private readonly shrinks: (Shrink | AreaShrink)[];
	private readonly encoders: JpegEncoder[] = [];
	/** The first window's copy as opaque RGBA, when kept. */
	private readonly kept?: Uint8Array;
	/** The width of the rows it is given: the image's, or half of it (rounded up). */
	private readonly rowWidth: number;

	/**
	 * `halved`: the rows will be those of the image at half its size (rounded up); the windows are
	 * still in the image's pixels and the copies come out the same size.
	 */
	constructor(imageWidth: number, windows: Window[], keepFirst = false, halved = false) {
		this.rowWidth = halved ? Math.ceil(imageWidth / 2) : imageWidth;
		this.shrinks = windows.map((window, i) => {
			const emit = (row: Uint8Array, y: number) => {
				this.encoders[i]!.addRow(row);
				if (i === 0 && this.kept) keepRow(this.kept, row, y * shrink.width * 4);
			};
			const shrink = halved
				? new AreaShrink(halfArea(window), ...copySize(window, READER_LONG_EDGE), emit)
				: new Shrink(window, READER_LONG_EDGE, emit);
			this.encoders.push(new JpegEncoder(shrink.width, shrink.height, JPEG_QUALITY));
			return shrink;
		});
		const first = this.shrinks[0];
		if (keepFirst && first) this.kept = new Uint8Array(first.width * first.height * 4);
	}

	rows(y: number, count: number, rgba: Uint8Array): void {
		const pixels = pixelWords(rgba);
		for (let r = 0; r < count; r++) {
			const row = pixels.subarray(r * this.rowWidth, (r + 1) * this.rowWidth);
			for (const shrink of this.shrinks) shrink.addSourceRow(y + r, row);
		}
	}

	/** The copies, in the windows' order. */
	finish(): SentImage[] {
		return this.encoders.map((encoder) => ({
			mime: "image/jpeg",
			base64: toBase64(encoder.finish()),
			width: encoder.width,
			height: encoder.height,
		}));
	}

	/** The first window's copy as opaque RGBA pixels, when it was kept. */
	firstPixels(): { pixels: Uint8Array; width: number; height: number } | undefined {
		const first = this.shrinks[0];
		return this.kept && first ? { pixels: this.kept, width: first.width, height: first.height } : undefined;
	}
}

/** A window of the image in the pixels of the image at half size: exactly, edges between pixels. */
function halfArea(window: Window): SourceArea {
	return {
		x0: window.x / 2,
		y0: window.y / 2,
		x1: (window.x + window.width) / 2,
		y1: (window.y + window.height) / 2,
	};
}

/** The copy of a window: at most `longEdge` on its long side, never enlarged. */
function copySize(window: Window, longEdge: number): [width: number, height: number] {
	const scale = Math.min(1, longEdge / Math.max(window.width, window.height));
	return [Math.max(1, Math.round(window.width * scale)), Math.max(1, Math.round(window.height * scale))];
}

function keepRow(into: Uint8Array, rgb: Uint8Array, at: number): void {
	for (let i = 0, o = at; i < rgb.length; i += 3, o += 4) {
		into[o] = rgb[i]!;
		into[o + 1] = rgb[i + 1]!;
		into[o + 2] = rgb[i + 2]!;
		into[o + 3] = 255;
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
		/** Takes each output row, RGB, 3 bytes a pixel (the buffer is reused), and its row number. */
		private readonly emit: (row: Uint8Array, y: number) => void,
	) {
		[this.width, this.height] = copySize(window, longEdge);
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
			// Math.round(r / n) exactly (r, n whole, the sum of n bytes: never a tie left unsettled),
			// without Math.round, which took near half the copy's time in V8.
			const half = n >> 1;
			out[ox * 3] = ((r + half) / n) | 0;
			out[ox * 3 + 1] = ((g + half) / n) | 0;
			out[ox * 3 + 2] = ((b + half) / n) | 0;
		}
		this.emit(out, this.outputY);
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

function toBase64(bytes: Uint8Array): string {
	let binary = "";
	for (let i = 0; i < bytes.length; i += 0x8000) {
		binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
	}
	return btoa(binary);
}
