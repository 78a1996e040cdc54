import type { Raster } from "../types";
import { crc32 } from "./crc32";
import { paeth } from "./png-filters";

/** Rows are handed to the compressor in batches of about this many bytes. */
const BATCH_BYTES = 1 << 18;

/**
 * Encodes a raster as PNG at its own size. Rows are filtered one at a time and streamed through
 * the runtime's CompressionStream, so besides the raster only one batch of filtered rows and the
 * compressed output are alive. A fully opaque raster is written as RGB (same pixels, a quarter
 * less to compress); otherwise RGBA, alpha kept.
 */
export async function encodePng(raster: Raster): Promise<Uint8Array> {
	const { width, height, data } = raster;
	const channels = isOpaque(data) ? 3 : 4;
	const rowBytes = width * channels;
	const stream = new CompressionStream("deflate");
	const writer = stream.writable.getWriter();
	const compressed = collect(stream.readable);

	const rowsPerBatch = Math.max(1, Math.floor(BATCH_BYTES / (rowBytes + 1)));
	let previous = new Uint8Array(rowBytes);
	let current = new Uint8Array(rowBytes);
	for (let y0 = 0; y0 < height; y0 += rowsPerBatch) {
		const rows = Math.min(rowsPerBatch, height - y0);
		const batch = new Uint8Array(rows * (rowBytes + 1));
		for (let r = 0; r < rows; r++) {
			packRow(data, (y0 + r) * width * 4, width, channels, current);
			filterRow(current, previous, channels, batch.subarray(r * (rowBytes + 1), (r + 1) * (rowBytes + 1)));
			[previous, current] = [current, previous];
		}
		await writer.write(batch);
	}
	await writer.close();
	return assemble(width, height, channels === 4 ? 6 : 2, await compressed);
}

function isOpaque(data: Uint8Array): boolean {
	for (let i = 3; i < data.length; i += 4) if (data[i] !== 255) return false;
	return true;
}

function packRow(data: Uint8Array, from: number, width: number, channels: number, out: Uint8Array): void {
	if (channels === 4) {
		out.set(data.subarray(from, from + width * 4));
		return;
	}
	for (let x = 0, i = from, o = 0; x < width; x++, i += 4, o += 3) {
		out[o] = data[i]!;
		out[o + 1] = data[i + 1]!;
		out[o + 2] = data[i + 2]!;
	}
}

/**
 * Writes the filter byte and the filtered row into `out`. Paeth for every row but the first
 * (where Sub is the same thing): it compresses photos best and flat art as well as any other,
 * and choosing per row by trial cost more time than it saved bytes in our benchmark.
 */
function filterRow(line: Uint8Array, previous: Uint8Array, bpp: number, out: Uint8Array): void {
	const n = line.length;
	out[0] = 4;
	for (let i = 0; i < bpp; i++) out[i + 1] = (line[i]! - previous[i]!) & 255;
	for (let i = bpp; i < n; i++) out[i + 1] = (line[i]! - paeth(line[i - bpp]!, previous[i]!, previous[i - bpp]!)) & 255;
}

async function collect(readable: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
	const chunks: Uint8Array[] = [];
	for await (const chunk of readable) chunks.push(chunk);
	return chunks;
}

const SIGNATURE = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Signature, IHDR, one IDAT per compressed chunk, IEND: all copied once into the result. */
function assemble(width: number, height: number, colorType: number, idat: Uint8Array[]): Uint8Array {
	const header = new Uint8Array(13);
	const view = new DataView(header.buffer);
	view.setUint32(0, width);
	view.setUint32(4, height);
	header[8] = 8;
	header[9] = colorType;
	const chunks: [string, Uint8Array][] = [["IHDR", header], ...idat.map((d): [string, Uint8Array] => ["IDAT", d])];
	chunks.push(["IEND", new Uint8Array(0)]);
	const size = SIGNATURE.length + chunks.reduce((sum, [, d]) => sum + 12 + d.length, 0);
	const out = new Uint8Array(size);
	const outView = new DataView(out.buffer);
	out.set(SIGNATURE);
	let at = SIGNATURE.length;
	for (const [type, payload] of chunks) {
		const typeBytes = new Uint8Array([...type].map((c) => c.charCodeAt(0)));
		outView.setUint32(at, payload.length);
		out.set(typeBytes, at + 4);
		out.set(payload, at + 8);
		outView.setUint32(at + 8 + payload.length, crc32([typeBytes, payload]));
		at += 12 + payload.length;
	}
	return out;
}
