import type { PngContainer } from "./png-chunks";

/** Where converted rows go: one buffer seen as bytes and as 32-bit pixels (little-endian RGBA). */
export interface RgbaTarget {
	bytes: Uint8Array;
	words: Uint32Array;
}

export function rgbaTarget(pixels: number): RgbaTarget {
	const bytes = new Uint8Array(pixels * 4);
	return { bytes, words: new Uint32Array(bytes.buffer) };
}

/**
 * Turns one unfiltered PNG row of `width` pixels into straight RGBA8 at pixel `at` of the target.
 * An offset rather than a view of the row: a 1-pixel-wide image has millions of rows, and a view
 * per row would cost more than its pixels.
 */
export type RowConverter = (line: Uint8Array, out: RgbaTarget, at: number, width: number) => void;

/** Picks the converter for the image's colour type and depth; 16-bit samples are rounded to 8 bits. */
export function rowConverter(png: PngContainer): RowConverter {
	const { colorType, bitDepth } = png.header;
	const trns = png.transparency;
	if (colorType === 6) return bitDepth === 8 ? rgba8 : rgba16;
	if (colorType === 4) return bitDepth === 8 ? greyAlpha8 : greyAlpha16;
	if (colorType === 2) return bitDepth === 8 ? rgb8(trns) : rgb16(trns);
	if (colorType === 3) return indexed(bitDepth, paletteTable(png.palette!, trns));
	return grey(bitDepth, trns);
}

/** Whether the image's rows are opaque 8-bit grey as stored: a byte a pixel, its grey. */
export function plainGrey(png: PngContainer): boolean {
	const { colorType, bitDepth } = png.header;
	return colorType === 0 && bitDepth === 8 && !(png.transparency && png.transparency.length >= 2);
}

/** The 16-bit sample at byte `at`, rounded to 8 bits (v·255/65535 = v/257). */
function to8(line: Uint8Array, at: number): number {
	return Math.round(((line[at]! << 8) | line[at + 1]!) / 257);
}

function rgba8(line: Uint8Array, out: RgbaTarget, at: number, w: number): void {
	if (w > 16) out.bytes.set(line.subarray(0, w * 4), at * 4);
	else for (let i = 0, o = at * 4; i < w * 4; i++) out.bytes[o + i] = line[i]!;
}

function rgba16(line: Uint8Array, out: RgbaTarget, at: number, w: number): void {
	const rgba = out.bytes;
	for (let i = 0, o = at * 4; i < w * 4; i++) rgba[o + i] = to8(line, i * 2);
}

function greyAlpha8(line: Uint8Array, out: RgbaTarget, at: number, w: number): void {
	const words = out.words;
	for (let i = 0; i < w; i++) words[at + i] = (line[i * 2]! * 0x010101) | (line[i * 2 + 1]! << 24);
}

function greyAlpha16(line: Uint8Array, out: RgbaTarget, at: number, w: number): void {
	const words = out.words;
	for (let i = 0; i < w; i++) words[at + i] = (to8(line, i * 4) * 0x010101) | (to8(line, i * 4 + 2) << 24);
}

function rgb8(trns: Uint8Array | undefined): RowConverter {
	// tRNS for RGB holds one 16-bit sample per channel: pixels of exactly that colour are transparent.
	const key = trns && trns.length >= 6 ? [trns[1]!, trns[3]!, trns[5]!] : undefined;
	return (line, out, at, w) => {
		const words = out.words;
		for (let i = 0; i < w; i++) {
			const r = line[i * 3]!;
			const g = line[i * 3 + 1]!;
			const b = line[i * 3 + 2]!;
			const transparent = key !== undefined && r === key[0] && g === key[1] && b === key[2];
			words[at + i] = (transparent ? 0 : 0xff000000) | (b << 16) | (g << 8) | r;
		}
	};
}

function rgb16(trns: Uint8Array | undefined): RowConverter {
	const key = trns && trns.length >= 6 ? new DataView(trns.buffer, trns.byteOffset, 6) : undefined;
	return (line, out, at, w) => {
		const rgba = out.bytes;
		for (let i = 0; i < w; i++) {
			const s = i * 6;
			const o = (at + i) * 4;
			rgba[o] = to8(line, s);
			rgba[o + 1] = to8(line, s + 2);
			rgba[o + 2] = to8(line, s + 4);
			const transparent =
				key !== undefined &&
				((line[s]! << 8) | line[s + 1]!) === key.getUint16(0) &&
				((line[s + 2]! << 8) | line[s + 3]!) === key.getUint16(2) &&
				((line[s + 4]! << 8) | line[s + 5]!) === key.getUint16(4);
			rgba[o + 3] = transparent ? 0 : 255;
		}
	};
}

/** RGBA (as a little-endian word) for each of the 256 possible indices; indices past the palette read as opaque black. */
function paletteTable(palette: Uint8Array, trns: Uint8Array | undefined): Uint32Array {
	const table = new Uint32Array(256);
	for (let i = 0; i < 256; i++) {
		const alpha = trns?.[i] ?? 255;
		table[i] =
			((alpha << 24) | ((palette[i * 3 + 2] ?? 0) << 16) | ((palette[i * 3 + 1] ?? 0) << 8) | (palette[i * 3] ?? 0)) >>>
			0;
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

function indexed(depth: number, table: Uint32Array): RowConverter {
	return (line, out, at, w) => {
		const words = out.words;
		for (let i = 0; i < w; i++) words[at + i] = table[sample(line, i, depth)]!;
	};
}

function grey(depth: number, trns: Uint8Array | undefined): RowConverter {
	const max = (1 << depth) - 1;
	const key = trns && trns.length >= 2 ? (trns[0]! << 8) | trns[1]! : -1;
	if (depth === 8 && key < 0) return grey8;
	return (line, out, at, w) => {
		const words = out.words;
		for (let i = 0; i < w; i++) {
			const v = sample(line, i, depth);
			const g = depth === 8 ? v : Math.round((v * 255) / max);
			words[at + i] = (v === key ? 0 : 0xff000000) | (g * 0x010101);
		}
	};
}

/**
 * 8-bit grey without a transparent value, the common case of scanned and manga pages: one
 * 32-bit store per pixel (0xAABBGGRR little-endian).
 */
function grey8(line: Uint8Array, out: RgbaTarget, at: number, w: number): void {
	const words = out.words;
	for (let i = 0; i < w; i++) words[at + i] = (line[i]! * 0x010101) | 0xff000000;
}
