import { WebpFormatError } from "../errors";
import type { BitReader } from "./bit-reader";

/**
 * Canonical prefix codes of VP8L (RFC 9649 section 3.7.2), decoded through lookup tables.
 *
 * A table starts with 2^ROOT_BITS root entries indexed by the next ROOT_BITS bits of the
 * stream. Each entry is `value << 8 | length`. A code no longer than ROOT_BITS is replicated
 * over every root entry it prefixes (value = symbol). A longer code's root entry links to a
 * second-level table: length = ROOT_BITS + that table's index bits, value = its offset.
 */
export const ROOT_BITS = 8;
const MAX_CODE_LENGTH = 15;

/** Order in which the code-length code's own lengths are stored. */
const CODE_LENGTH_ORDER = [17, 18, 0, 1, 2, 3, 4, 5, 16, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

/** Reads one prefix code over `alphabetSize` symbols and returns its lookup table. */
export function readPrefixCode(br: BitReader, alphabetSize: number): Int32Array {
	return buildTable(readPrefixLengths(br, alphabetSize));
}

/** Reads one prefix code's code lengths (simple or normal), checking them as `buildTable` would, without building. */
export function readPrefixLengths(br: BitReader, alphabetSize: number): Uint8Array {
	const lengths = new Uint8Array(alphabetSize);
	if (br.read(1) === 1) {
		// Simple code: one or two symbols of length 1 (a lone symbol then costs no bits at all).
		const symbols = br.read(1) + 1;
		const first = br.read(br.read(1) === 1 ? 8 : 1);
		if (first < alphabetSize) lengths[first] = 1;
		if (symbols === 2) {
			const second = br.read(8);
			if (second < alphabetSize) lengths[second] = 1;
		}
	} else {
		readCodeLengths(br, lengths);
	}
	return lengths;
}

/** Normal code: lengths coded by a code-length code, with runs (16: repeat previous, 17/18: zeros). */
function readCodeLengths(br: BitReader, lengths: Uint8Array): void {
	const codeLengthLengths = new Uint8Array(19);
	const stored = br.read(4) + 4;
	for (let i = 0; i < stored; i++) codeLengthLengths[CODE_LENGTH_ORDER[i]!] = br.read(3);
	const codeLengthCode = buildTable(codeLengthLengths);

	const alphabetSize = lengths.length;
	let toRead = alphabetSize;
	if (br.read(1) === 1) {
		toRead = 2 + br.read(2 + 2 * br.read(3));
		if (toRead > alphabetSize) throw new WebpFormatError("VP8L code reads more lengths than symbols");
	}
	let previous = 8;
	let symbol = 0;
	while (symbol < alphabetSize && toRead-- > 0) {
		const code = readSymbol(br, codeLengthCode);
		if (code < 16) {
			lengths[symbol++] = code;
			if (code !== 0) previous = code;
			continue;
		}
		const repeat = code === 16 ? 3 + br.read(2) : code === 17 ? 3 + br.read(3) : 11 + br.read(7);
		if (symbol + repeat > alphabetSize) throw new WebpFormatError("VP8L code length run overflows");
		lengths.fill(code === 16 ? previous : 0, symbol, symbol + repeat);
		symbol += repeat;
	}
	br.checkEnd();
}

/** Whether a table decodes one symbol without reading any bit (its entries have length 0). */
export function isSingleSymbol(table: Int32Array): boolean {
	return (table[0]! & 0xff) === 0;
}

/** Decodes one symbol (outside the hot pixel loop, which inlines the same steps). */
export function readSymbol(br: BitReader, table: Int32Array): number {
	if (br.count < MAX_CODE_LENGTH) br.fill();
	let entry = table[br.window & ((1 << ROOT_BITS) - 1)]!;
	let length = entry & 0xff;
	if (length > ROOT_BITS) {
		br.window >>= ROOT_BITS;
		br.count -= ROOT_BITS;
		entry = table[(entry >> 8) + (br.window & ((1 << (length - ROOT_BITS)) - 1))]!;
		length = entry & 0xff;
	}
	br.window >>= length;
	br.count -= length;
	return entry >> 8;
}

/**
 * Entries (4 bytes each) of the table `buildTable` would make of these lengths, and its lone
 * symbol (or -1): what the probe prices a stream's tables at without allocating them.
 */
export function tableShape(lengths: Uint8Array): { entries: number; lone: number } {
	const { used, lone, longest } = checkLengths(lengths);
	if (used === 1) return { entries: 1 << ROOT_BITS, lone };
	let entries = 1 << ROOT_BITS;
	// Codes no longer than the root need no second level (most codes): no need to assign them.
	if (longest > ROOT_BITS) for (const bits of layOut(lengths).subBits) if (bits) entries += 1 << bits;
	return { entries, lone: -1 };
}

/** Lookup table for canonical code lengths; throws unless the code is complete (or has one symbol). */
export function buildTable(lengths: Uint8Array): Int32Array {
	const { used, lone, codes, subBits } = layOut(lengths);
	// A single symbol is decoded without reading any bit.
	if (used === 1) return new Int32Array(1 << ROOT_BITS).fill(lone << 8);
	const rootSize = 1 << ROOT_BITS;
	const rootMask = rootSize - 1;
	const subOffset = new Int32Array(rootSize);
	let size = rootSize;
	for (let root = 0; root < rootSize; root++) {
		if (!subBits[root]) continue;
		subOffset[root] = size;
		size += 1 << subBits[root]!;
	}

	const table = new Int32Array(size);
	for (let root = 0; root < rootSize; root++) {
		if (subBits[root]) table[root] = (subOffset[root]! << 8) | (ROOT_BITS + subBits[root]!);
	}
	for (let s = 0; s < lengths.length; s++) {
		const length = lengths[s]!;
		if (length === 0) continue;
		const code = codes[s]!;
		if (length <= ROOT_BITS) {
			for (let i = code; i < rootSize; i += 1 << length) table[i] = (s << 8) | length;
		} else {
			const root = code & rootMask;
			const end = subOffset[root]! + (1 << subBits[root]!);
			const step = 1 << (length - ROOT_BITS);
			const entry = (s << 8) | (length - ROOT_BITS);
			for (let i = subOffset[root]! + (code >>> ROOT_BITS); i < end; i += step) table[i] = entry;
		}
	}
	return table;
}

/**
 * Checks the lengths (a complete code, or a single symbol) and assigns the canonical codes, and
 * the bits of the second-level table under each root entry (0: none).
 */
function layOut(lengths: Uint8Array): { used: number; lone: number; codes: Int32Array; subBits: Uint8Array } {
	const { used, lone, perLength } = checkLengths(lengths);
	const rootSize = 1 << ROOT_BITS;
	const subBits = new Uint8Array(rootSize);
	if (used === 1) return { used, lone, codes: new Int32Array(0), subBits };

	// Canonical codes: shorter first, then by symbol. Table indices are the codes bit-reversed,
	// because the stream delivers a code's first bit lowest.
	const next = new Int32Array(MAX_CODE_LENGTH + 2);
	for (let length = 1; length <= MAX_CODE_LENGTH; length++) {
		next[length + 1] = (next[length]! + perLength[length]!) << 1;
	}
	const codes = new Int32Array(lengths.length);
	for (let s = 0; s < lengths.length; s++) {
		const length = lengths[s]!;
		if (length) codes[s] = reverseBits(next[length]!++, length);
	}

	// Second-level tables: one per root entry that long codes share, sized for the longest of them.
	const rootMask = rootSize - 1;
	for (let s = 0; s < lengths.length; s++) {
		const length = lengths[s]!;
		if (length <= ROOT_BITS) continue;
		const root = codes[s]! & rootMask;
		subBits[root] = Math.max(subBits[root]!, length - ROOT_BITS);
	}
	return { used, lone, codes, subBits };
}

/**
 * Counts the codes of each length and checks them: one symbol, or a complete code (Kraft's sum
 * exactly 1). Returns the count, the last symbol used (the lone one, if one), the longest length.
 */
function checkLengths(lengths: Uint8Array): { used: number; lone: number; longest: number; perLength: Int32Array } {
	const perLength = new Int32Array(MAX_CODE_LENGTH + 1);
	let used = 0;
	let lone = 0;
	let longest = 0;
	for (let s = 0; s < lengths.length; s++) {
		const length = lengths[s]!;
		if (length === 0) continue;
		perLength[length]!++;
		used++;
		lone = s;
		if (length > longest) longest = length;
	}
	if (used === 0) throw new WebpFormatError("VP8L prefix code has no symbol");
	if (used === 1) return { used, lone, longest, perLength };
	let left = 1;
	for (let length = 1; length <= MAX_CODE_LENGTH; length++) {
		left = (left << 1) - perLength[length]!;
		if (left < 0) throw new WebpFormatError("VP8L prefix code is over-subscribed");
	}
	if (left !== 0) throw new WebpFormatError("VP8L prefix code is incomplete");
	return { used, lone, longest, perLength };
}

function reverseBits(code: number, length: number): number {
	let out = 0;
	for (let i = 0; i < length; i++) {
		out = (out << 1) | (code & 1);
		code >>>= 1;
	}
	return out;
}
