import type { Raster } from "../../types";
import { ByteReader } from "./blocks";
import { GifFormatError } from "./errors";
import { decodeLzw } from "./lzw";

const EXTENSION = 0x21;
const GRAPHIC_CONTROL = 0xf9;
const IMAGE = 0x2c;
const TRAILER = 0x3b;

/**
 * Decodes the first frame of a GIF as browsers show it before any animation: the logical screen,
 * transparent, with the first image drawn at its offset (clipped to the screen), its transparent
 * index as alpha 0. Palette indices are written straight into the RGBA raster row by row, so the
 * memory is the input, the raster and a few small tables.
 */
export function decodeGif(bytes: Uint8Array): Raster {
	const reader = new ByteReader(bytes);
	const signature = String.fromCharCode(...reader.take(6));
	if (signature !== "GIF87a" && signature !== "GIF89a") throw new GifFormatError("not a GIF");
	const width = reader.uint16();
	const height = reader.uint16();
	const flags = reader.byte();
	reader.take(2); // background index (browsers draw transparency instead) and aspect ratio
	if (width === 0 || height === 0) throw new GifFormatError("empty logical screen");
	const global = flags & 0x80 ? reader.take(3 << ((flags & 7) + 1)) : undefined;
	let transparent = -1;
	for (;;) {
		const block = reader.byte();
		if (block === EXTENSION) {
			const label = reader.byte();
			if (label === GRAPHIC_CONTROL) {
				// Block of 4: flags (bit 0: has a transparent index), delay, transparent index.
				const control = reader.take(reader.byte());
				transparent = control.length >= 4 && control[0]! & 1 ? control[3]! : -1;
			}
			reader.skipSubBlocks();
		} else if (block === IMAGE) {
			return decodeFirstImage(reader, width, height, global, transparent);
		} else if (block === TRAILER) {
			throw new GifFormatError("no image");
		} else {
			throw new GifFormatError(`unknown block ${block.toString(16)}`);
		}
	}
}

function decodeFirstImage(
	reader: ByteReader,
	width: number,
	height: number,
	global: Uint8Array | undefined,
	transparent: number,
): Raster {
	const left = reader.uint16();
	const top = reader.uint16();
	const frameWidth = reader.uint16();
	const frameHeight = reader.uint16();
	const flags = reader.byte();
	const local = flags & 0x80 ? reader.take(3 << ((flags & 7) + 1)) : undefined;
	const palette = local ?? global;
	if (!palette) throw new GifFormatError("no colour table");
	const colours = rgbaColours(palette, transparent);
	const minCodeSize = reader.byte();
	const data = new Uint8Array(width * height * 4);
	const pixels = new Int32Array(data.buffer);
	// Rows and columns of the frame that fall on the screen.
	const visible = Math.max(0, Math.min(frameWidth, width - left));
	const rowOrder = frameRowOrder(frameHeight, (flags & 0x40) !== 0);
	if (frameWidth === 0 || frameHeight === 0) return { width, height, data };
	decodeLzw(reader, minCodeSize, frameWidth, frameHeight, (line, n) => {
		const y = top + rowOrder[n]!;
		if (y >= height) return;
		const at = y * width + left;
		for (let x = 0; x < visible; x++) pixels[at + x] = colours[line[x]!]!;
	});
	return { width, height, data };
}

/**
 * 0xAABBGGRR (little-endian RGBA) for each of the 256 indices: the palette's colours, opaque
 * black past its end, and transparent black for the transparent index.
 */
function rgbaColours(palette: Uint8Array, transparent: number): Int32Array {
	const colours = new Int32Array(256).fill(0xff000000 | 0);
	for (let i = 0; i < palette.length / 3; i++) {
		colours[i] = 0xff000000 | (palette[i * 3 + 2]! << 16) | (palette[i * 3 + 1]! << 8) | palette[i * 3]!;
	}
	if (transparent >= 0) colours[transparent] = 0;
	return colours;
}

/** The frame row of the n-th row in the data: in order, or the four interlace passes (every 8th from 0, every 8th from 4, every 4th from 2, every 2nd from 1). */
function frameRowOrder(rows: number, interlaced: boolean): Int32Array {
	const order = new Int32Array(rows);
	if (!interlaced) {
		for (let n = 0; n < rows; n++) order[n] = n;
		return order;
	}
	let n = 0;
	for (const [start, step] of [
		[0, 8],
		[4, 8],
		[2, 4],
		[1, 2],
	] as const) {
		for (let y = start; y < rows; y += step) order[n++] = y;
	}
	return order;
}
