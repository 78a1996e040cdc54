import { reverseBits } from "./huffman";
import { InflateError } from "./inflate-error";

/** Codes up to this many bits are decoded with one table look-up; longer ones (rare) bit by bit. */
export const FAST_BITS = 10;
export const FAST_MASK = (1 << FAST_BITS) - 1;

/**
 * A canonical Huffman code read from its code lengths (RFC 1951 3.2.2), for decoding. Built
 * in place, so that one table per kind serves every block of a stream without allocating.
 */
export class HuffmanDecoder {
	/**
	 * Indexed by the next FAST_BITS input bits (LSB first): (symbol << 4) | code length, or 0 when
	 * the code is longer than FAST_BITS or does not exist (then `slowDecode` decides).
	 */
	readonly fast = new Int32Array(1 << FAST_BITS);
	/** Number of codes of each length, 0..15. */
	readonly count = new Uint16Array(16);
	/** Symbols ordered by code length, then by symbol value: canonical code order. */
	readonly symbols: Uint16Array;
	private readonly offsets = new Uint16Array(16);

	constructor(maxSymbols: number) {
		this.symbols = new Uint16Array(maxSymbols);
	}

	/** Takes the code lengths of `lengths[0..n)`; an over-subscribed set is corrupt data. */
	build(lengths: Uint8Array, n: number): this {
		const { count, offsets, symbols, fast } = this;
		count.fill(0);
		for (let s = 0; s < n; s++) count[lengths[s]!]!++;
		count[0] = 0;
		let left = 1;
		for (let len = 1; len < 16; len++) {
			left = (left << 1) - count[len]!;
			if (left < 0) throw new InflateError("over-subscribed Huffman code");
		}
		// An incomplete code is allowed (one distance code is common); its unused codes fail when read.
		offsets[1] = 0;
		for (let len = 1; len < 15; len++) offsets[len + 1] = offsets[len]! + count[len]!;
		for (let s = 0; s < n; s++) if (lengths[s]) symbols[offsets[lengths[s]!]!++] = s;

		fast.fill(0);
		let code = 0;
		let index = 0;
		for (let len = 1; len <= FAST_BITS; len++) {
			for (let k = 0; k < count[len]!; k++) {
				const entry = (symbols[index++]! << 4) | len;
				// The code is sent MSB first but read LSB first: every index ending in its reversal matches.
				for (let i = reverseBits(code, len); i <= FAST_MASK; i += 1 << len) fast[i] = entry;
				code++;
			}
			code <<= 1;
		}
		return this;
	}
}

/**
 * Decodes a code longer than FAST_BITS (or finds none) from `bits`, which holds at least 15
 * input bits, LSB first: the canonical walk of puff (zlib's reference inflater).
 * Returns (symbol << 4) | length like a fast entry.
 */
export function slowDecode(table: HuffmanDecoder, bits: number): number {
	const { count, symbols } = table;
	let code = 0;
	let first = 0;
	let index = 0;
	for (let len = 1; len < 16; len++) {
		code |= (bits >>> (len - 1)) & 1;
		const n = count[len]!;
		if (code - first < n) return (symbols[index + code - first]! << 4) | len;
		index += n;
		first = (first + n) << 1;
		code <<= 1;
	}
	throw new InflateError("invalid Huffman code");
}
