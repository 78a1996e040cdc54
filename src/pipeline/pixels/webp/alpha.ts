import { WebpFormatError } from "./errors";
import { BitReader } from "./lossless/bit-reader";
import { decodeGreenOnly, greenOnlyConstant } from "./lossless/green-only";
import { decodeStreamPixels, readStreamHeader } from "./lossless/image-stream";

/**
 * A lossy frame with its ALPH chunk (RFC 9649 section 2.7.1.2): one header byte, then the alpha
 * plane raw or as a headerless VP8L stream (alpha in the green channel), possibly filtered.
 *
 * `writeColour` writes the frame's colour (A = 255) into the `width` x `height` area of `rgba`
 * that starts at byte `offset`, rows `stride` bytes apart; the alpha then goes into its A bytes.
 * The order keeps memory at one raster where it can: a raw plane is read from the chunk, and a
 * stream in libwebp's usual form is decoded after the colour, straight into the A bytes. Any
 * other stream needs 4 bytes a pixel: it is decoded in the raster before the colour arrives,
 * and its values wait in a plane of their own (1 byte a pixel).
 */
export function decodeWithAlpha(
	alph: Uint8Array,
	width: number,
	height: number,
	rgba: Uint8Array,
	offset: number,
	stride: number,
	writeColour: () => void,
): void {
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
		writeColour();
		unfilterAlpha(filter, alph, 1, 1, width, height, rgba, offset, stride);
		return;
	}

	const br = new BitReader(alph, 1);
	const stream = readStreamHeader(br, width, height);
	const constant = greenOnlyConstant(stream);
	const wholeRaster = offset === 0 && stride === width * 4 && rgba.length === count * 4;
	if (constant !== undefined && wholeRaster) {
		writeColour();
		decodeGreenOnly(br, stream, width, height, constant, rgba, 3, 4);
		unfilterAlpha(filter, rgba, 3, 4, width, height, rgba, 0, stride);
		return;
	}
	const argb = new Int32Array(rgba.buffer, rgba.byteOffset, count);
	decodeStreamPixels(br, stream, width, height, argb, false);
	const values = new Uint8Array(count);
	for (let i = 0; i < count; i++) values[i] = argb[i]! >> 8;
	// The scratch raster must read transparent outside the frame again.
	if (!wholeRaster) rgba.fill(0);
	writeColour();
	unfilterAlpha(filter, values, 0, 1, width, height, rgba, offset, stride);
}

/**
 * Writes the unfiltered alpha into the A bytes of the area. Filtered value i (row order) is
 * values[at + i * step] (which may be those A bytes themselves), stored as its difference
 * (mod 256) from a prediction: 1 the left neighbour, 2 the top one, 3 the gradient.
 */
function unfilterAlpha(
	filter: number,
	values: Uint8Array,
	at: number,
	step: number,
	width: number,
	height: number,
	rgba: Uint8Array,
	offset: number,
	stride: number,
): void {
	for (let y = 0; y < height; y++) {
		const row = offset + y * stride + 3;
		const above = row - stride;
		const source = at + y * width * step;
		for (let x = 0; x < width; x++) {
			const a = row + 4 * x;
			let prediction = 0;
			if (filter !== 0) {
				if (y === 0) prediction = x === 0 ? 0 : rgba[a - 4]!;
				else if (x === 0 || filter === 2) prediction = rgba[above + 4 * x]!;
				else if (filter === 1) prediction = rgba[a - 4]!;
				else prediction = clampByte(rgba[a - 4]! + rgba[above + 4 * x]! - rgba[above + 4 * x - 4]!);
			}
			rgba[a] = values[source + x * step]! + prediction;
		}
	}
}

function clampByte(value: number): number {
	return Math.min(255, Math.max(0, value));
}
