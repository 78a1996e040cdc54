import { WebpFormatError } from "./errors";
import { BitReader } from "./lossless/bit-reader";
import { decodeImageStream } from "./lossless/image-stream";

/**
 * The ALPH chunk of a lossy WebP (RFC 9649 section 2.7.1.2): one header byte, then the alpha
 * plane raw or as a headerless VP8L stream (alpha in the green channel), possibly filtered.
 */
export interface FilteredAlpha {
	/** One value per pixel, row after row, still filtered. */
	values: Uint8Array;
	/** 0 none, 1 horizontal, 2 vertical, 3 gradient. */
	filter: number;
}

/**
 * Reads the plane of an ALPH chunk for a `width` x `height` frame. A compressed plane is decoded
 * in `scratch` (at least 4 bytes a pixel, 4-byte aligned, overwritten): the raster the lossy frame
 * will be written to afterwards, so that the ARGB decode costs no memory of its own.
 */
export function readAlpha(alph: Uint8Array, width: number, height: number, scratch: Uint8Array): FilteredAlpha {
	if (alph.length < 1) throw new WebpFormatError("ALPH chunk is empty");
	const header = alph[0]!;
	const compression = header & 3;
	const filter = (header >> 2) & 3;
	// Bits 4-5 say whether levels were reduced before coding; a decoder may dither, we don't.
	const preprocessing = (header >> 4) & 3;
	if (compression > 1 || preprocessing > 1 || header >> 6 !== 0) throw new WebpFormatError("ALPH header is invalid");
	const count = width * height;
	if (compression === 0) {
		if (alph.length - 1 < count) throw new WebpFormatError("ALPH data is truncated");
		return { values: alph.subarray(1, 1 + count), filter };
	}
	const argb = new Int32Array(scratch.buffer, scratch.byteOffset, count);
	decodeImageStream(new BitReader(alph, 1), width, height, argb);
	const values = new Uint8Array(count);
	for (let i = 0; i < count; i++) values[i] = argb[i]! >> 8;
	return { values, filter };
}

/**
 * Writes the unfiltered alpha into the A bytes of a `width` x `height` area of an RGBA raster
 * that starts at byte `offset`, rows `stride` bytes apart. Each value was stored as its
 * difference (mod 256) from a prediction by the left, top or gradient neighbour.
 */
export function applyAlpha(
	alpha: FilteredAlpha,
	width: number,
	height: number,
	rgba: Uint8Array,
	offset: number,
	stride: number,
): void {
	const { values, filter } = alpha;
	for (let y = 0; y < height; y++) {
		const row = offset + y * stride + 3;
		const above = row - stride;
		const src = y * width;
		for (let x = 0; x < width; x++) {
			const at = row + 4 * x;
			let prediction = 0;
			if (filter !== 0) {
				if (y === 0) prediction = x === 0 ? 0 : rgba[at - 4]!;
				else if (x === 0 || filter === 2) prediction = rgba[above + 4 * x]!;
				else if (filter === 1) prediction = rgba[at - 4]!;
				else prediction = clampByte(rgba[at - 4]! + rgba[above + 4 * x]! - rgba[above + 4 * x - 4]!);
			}
			rgba[at] = values[src + x]! + prediction;
		}
	}
}

function clampByte(value: number): number {
	return Math.min(255, Math.max(0, value));
}
