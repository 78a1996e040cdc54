import { inflatedSize } from "../../src/pipeline/pixels/png-decode";
/** A real, minimal PNG (solid colour, 8-bit RGBA) for tests that need a valid image file. */
export async function solidPng(
	width: number,
	height: number,
	rgba: [number, number, number, number] = [255, 255, 255, 255],
): Promise<Uint8Array> {
	const raw = new Uint8Array(height * (1 + width * 4));
	for (let y = 0; y < height; y++) {
		const row = y * (1 + width * 4);
		for (let x = 0; x < width; x++) raw.set(rgba, row + 1 + x * 4);
	}
	const compressed = new Uint8Array(
		await new Response(new Blob([raw]).stream().pipeThrough(new CompressionStream("deflate"))).arrayBuffer(),
	);
	return rgba8Png(width, height, compressed);
}

/** Signature, IHDR of 8-bit samples (RGBA unless `colourType` says otherwise), one IDAT of this zlib stream, IEND. */
function rgba8Png(width: number, height: number, zlib: Uint8Array, colourType = 6, interlace = 0): Uint8Array {
	const ihdr = new Uint8Array(13);
	const view = new DataView(ihdr.buffer);
	view.setUint32(0, width);
	view.setUint32(4, height);
	ihdr.set([8, colourType, 0, 0, interlace], 8);
	return concat([
		new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		chunk("IHDR", ihdr),
		chunk("IDAT", zlib),
		chunk("IEND", new Uint8Array()),
	]);
}

/**
 * A valid PNG built synchronously: 8-bit RGBA rows (filter 0) from `pixel(x, y)`, stored in
 * uncompressed deflate blocks. For tests that need a file without awaiting a compressor.
 */
export function storedPng(
	width: number,
	height: number,
	pixel: (x: number, y: number) => [number, number, number, number] = () => [255, 255, 255, 255],
): Uint8Array {
	const raw = new Uint8Array(height * (1 + width * 4));
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) raw.set(pixel(x, y), y * (1 + width * 4) + 1 + x * 4);
	}
	return rgba8Png(width, height, zlibStored(raw));
}

/**
 * A valid interlaced (Adam7) PNG of 8-bit grey, all black: every pass's rows (filter 0, zeros) in
 * stored deflate blocks.
 */
export function interlacedGreyPng(width: number, height: number): Uint8Array {
	const header = { width, height, bitDepth: 8, colorType: 0, interlaced: true, bitsPerPixel: 8 };
	return rgba8Png(width, height, zlibStored(new Uint8Array(inflatedSize(header))), 0, 1);
}

/** A zlib stream of stored (uncompressed) blocks, with its Adler-32. */
export function zlibStored(data: Uint8Array): Uint8Array {
	const parts: Uint8Array[] = [Uint8Array.of(0x78, 0x01)];
	for (let at = 0; at < data.length || at === 0; at += 65535) {
		const block = data.subarray(at, at + 65535);
		const last = at + 65535 >= data.length ? 1 : 0;
		parts.push(
			Uint8Array.of(last, block.length & 255, block.length >> 8, ~block.length & 255, (~block.length >> 8) & 255),
			block,
		);
		if (data.length === 0) break;
	}
	let a = 1;
	let b = 0;
	for (const byte of data) {
		a = (a + byte) % 65521;
		b = (b + a) % 65521;
	}
	parts.push(Uint8Array.of(b >> 8, b & 255, a >> 8, a & 255));
	return concat(parts);
}

/** One PNG chunk: length, type, data, CRC. */
export function chunk(type: string, data: Uint8Array): Uint8Array {
	const out = new Uint8Array(12 + data.length);
	const view = new DataView(out.buffer);
	view.setUint32(0, data.length);
	for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
	out.set(data, 8);
	view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
	return out;
}

/** CRC-32 a bit at a time, as PNG defines it: the reference our encoder's chunks are checked against. */
export function crc32(bytes: Uint8Array): number {
	let crc = 0xffffffff;
	for (const byte of bytes) {
		crc ^= byte;
		for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
	}
	return (crc ^ 0xffffffff) >>> 0;
}

/** The pieces of a file (as encodePng returns them) joined into one. */
export function concat(parts: Uint8Array[]): Uint8Array {
	const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
	let at = 0;
	for (const p of parts) {
		out.set(p, at);
		at += p.length;
	}
	return out;
}

export function toBase64(bytes: Uint8Array): string {
	let binary = "";
	for (let i = 0; i < bytes.length; i += 8192) binary += String.fromCharCode(...bytes.subarray(i, i + 8192));
	return btoa(binary);
}
