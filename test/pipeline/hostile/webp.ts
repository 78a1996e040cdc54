import { ascii, join, LsbBits, u24le, u32le } from "./bytes";

/** WebP pieces: RIFF chunks and VP8L bitstreams written bit by bit. */

export function chunk(fourcc: string, data: Uint8Array | number[]): Uint8Array {
	const bytes = data instanceof Uint8Array ? data : Uint8Array.from(data);
	return join([ascii(fourcc), u32le(bytes.length), bytes, bytes.length & 1 ? [0] : []]);
}

export function riff(chunks: Uint8Array[]): Uint8Array {
	const body = join(chunks);
	return join([ascii("RIFF"), u32le(body.length + 4), ascii("WEBP"), body]);
}

/** A VP8X chunk for a still (or, with `animated`, an animated) canvas. */
export function vp8x(width: number, height: number, animated = false): Uint8Array {
	return chunk("VP8X", [animated ? 0x02 : 0, 0, 0, 0, ...u24le(width - 1), ...u24le(height - 1)]);
}

/** The VP8L header: signature, 14-bit sides, alpha hint, version 0. */
export function vp8lHeader(bits: LsbBits, width: number, height: number): LsbBits {
	bits
		.write(0x2f, 8)
		.write(width - 1, 14)
		.write(height - 1, 14)
		.write(1, 1)
		.write(0, 3);
	return bits;
}

/** A simple prefix code of one symbol (0 to 255): costs no bit per use. */
export function oneSymbol(bits: LsbBits, symbol: number): LsbBits {
	return bits.write(1, 1).write(0, 1).write(1, 1).write(symbol, 8);
}

/** A group of five one-symbol codes: every pixel is this ARGB, and costs no bit. */
export function constantGroup(bits: LsbBits, argb: number): LsbBits {
	oneSymbol(bits, (argb >>> 8) & 255); // green
	oneSymbol(bits, (argb >>> 16) & 255); // red
	oneSymbol(bits, argb & 255); // blue
	oneSymbol(bits, argb >>> 24); // alpha
	return oneSymbol(bits, 0); // distance
}

/**
 * A normal prefix code giving each of the first 256 symbols an 8-bit code: its code-length code
 * has one symbol (8), so no bit is read per length, and max_symbol stops after 256 lengths.
 */
export function flat256(bits: LsbBits): LsbBits {
	bits.write(0, 1).write(12 - 4, 4); // normal code, 12 code-length code lengths stored
	// Order 17, 18, 0, 1, 2, 3, 4, 5, 16, 6, 7, 8: only length 8 is used.
	for (let i = 0; i < 12; i++) bits.write(i === 11 ? 1 : 0, 3);
	return bits
		.write(1, 1)
		.write(3, 3)
		.write(256 - 2, 8);
}

/** A solid image of any size in a few bytes: no transform, no cache, no meta codes, one constant group. */
export function solidVp8l(width: number, height: number, argb = 0xff808080): Uint8Array {
	const bits = vp8lHeader(new LsbBits(), width, height);
	bits.write(0, 1).write(0, 1).write(0, 1); // no transform, no colour cache, no meta prefix codes
	return constantGroup(bits, argb).done();
}
