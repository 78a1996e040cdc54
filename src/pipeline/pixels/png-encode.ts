import { pixelWords } from "../rows";
import type { Raster, Rgb } from "../types";
import { crc32 } from "./crc32";
import { RleDeflater } from "./deflate";

/** Rows are handed to the compressor in batches of about this many bytes. */
const BATCH_BYTES = 1 << 18;

/**
 * A PNG written as its rows come, top to bottom: each batch of rows is filtered and compressed
 * (RleDeflater) as soon as it is full and leaves as one IDAT chunk, so besides the caller's rows
 * only one batch of filtered bytes is alive and the file is never held whole (the response
 * streams the pieces: src/http/success-body.ts). The colour type must be known before the first
 * row: `ColourScan` finds the smallest one that holds every pixel exactly. Fewer bytes per pixel
 * mean proportionally less to filter and compress.
 */
export class PngEncoder {
	private readonly deflater = new RleDeflater();
	private readonly rowBytes: number;
	private readonly batch: Uint8Array;
	private readonly batchView: DataView;
	private filled = 0;
	private rowsIn = 0;

	/** `channels`: 1 grey, 3 RGB, 4 RGBA; a pixel the type cannot hold loses what does not fit. */
	constructor(
		readonly width: number,
		readonly height: number,
		readonly channels: 1 | 3 | 4,
	) {
		this.rowBytes = width * channels + 1;
		this.batch = new Uint8Array(Math.max(1, Math.floor(BATCH_BYTES / this.rowBytes)) * this.rowBytes);
		this.batchView = new DataView(this.batch.buffer);
	}

	/** The signature and the header: the file's first pieces. */
	start(): Uint8Array[] {
		const header = new Uint8Array(13);
		const view = new DataView(header.buffer);
		view.setUint32(0, this.width);
		view.setUint32(4, this.height);
		header[8] = 8;
		header[9] = COLOR_TYPE[this.channels]!;
		return [SIGNATURE, ...chunk("IHDR", header)];
	}

	/**
	 * Takes the next `count` rows (pixel words, `width` a row); `above` is the row just before them,
	 * absent for the image's first. Returns the pieces completed by them (often none).
	 */
	addRows(pixels: Int32Array, count: number, above: Int32Array | undefined): Uint8Array[] {
		const pieces: Uint8Array[] = [];
		for (let r = 0; r < count; r++) {
			const previous = r > 0 ? pixels.subarray((r - 1) * this.width) : above;
			filterRow(
				pixels.subarray(r * this.width),
				previous,
				this.width,
				this.channels,
				this.batch,
				this.batchView,
				this.filled,
			);
			this.filled += this.rowBytes;
			if (this.filled + this.rowBytes > this.batch.length) pieces.push(...this.flush());
		}
		this.rowsIn += count;
		return pieces;
	}

	/**
	 * addRows for a grey PNG's rows given a byte a pixel (`grey`, `width` a row), as pass 3 keeps
	 * them: the bytes addRows writes of the same pixels' words. `above` likewise.
	 */
	addGreyRows(grey: Uint8Array, count: number, above: Uint8Array | undefined): Uint8Array[] {
		const { width, batch } = this;
		const pieces: Uint8Array[] = [];
		const rows = new DataView(grey.buffer, grey.byteOffset, count * width);
		for (let r = 0; r < count; r++) {
			const row = r * width;
			const o = this.filled + 1;
			batch[this.filled] = 2;
			if (r === 0 && !above) batch.set(grey.subarray(0, width), o);
			else if (r > 0) upGrey(rows, row, rows, row - width, width, this.batchView, o);
			else upGrey(rows, row, new DataView(above!.buffer, above!.byteOffset, width), 0, width, this.batchView, o);
			this.filled += this.rowBytes;
			if (this.filled + this.rowBytes > batch.length) pieces.push(...this.flush());
		}
		this.rowsIn += count;
		return pieces;
	}

	/** The last IDAT and IEND. Every row must have been given. */
	finish(): Uint8Array[] {
		if (this.rowsIn !== this.height) throw new Error(`PNG encoder got ${this.rowsIn} of ${this.height} rows`);
		const last = this.flush();
		const tail = this.deflater.finish();
		if (tail.length > 0) last.push(...chunk("IDAT", tail));
		return [...last, ...chunk("IEND", new Uint8Array(0))];
	}

	private flush(): Uint8Array[] {
		if (this.filled === 0) return [];
		const compressed = this.deflater.push(this.batch.subarray(0, this.filled));
		this.filled = 0;
		return compressed.length > 0 ? chunk("IDAT", compressed) : [];
	}
}

/** Encodes a whole raster at its own size, as the file's consecutive byte pieces. */
export function encodePng(raster: Raster): Uint8Array[] {
	const pixels = pixelWords(raster.data);
	const scan = new ColourScan();
	scan.addPixels(pixels);
	const encoder = new PngEncoder(raster.width, raster.height, scan.channels);
	return [...encoder.start(), ...encoder.addRows(pixels, raster.height, undefined), ...encoder.finish()];
}

const COLOR_TYPE: Record<number, number> = { 1: 0, 3: 2, 4: 6 };

/**
 * The PNG colour type every pixel seen fits exactly: grey (most manga pages) or RGB when opaque,
 * RGBA otherwise (alpha kept). Fed pixels as they are decoded, and the colours drawn over them.
 */
