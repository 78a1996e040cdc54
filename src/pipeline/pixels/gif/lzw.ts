import type { WorkBudget } from "../work-budget";
import type { ByteReader } from "./blocks";
import { GifFormatError } from "./errors";

const MAX_CODES = 4096;

/** Codes decoded between two checks against the work budget. */
const CODES_PER_CHECK = 4096;

/**
 * Decodes a GIF image's LZW data (variable-length codes, least significant bit first, up to 12
 * bits, spread over sub-blocks) into palette indices, one row of `width` at a time: `onRow` gets
 * the n-th row in stream order and must use it before returning (the buffer is reused). Stops as
 * soon as `rows` rows are out; data that ends or says "end" before that is an error. Every code
 * costs a unit of `budget`: codes that draw nothing (clear codes) cannot spin without end.
 *
 * Each code's string is written straight to its place, last index first, from its length (kept
 * per code): no stack to fill and empty again, and a row's end is checked once a string, not once
 * an index. A string may run past the row; what overhangs is moved to the start of the next.
 */
export function decodeLzw(
	reader: ByteReader,
	minCodeSize: number,
	width: number,
	rows: number,
	budget: WorkBudget,
	onRow: (line: Uint8Array, n: number) => void,
): void {
	if (minCodeSize < 1 || minCodeSize > 11) throw new GifFormatError("bad LZW code size");
	const clear = 1 << minCodeSize;
	const end = clear + 1;
	// The dictionary: each code is a previous code plus one index; `first` is its string's first
	// index, `length` the string's length.
	const prefix = new Uint16Array(MAX_CODES);
	const suffix = new Uint8Array(MAX_CODES);
	const first = new Uint8Array(MAX_CODES);
	const length = new Uint16Array(MAX_CODES);
	for (let code = 0; code < clear; code++) {
		suffix[code] = code;
		first[code] = code;
		length[code] = 1;
	}
	// A row, and room for the longest string to run past its end.
	const line = new Uint8Array(width + MAX_CODES);
	const whole = line.subarray(0, width);
	const { bytes } = reader;
	let at = reader.at;
	let x = 0;
	let row = 0;
	let codeSize = minCodeSize + 1;
	let next = clear + 2;
	let previous = -1;
	let bits = 0;
	let count = 0;
	let blockLeft = 0;
	let unpaid = 0;
	while (row < rows) {
		if (++unpaid === CODES_PER_CHECK) {
			budget.spend(unpaid);
			unpaid = 0;
		}
		while (count < codeSize) {
			if (at >= bytes.length) throw new GifFormatError("data ends early");
			if (blockLeft === 0) {
				blockLeft = bytes[at++]!;
				if (blockLeft === 0) throw new GifFormatError("image data ends before the last row");
				continue;
			}
			bits |= bytes[at++]! << count;
			count += 8;
			blockLeft--;
		}
		const code = bits & ((1 << codeSize) - 1);
		bits >>>= codeSize;
		count -= codeSize;
		if (code === clear) {
			codeSize = minCodeSize + 1;
			next = clear + 2;
			previous = -1;
			continue;
		}
		if (code === end) throw new GifFormatError("image data ends before the last row");
		let size: number;
		if (previous < 0) {
			if (code >= clear) throw new GifFormatError("LZW code before any string");
			line[x] = code;
			size = 1;
		} else {
			if (code > next || (code === next && next >= MAX_CODES)) throw new GifFormatError("LZW code out of range");
			// The one code not yet in the table (KwKwK case) is the previous string plus its own first index.
			let walk = code;
			size = length[code]!;
			if (code === next) {
				size = length[previous]! + 1;
				line[x + size - 1] = first[previous]!;
				walk = previous;
			}
			for (let i = x + length[walk]! - 1; i >= x; i--) {
				line[i] = suffix[walk]!;
				walk = prefix[walk]!;
			}
			if (next < MAX_CODES) {
				prefix[next] = previous;
				suffix[next] = line[x]!;
				first[next] = first[previous]!;
				length[next] = length[previous]! + 1;
				next++;
				if (next === 1 << codeSize && codeSize < 12) codeSize++;
			}
		}
		previous = code;
		x += size;
		while (x >= width) {
			onRow(whole, row++);
			if (row === rows) break;
			line.copyWithin(0, width, x);
			x -= width;
		}
	}
	reader.at = at;
}
