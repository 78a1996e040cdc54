import type { Raster } from "../types";
import { crc32 } from "./crc32";
import { RleDeflater } from "./deflate";

/** Rows are handed to the compressor in batches of about this many bytes. */
const BATCH_BYTES = 1 << 18;

/**
 * Encodes a raster as PNG at its own size, returned as the file's consecutive byte pieces: at
 * 25 MP the file is over 10 MB, and joining the pieces would hold it twice (the response streams
 * them: src/http/success-body.ts). Rows are filtered a batch at a time and each batch is
 * compressed as it comes (RleDeflater), so besides the raster only one batch of filtered rows and
 * the compressed output are alive. The smallest colour type that holds every pixel exactly is
 * used: grey (most manga pages) or RGB when opaque, RGBA otherwise (alpha kept). Fewer bytes
 * per pixel mean proportionally less to filter and compress.
 */
export function encodePng(raster: Raster): Uint8Array[] {
	const { width, height } = raster;
	const pixels = pixelWords(raster.data);
	const channels = channelsNeeded(pixels);
	const rowBytes = width * channels;
	const deflater = new RleDeflater();
	const compressed: Uint8Array[] = [];

	const rowsPerBatch = Math.max(1, Math.floor(BATCH_BYTES / (rowBytes + 1)));
	// One batch buffer, reused: the deflater is done with a batch when push returns.
	const buffer = new Uint8Array(rowsPerBatch * (rowBytes + 1));
	for (let y0 = 0; y0 < height; y0 += rowsPerBatch) {
		const rows = Math.min(rowsPerBatch, height - y0);
		const batch = buffer.subarray(0, rows * (rowBytes + 1));
		for (let r = 0; r < rows; r++) filterRow(pixels, width, y0 + r, channels, batch, r * (rowBytes + 1));
		compressed.push(deflater.push(batch));
	}
	compressed.push(deflater.finish());
	return assemble(
		width,
		height,
		COLOR_TYPE[channels]!,
		compressed.filter((c) => c.length > 0),
	);
}

const COLOR_TYPE: Record<number, number> = { 1: 0, 3: 2, 4: 6 };

/**
 * The raster's pixels as 32-bit words, 0xAABBGGRR (little-endian, as every machine Workers run
 * on). Decoders allocate their own buffers, so the view is free; a raster that is a view at an
 * offset not a multiple of 4 is copied first.
 */
function pixelWords(data: Uint8Array): Int32Array {
	const aligned = data.byteOffset & 3 ? data.slice() : data;
	return new Int32Array(aligned.buffer, aligned.byteOffset, aligned.length >> 2);
}

/** 1 when every pixel is opaque grey, 3 when opaque, else 4. */
function channelsNeeded(pixels: Int32Array): 1 | 3 | 4 {
	// Branch-free over a row's worth of pixels at a time: `opaque` keeps the bits set in every
	// pixel, `colour` any difference between R and G or G and B.
	let opaque = -1;
	let colour = 0;
	for (let start = 0; start < pixels.length; start += 4096) {
		const end = Math.min(pixels.length, start + 4096);
		for (let i = start; i < end; i++) {
			const p = pixels[i]!;
			opaque &= p;
			colour |= (p ^ (p >>> 8)) & 0xffff;
		}
		if (opaque >>> 24 !== 255) return 4;
	}
	return colour === 0 ? 1 : 3;
}

/**
 * Writes the filter byte and row `y` filtered with Up (the byte above subtracted), packed to
 * `channels` straight from the raster. On our bench photo Paeth came out 3% smaller but cost 40%
 * more encode time; on flat art and grey pages they compress alike, and Up is one subtraction.
 * Pixels are read as 32-bit words, all four bytes subtracted at once (SWAR: the top bit of each
 * byte set on one side and cleared on the other, so that no borrow crosses into the next byte).
 */
function filterRow(pixels: Int32Array, width: number, y: number, channels: number, out: Uint8Array, at: number): void {
	out[at] = 2;
	const row = y * width;
	// Up filtering treats the row above the first as zeros: the row minus itself there gives the
	// same bytes as the row minus zeros with the offset below.
	const above = y > 0 ? row - width : -1;
	let o = at + 1;
	for (let x = 0; x < width; x++) {
		const p = pixels[row + x]!;
		const q = above < 0 ? 0 : pixels[above + x]!;
		const d = ((p | 0x80808080) - (q & 0x7f7f7f7f)) ^ ((p ^ ~q) & 0x80808080);
		out[o] = d;
		if (channels > 1) {
			out[o + 1] = d >>> 8;
			out[o + 2] = d >>> 16;
			if (channels === 4) out[o + 3] = d >>> 24;
		}
		o += channels;
	}
}

const SIGNATURE = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Signature, IHDR, one IDAT per compressed piece, IEND: the compressed data is not copied again. */
function assemble(width: number, height: number, colorType: number, idat: Uint8Array[]): Uint8Array[] {
	const header = new Uint8Array(13);
	const view = new DataView(header.buffer);
	view.setUint32(0, width);
	view.setUint32(4, height);
	header[8] = 8;
	header[9] = colorType;
	const file = [SIGNATURE, ...chunk("IHDR", header)];
	for (const data of idat) file.push(...chunk("IDAT", data));
	file.push(...chunk("IEND", new Uint8Array(0)));
	return file;
}

/** One chunk as pieces: length and type, the payload itself, its CRC. */
function chunk(type: string, payload: Uint8Array): Uint8Array[] {
	const head = new Uint8Array(8);
	new DataView(head.buffer).setUint32(0, payload.length);
	for (let i = 0; i < 4; i++) head[4 + i] = type.charCodeAt(i);
	const crc = new Uint8Array(4);
	new DataView(crc.buffer).setUint32(0, crc32([head.subarray(4), payload]));
	return payload.length > 0 ? [head, payload, crc] : [head, crc];
}
