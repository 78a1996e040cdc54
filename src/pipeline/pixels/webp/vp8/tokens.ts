import type { BoolDecoder } from "./bool-decoder";

/** Block types indexing the coefficient probabilities (RFC 6386 §13.3). */
export const TYPE_Y_AFTER_Y2 = 0;
export const TYPE_Y2 = 1;
export const TYPE_CHROMA = 2;
export const TYPE_Y_WITH_DC = 3;

/** §13: position in a 4x4 block of the n-th coefficient read. */
const ZIGZAG = Uint8Array.from([0, 1, 4, 8, 5, 2, 3, 6, 9, 12, 13, 10, 7, 11, 14, 15]);

/** §13.3 coeff_bands, pre-multiplied by the stride of a band in the probability table (3 contexts x 11). */
const BAND_OFFSET = Uint16Array.from([0, 1, 2, 3, 6, 4, 5, 6, 6, 6, 6, 6, 6, 6, 6, 7].map((b) => b * 33));
const TYPE_STRIDE = 8 * 33;

/** §13.2 extra-bit probabilities of dct_cat3..dct_cat6 (cat1 and cat2 are read inline). */
const CAT_PROBS = [
	Uint8Array.from([173, 148, 140]),
	Uint8Array.from([176, 155, 140, 135]),
	Uint8Array.from([180, 157, 141, 134, 130]),
	Uint8Array.from([254, 254, 243, 230, 196, 177, 153, 140, 133, 130, 129]),
];
const CAT_BASE = [11, 19, 35, 67];

/**
 * Reads the tokens of one 4x4 block (§13.2-13.3) and writes its dequantised coefficients into
 * `out[at..at+16)` in raster order (which the caller has zeroed). `ctx` counts the left and above
 * neighbours that had coefficients. Returns the position after the last token read (the block has
 * coefficients iff it is greater than `first`).
 */
export function readBlockCoefficients(
	br: BoolDecoder,
	probs: Uint8Array,
	type: number,
	ctx: number,
	first: number,
	dcFactor: number,
	acFactor: number,
	out: Int16Array,
	at: number,
): number {
	const typeAt = type * TYPE_STRIDE;
	let n = first;
	let p = typeAt + BAND_OFFSET[n]! + ctx * 11;
	while (n < 16) {
		if (!br.bit(probs[p]!)) return n; // end of block
		// A zero is never followed by an end of block, so the run of zeros skips that branch.
		while (!br.bit(probs[p + 1]!)) {
			if (++n === 16) return 16;
			p = typeAt + BAND_OFFSET[n]!;
		}
		let value: number;
		let nextCtx: number;
		if (!br.bit(probs[p + 2]!)) {
			value = 1;
			nextCtx = 11;
		} else {
			value = readLargeValue(br, probs, p);
			nextCtx = 22;
		}
		if (br.bit(128)) value = -value;
		out[at + ZIGZAG[n]!] = value * (n > 0 ? acFactor : dcFactor);
		n++;
		p = typeAt + BAND_OFFSET[n & 15]! + nextCtx;
	}
	return 16;
}

/** The magnitude of a token past DCT_1: DCT_2..DCT_4 or a category with extra bits (§13.2). */
function readLargeValue(br: BoolDecoder, probs: Uint8Array, p: number): number {
	if (!br.bit(probs[p + 3]!)) {
		if (!br.bit(probs[p + 4]!)) return 2;
		return 3 + br.bit(probs[p + 5]!);
	}
	if (!br.bit(probs[p + 6]!)) {
		if (!br.bit(probs[p + 7]!)) return 5 + br.bit(159);
		return 7 + 2 * br.bit(165) + br.bit(145);
	}
	const high = br.bit(probs[p + 8]!);
	const cat = 2 * high + br.bit(probs[p + 9 + high]!);
	const extra = CAT_PROBS[cat]!;
	let v = 0;
	for (let i = 0; i < extra.length; i++) v = (v << 1) | br.bit(extra[i]!);
	return CAT_BASE[cat]! + v;
}
