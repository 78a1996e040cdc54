import { WebpFormatError } from "../errors";
import type { BitReader } from "./bit-reader";
import { addPixels, undoPredictor } from "./predictor";

/**
 * The four VP8L transforms (RFC 9649 section 4): read in stream order, undone in reverse order,
 * each in place over the decoded pixels.
 */
export type Transform =
	| { kind: "predictor"; width: number; bits: number; data: Int32Array }
	| { kind: "cross-colour"; width: number; bits: number; data: Int32Array }
	| { kind: "subtract-green"; width: number }
	| { kind: "colour-indexing"; width: number; bundleBits: number; palette: Int32Array };

/** Decodes a sub-image of the stream (transform data, palette): passed in to avoid an import cycle. */
export type SubImageReader = (br: BitReader, width: number, height: number) => Int32Array;

/** Reads the transform list; `width` is the image width; returns them with the width left to code. */
export function readTransforms(
	br: BitReader,
	width: number,
	height: number,
	readSubImage: SubImageReader,
): { transforms: Transform[]; codedWidth: number } {
	const transforms: Transform[] = [];
	const seen = new Set<number>();
	let codedWidth = width;
	while (br.read(1) === 1) {
		const type = br.read(2);
		if (seen.has(type)) throw new WebpFormatError("VP8L transform repeated");
		seen.add(type);
		if (type === 0 || type === 1) {
			const bits = br.read(3) + 2;
			const data = readSubImage(br, blocks(codedWidth, bits), blocks(height, bits));
			transforms.push({ kind: type === 0 ? "predictor" : "cross-colour", width: codedWidth, bits, data });
		} else if (type === 2) {
			transforms.push({ kind: "subtract-green", width: codedWidth });
		} else {
			const colours = br.read(8) + 1;
			// Up to 16 colours, 2, 4 or 8 indices share one coded pixel.
			const bundleBits = colours > 16 ? 0 : colours > 4 ? 1 : colours > 2 ? 2 : 3;
			const palette = readPalette(readSubImage(br, colours, 1), bundleBits);
			transforms.push({ kind: "colour-indexing", width: codedWidth, bundleBits, palette });
			codedWidth = blocks(codedWidth, bundleBits);
		}
	}
	return { transforms, codedWidth };
}

/**
 * Undoes the transforms, last read first, over `pixels` (coded image first, full image after).
 * With `toRgba`, the `width` x `height` result is then stored as R, G, B, A bytes instead of ARGB
 * numbers; when subtract-green comes last (the usual case) both happen in one pass over memory.
 */
export function undoTransforms(
	pixels: Int32Array,
	width: number,
	height: number,
	transforms: Transform[],
	toRgba: boolean,
): void {
	const fuseLast = toRgba && transforms[0]?.kind === "subtract-green";
	for (let t = transforms.length - 1; t >= (fuseLast ? 1 : 0); t--) {
		const transform = transforms[t]!;
		switch (transform.kind) {
			case "predictor":
				undoPredictor(pixels, transform.width, height, transform.bits, transform.data);
				break;
			case "cross-colour":
				undoCrossColour(pixels, transform.width, height, transform.bits, transform.data);
				break;
			case "subtract-green":
				undoSubtractGreen(pixels, transform.width * height);
				break;
			case "colour-indexing":
				undoColourIndexing(pixels, transform.width, height, transform.bundleBits, transform.palette);
				break;
		}
	}
	if (fuseLast) undoSubtractGreenToRgba(pixels, width * height);
	else if (toRgba) argbToRgba(pixels, width * height);
}

function blocks(size: number, bits: number): number {
	return (size + (1 << bits) - 1) >> bits;
}

/** Palette entries are stored as differences from the previous one; indices past the end are transparent black. */
function readPalette(deltas: Int32Array, bundleBits: number): Int32Array {
	const palette = new Int32Array(Math.max(deltas.length, 1 << (8 >> bundleBits)));
	let previous = 0;
	for (let i = 0; i < deltas.length; i++) {
		previous = addPixels(previous, deltas[i]!);
		palette[i] = previous;
	}
	return palette;
}

