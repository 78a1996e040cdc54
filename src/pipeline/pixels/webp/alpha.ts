import { WebpFormatError } from "./errors";
import { BitReader } from "./lossless/bit-reader";
import { decodeGreenOnly, greenOnlyConstant } from "./lossless/green-only";
import { decodeStreamPixels, measureStreamHeader, readStreamHeader } from "./lossless/image-stream";

/**
 * The alpha plane of a lossy frame (RFC 9649 section 2.7.1.2), handed out row by row in order: one
 * header byte, then the plane raw or as a headerless VP8L stream (alpha in the green channel),
 * possibly filtered by a prediction from the row above and the pixel to the left. A raw plane is
 * read from the chunk a row at a time; a stream is decoded whole first, a byte a pixel in libwebp's
 * usual form (green alone, see green-only.ts), 4 bytes a pixel otherwise.
 */
export class AlphaRows {
	private readonly filter: number;
	/** Filtered values: row y at values[at + y * width]. */
	private readonly values: Uint8Array;
	private readonly at: number;
	private above: Uint8Array;
	private current: Uint8Array;
	private next = 0;

	constructor(
		alph: Uint8Array,
		private readonly width: number,
		private readonly height: number,
	) {
		const { compression, filter } = readHeader(alph);
		this.filter = filter;
		this.above = new Uint8Array(width);
		this.current = new Uint8Array(width);
		const count = width * height;
		if (compression === 0) {
			if (alph.length - 1 < count) throw new WebpFormatError("ALPH data is truncated");
			this.values = alph;
			this.at = 1;
			return;
		}
		this.at = 0;
		const br = new BitReader(alph, 1);
		const stream = readStreamHeader(br, width, height);
		const constant = greenOnlyConstant(stream);
		if (constant !== undefined) {
			this.values = new Uint8Array(count);
			decodeGreenOnly(br, stream, width, height, constant, this.values, 0, 1);
			return;
		}
		const argb = new Int32Array(count);
		decodeStreamPixels(br, stream, width, height, argb, false);
		// Green of pixel i into byte i of the same buffer: byte i lies at or before the pixel it comes from.
		this.values = new Uint8Array(argb.buffer);
		for (let i = 0; i < count; i++) this.values[i] = argb[i]! >> 8;
	}

	/** Writes the next row's alpha (rows come 0, 1, 2...) into the A bytes of `rgba` from byte `offset`. */
	row(rgba: Uint8Array, offset: number): void {
		const { width, values, filter } = this;
		const y = this.next++;
		if (y >= this.height) throw new RangeError("alpha rows past the last");
		const source = this.at + y * width;
		const line = this.current;
		const above = this.above;
		for (let x = 0; x < width; x++) {
			let prediction = 0;
			if (filter !== 0) {
				if (y === 0) prediction = x === 0 ? 0 : line[x - 1]!;
				else if (x === 0 || filter === 2) prediction = above[x]!;
				else if (filter === 1) prediction = line[x - 1]!;
				else prediction = clampByte(line[x - 1]! + above[x]! - above[x - 1]!);
			}
			const alpha = (values[source + x]! + prediction) & 255;
			line[x] = alpha;
			rgba[offset + 4 * x + 3] = alpha;
		}
		this.current = above;
		this.above = line;
	}
}

/**
 * Bytes `AlphaRows` holds for this chunk: two rows and the decoded plane with its stream's
 * sub-images (`memory`), its prefix tables (`fixedMemory`). Reads and checks the stream's header.
 */
export function alphaHeldBytes(
	alph: Uint8Array,
	width: number,
	height: number,
): { memory: number; fixedMemory: number } {
	const { compression } = readHeader(alph);
	if (compression === 0) {
		if (alph.length - 1 < width * height) throw new WebpFormatError("ALPH data is truncated");
		return { memory: 2 * width, fixedMemory: 0 };
	}
	const cost = measureStreamHeader(new BitReader(alph, 1), width, height);
	return {
		memory: 2 * width + cost.subImageBytes + width * height * (cost.greenOnly ? 1 : 4),
		fixedMemory: cost.tableBytes,
	};
}

function readHeader(alph: Uint8Array): { compression: number; filter: number } {
	if (alph.length < 1) throw new WebpFormatError("ALPH chunk is empty");
	const header = alph[0]!;
	const compression = header & 3;
	// Bits 4-5 say whether levels were reduced before coding; a decoder may dither, we don't.
	const preprocessing = (header >> 4) & 3;
	if (compression > 1 || preprocessing > 1 || header >> 6 !== 0) throw new WebpFormatError("ALPH header is invalid");
	return { compression, filter: (header >> 2) & 3 };
}

function clampByte(value: number): number {
	return Math.min(255, Math.max(0, value));
}