export class ColourScan {
	/** The bits set in every pixel seen (the alpha byte stays 0xff only while all are opaque). */
	private opaque = -1;
	/** Any difference between R and G or G and B seen. */
	private colour = 0;

	addPixels(pixels: Int32Array): void {
		// Branch-free over a row's worth of pixels at a time, stopping once RGBA is certain.
		let { opaque, colour } = this;
		for (let start = 0; start < pixels.length && opaque >>> 24 === 255; start += 4096) {
			const end = Math.min(pixels.length, start + 4096);
			for (let i = start; i < end; i++) {
				const p = pixels[i]!;
				opaque &= p;
				colour |= (p ^ (p >>> 8)) & 0xffff;
			}
		}
		this.opaque = opaque;
		this.colour = colour;
	}

	/** Opaque pixels known without being seen (a JPEG's, from its coefficients): grey, or maybe not. */
	addOpaque(mayHaveColour: boolean): void {
		if (mayHaveColour) this.colour |= 1;
	}

	/** An opaque colour to be drawn over opaque pixels (lettering, outlines, panels). */
	addColour([r, g, b]: Rgb): void {
		this.colour |= (r ^ g) | (g ^ b);
	}

	get channels(): 1 | 3 | 4 {
		if (this.opaque >>> 24 !== 255) return 4;
		return this.colour === 0 ? 1 : 3;
	}
}

/**
 * Writes the filter byte and `row` filtered with Up (the byte above subtracted), packed to
 * `channels`. On our bench photo Paeth came out 3% smaller but cost 40% more encode time; on flat
 * art and grey pages they compress alike, and Up is one subtraction. One loop per colour type, so
 * that none branches on it per pixel.
 */
function filterRow(
	row: Int32Array,
	above: Int32Array | undefined,
	width: number,
	channels: number,
	out: Uint8Array,
	view: DataView,
	at: number,
): void {
	out[at] = 2;
	// Up filtering treats the row above the first as zeros: the row minus itself there gives the
	// same bytes as the row minus zeros with the word below.
	const prior = above ?? new Int32Array(width);
	const o = at + 1;
	if (channels === 1) {
		// Grey: the low byte of the words' difference is the red bytes' (a borrow only goes up).
		for (let x = 0; x < width; x++) out[o + x] = row[x]! - prior[x]!;
	} else if (channels === 3) {
		upRgb(row, prior, width, out, view, o);
	} else {
		for (let x = 0; x < width; x++) view.setInt32(o + 4 * x, upWord(row[x]!, prior[x]!), true);
	}
}

/**
 * RGB: four pixels' differences packed into three words; the pixels after the last four each
 * written as a whole word, three bytes apart, its fourth byte overwritten by the next pixel's;
 * the last pixel, whose fourth byte lies past the row, by bytes.
 */
function upRgb(row: Int32Array, prior: Int32Array, width: number, out: Uint8Array, view: DataView, o: number): void {
	const last = width - 1;
	let x = 0;
	for (; x + 4 <= last; x += 4) {
		const d0 = upWord(row[x]!, prior[x]!);
		const d1 = upWord(row[x + 1]!, prior[x + 1]!);
		const d2 = upWord(row[x + 2]!, prior[x + 2]!);
		const d3 = upWord(row[x + 3]!, prior[x + 3]!);
		const at = o + 3 * x;
		view.setInt32(at, (d0 & 0xffffff) | (d1 << 24), true);
		view.setInt32(at + 4, ((d1 >>> 8) & 0xffff) | (d2 << 16), true);
		view.setInt32(at + 8, ((d2 >>> 16) & 0xff) | (d3 << 8), true);
	}
	for (; x < last; x++) view.setInt32(o + 3 * x, upWord(row[x]!, prior[x]!), true);
	const d = upWord(row[last]!, prior[last]!);
	out[o + 3 * last] = d;
	out[o + 3 * last + 1] = d >>> 8;
	out[o + 3 * last + 2] = d >>> 16;
}

/** Grey bytes minus those above, four at a time (read and written as words wherever they lie). */
function upGrey(
	row: DataView,
	at: number,
	prior: DataView,
	priorAt: number,
	width: number,
	out: DataView,
	o: number,
): void {
	let x = 0;
	for (; x + 4 <= width; x += 4) {
		out.setInt32(o + x, upWord(row.getInt32(at + x, true), prior.getInt32(priorAt + x, true)), true);
	}
	for (; x < width; x++) out.setUint8(o + x, row.getUint8(at + x) - prior.getUint8(priorAt + x));
}

/**
 * The four bytes of `p` minus those of `q`, each mod 256, at once (SWAR: the top bit of each byte
 * set on one side and cleared on the other, so that no borrow crosses into the next byte).
 */
function upWord(p: number, q: number): number {
	return ((p | 0x80808080) - (q & 0x7f7f7f7f)) ^ ((p ^ ~q) & 0x80808080);
}

const SIGNATURE = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** One chunk as pieces: length and type, the payload itself (not copied again), its CRC. */
function chunk(type: string, payload: Uint8Array): Uint8Array[] {
	const head = new Uint8Array(8);
	new DataView(head.buffer).setUint32(0, payload.length);
	for (let i = 0; i < 4; i++) head[4 + i] = type.charCodeAt(i);
	const crc = new Uint8Array(4);
	new DataView(crc.buffer).setUint32(0, crc32([head.subarray(4), payload]));
	return payload.length > 0 ? [head, payload, crc] : [head, crc];
}