/** Red and blue were coded with a multiple of green (and blue of red) taken away, per block. */
function undoCrossColour(pixels: Int32Array, width: number, height: number, bits: number, data: Int32Array): void {
	const blocksPerRow = blocks(width, bits);
	for (let y = 0; y < height; y++) {
		const row = y * width;
		const blockRow = (y >> bits) * blocksPerRow;
		for (let x = 0; x < width; ) {
			const element = data[blockRow + (x >> bits)]!;
			// Signed 3.5 fixed-point multipliers: blue byte green-to-red, green byte green-to-blue,
			// red byte red-to-blue.
			const greenToRed = (element << 24) >> 24;
			const greenToBlue = (element << 16) >> 24;
			const redToBlue = (element << 8) >> 24;
			const end = Math.min(width, ((x >> bits) + 1) << bits);
			for (let i = row + x, stop = row + end; i < stop; i++) {
				const argb = pixels[i]!;
				const green = (argb << 16) >> 24;
				const red = (((argb >> 16) & 0xff) + ((greenToRed * green) >> 5)) & 0xff;
				const blue = ((argb & 0xff) + ((greenToBlue * green) >> 5) + ((redToBlue * ((red << 24) >> 24)) >> 5)) & 0xff;
				pixels[i] = (argb & 0xff00ff00) | (red << 16) | blue;
			}
			x = end;
		}
	}
}

/** Green was subtracted from red and blue. */
function undoSubtractGreen(pixels: Int32Array, count: number): void {
	for (let i = 0; i < count; i++) {
		const argb = pixels[i]!;
		const green = (argb >> 8) & 0xff;
		pixels[i] = (argb & 0xff00ff00) | (((argb & 0x00ff00ff) + ((green << 16) | green)) & 0x00ff00ff);
	}
}

// Workers run on little-endian machines: an ARGB number is stored as the bytes B, G, R, A.
if (new Uint8Array(new Int32Array([1]).buffer)[0] !== 1) throw new Error("big-endian hosts are not supported");

/** ARGB numbers to R, G, B, A bytes in memory: swap the red and blue channels. */
function argbToRgba(pixels: Int32Array, count: number): void {
	for (let i = 0; i < count; i++) {
		const argb = pixels[i]!;
		pixels[i] = (argb & 0xff00ff00) | ((argb >> 16) & 0xff) | ((argb & 0xff) << 16);
	}
}

/** `undoSubtractGreen` then `argbToRgba`, in one pass. */
function undoSubtractGreenToRgba(pixels: Int32Array, count: number): void {
	for (let i = 0; i < count; i++) {
		const argb = pixels[i]!;
		const green = (argb >> 8) & 0xff;
		const red = ((argb >> 16) + green) & 0xff;
		const blue = (argb + green) & 0xff;
		pixels[i] = (argb & 0xff00ff00) | (blue << 16) | red;
	}
}

/**
 * Pixels are palette indices in the green channel, 2^bundleBits of them packed per coded pixel
 * (lowest bits first). The coded rows are narrower than the image's, so the expansion runs from
 * the last pixel backwards: it never overwrites a coded pixel it still has to read.
 */
function undoColourIndexing(
	pixels: Int32Array,
	width: number,
	height: number,
	bundleBits: number,
	palette: Int32Array,
): void {
	const codedWidth = blocks(width, bundleBits);
	const bitsPerIndex = 8 >> bundleBits;
	const indexMask = (1 << bitsPerIndex) - 1;
	const perPixelMask = (1 << bundleBits) - 1;
	for (let y = height - 1; y >= 0; y--) {
		const coded = y * codedWidth;
		const row = y * width;
		for (let x = width - 1; x >= 0; x--) {
			const green = (pixels[coded + (x >> bundleBits)]! >> 8) & 0xff;
			pixels[row + x] = palette[(green >> ((x & perPixelMask) * bitsPerIndex)) & indexMask]!;
		}
	}
}
