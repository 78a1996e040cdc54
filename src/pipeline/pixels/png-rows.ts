import type { PngChunks } from "./png-chunks";

/** Turns one unfiltered PNG row of `width` pixels into straight RGBA8. */
export type RowConverter = (line: Uint8Array, rgba: Uint8Array, width: number) => void;

/** Picks the converter for the image's colour type and depth; 16-bit samples are rounded to 8 bits. */
export function rowConverter(png: PngChunks): RowConverter {
	const { colorType, bitDepth } = png.header;
	const trns = png.transparency;
	if (colorType === 6) return bitDepth === 8 ? (line, rgba, w) => rgba.set(line.subarray(0, w * 4)) : rgba16;
	if (colorType === 4) return bitDepth === 8 ? greyAlpha8 : greyAlpha16;
	if (colorType === 2) return bitDepth === 8 ? rgb8(trns) : rgb16(trns);
	if (colorType === 3) return indexed(bitDepth, paletteTable(png.palette!, trns));
	return grey(bitDepth, trns);
}

/** The 16-bit sample at byte `at`, rounded to 8 bits (v·255/65535 = v/257). */
function to8(line: Uint8Array, at: number): number {
	return Math.round(((line[at]! << 8) | line[at + 1]!) / 257);
}

function rgba16(line: Uint8Array, rgba: Uint8Array, w: number): void {
	for (let i = 0; i < w * 4; i++) rgba[i] = to8(line, i * 2);
}

function greyAlpha8(line: Uint8Array, rgba: Uint8Array, w: number): void {
	for (let i = 0; i < w; i++) {
		const g = line[i * 2]!;
		rgba[i * 4] = g;
		rgba[i * 4 + 1] = g;
		rgba[i * 4 + 2] = g;
		rgba[i * 4 + 3] = line[i * 2 + 1]!;
	}
}

function greyAlpha16(line: Uint8Array, rgba: Uint8Array, w: number): void {
	for (let i = 0; i < w; i++) {
		const g = to8(line, i * 4);
		rgba[i * 4] = g;
		rgba[i * 4 + 1] = g;
		rgba[i * 4 + 2] = g;
		rgba[i * 4 + 3] = to8(line, i * 4 + 2);
	}
}

function rgb8(trns: Uint8Array | undefined): RowConverter {
	// tRNS for RGB holds one 16-bit sample per channel: pixels of exactly that colour are transparent.
	const key = trns && trns.length >= 6 ? [trns[1]!, trns[3]!, trns[5]!] : undefined;
	return (line, rgba, w) => {
		for (let i = 0; i < w; i++) {
			const r = line[i * 3]!;
			const g = line[i * 3 + 1]!;
			const b = line[i * 3 + 2]!;
			rgba[i * 4] = r;
			rgba[i * 4 + 1] = g;
			rgba[i * 4 + 2] = b;
			rgba[i * 4 + 3] = key && r === key[0] && g === key[1] && b === key[2] ? 0 : 255;
		}
	};
}

function rgb16(trns: Uint8Array | undefined): RowConverter {
	const key = trns && trns.length >= 6 ? new DataView(trns.buffer, trns.byteOffset, 6) : undefined;
	return (line, rgba, w) => {
		for (let i = 0; i < w; i++) {
			const at = i * 6;
			rgba[i * 4] = to8(line, at);
			rgba[i * 4 + 1] = to8(line, at + 2);
			rgba[i * 4 + 2] = to8(line, at + 4);
			const transparent =
				key !== undefined &&
				((line[at]! << 8) | line[at + 1]!) === key.getUint16(0) &&
				((line[at + 2]! << 8) | line[at + 3]!) === key.getUint16(2) &&
				((line[at + 4]! << 8) | line[at + 5]!) === key.getUint16(4);
			rgba[i * 4 + 3] = transparent ? 0 : 255;
		}
	};
}

/** RGBA for each of the 256 possible indices; indices past the palette read as opaque black. */
function paletteTable(palette: Uint8Array, trns: Uint8Array | undefined): Uint8Array {
	const table = new Uint8Array(256 * 4);
	for (let i = 0; i < 256; i++) {
		table[i * 4] = palette[i * 3] ?? 0;
		table[i * 4 + 1] = palette[i * 3 + 1] ?? 0;
		table[i * 4 + 2] = palette[i * 3 + 2] ?? 0;
		table[i * 4 + 3] = trns?.[i] ?? 255;
	}
	return table;
}

/** Sample `i` of a row packed at `depth` bits (1, 2, 4, 8 or 16; 16 gives the full value). */
function sample(line: Uint8Array, i: number, depth: number): number {
	if (depth === 8) return line[i]!;
	if (depth === 16) return (line[i * 2]! << 8) | line[i * 2 + 1]!;
	const perByte = 8 / depth;
	const shift = 8 - depth * ((i % perByte) + 1);
	return (line[Math.floor(i / perByte)]! >> shift) & ((1 << depth) - 1);
}

function indexed(depth: number, table: Uint8Array): RowConverter {
	return (line, rgba, w) => {
		for (let i = 0; i < w; i++) {
			const at = sample(line, i, depth) * 4;
			rgba[i * 4] = table[at]!;
			rgba[i * 4 + 1] = table[at + 1]!;
			rgba[i * 4 + 2] = table[at + 2]!;
			rgba[i * 4 + 3] = table[at + 3]!;
		}
	};
}

function grey(depth: number, trns: Uint8Array | undefined): RowConverter {
	const max = (1 << depth) - 1;
	const key = trns && trns.length >= 2 ? (trns[0]! << 8) | trns[1]! : -1;
	if (depth === 8 && key < 0) return grey8;
	return (line, rgba, w) => {
		for (let i = 0; i < w; i++) {
			const v = sample(line, i, depth);
			const g = depth === 8 ? v : Math.round((v * 255) / max);
			rgba[i * 4] = g;
			rgba[i * 4 + 1] = g;
			rgba[i * 4 + 2] = g;
			rgba[i * 4 + 3] = v === key ? 0 : 255;
		}
	};
}

/**
 * 8-bit grey without a transparent value, the common case of scanned and manga pages: one
 * 32-bit store per pixel (0xAABBGGRR little-endian) where the general converter makes four.
 * `rgba` is always a whole row of the raster or the row buffer, so it starts on a 4-byte boundary.
 */
function grey8(line: Uint8Array, rgba: Uint8Array, w: number): void {
	const pixels = new Uint32Array(rgba.buffer, rgba.byteOffset, w);
	for (let i = 0; i < w; i++) pixels[i] = (line[i]! * 0x010101) | 0xff000000;
}
