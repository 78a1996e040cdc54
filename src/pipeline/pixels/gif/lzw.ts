import type { WorkBudget } from "../work-budget";
import type { ByteReader } from "./blocks";
import { GifFormatError } from "./errors";

const MAX_CODES = 4096;

/** Codes decoded between two checks against the work budget. */
const CODES_PER_CHECK = 4096;

/**
 * Output kept behind the row being decoded, where codes' strings are copied from. A GIF encoder
 * clears its dictionary every few thousand codes, so the strings codes name lie within the last
 * few tens of kilobytes; one further back (a dictionary kept full over a flat page) is spelled out
 * from the dictionary instead.
 */
const WINDOW = 1 << 16;

/** Bytes the decoder holds whatever the image's width: its output window and a string's room. */
export const LZW_FIXED_BYTES = 2 * WINDOW + MAX_CODES + 8;

/**
 * Decodes a GIF image's LZW data (variable-length codes, least significant bit first, up to 12
 * bits, spread over sub-blocks) into palette indices, one row of `width` at a time: `onRow` gets
 * the n-th row in stream order and must use it before returning (the buffer is reused). Stops as
 * soon as `rows` rows are out; data that ends or says "end" before that is an error. Every code
 * costs a unit of `budget`: codes that draw nothing (clear codes) cannot spin without end.
 *
 * A code's string is the string of the code before it where that was written, plus one index: so
 * each code keeps where its string lies in the output, and is decoded by copying it from there,
 * front to back (indices read independently, not one dictionary step after another). Rows are
 * handed out as views of the output, which keeps the last WINDOW bytes as it moves on; a string
 * from before them is spelled out from the dictionary, last index first.
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
	// The dictionary: each code is a previous code plus one index, its string `length` long; `place`
	// is where in `out` that string was written (-1: no longer in the window).
	const prefix = new Uint16Array(MAX_CODES);
	const suffix = new Uint8Array(MAX_CODES);
	const length = new Uint16Array(MAX_CODES);
	const place = new Int32Array(MAX_CODES);
	for (let code = 0; code < clear; code++) {
		suffix[code] = code;
		length[code] = 1;
	}
	const out = new Uint8Array(LZW_FIXED_BYTES + width);
	const view = new DataView(out.buffer);
	const { bytes } = reader;
	let at = reader.at;
	// Where the next string goes, and where the row being filled starts.
	let x = 0;
	let rowStart = 0;
	let row = 0;
	let codeSize = minCodeSize + 1;
	let next = clear + 2;
	let previous = -1;
	let previousAt = 0;
	let bits = 0;
	let count = 0;
	let blockLeft = 0;
	let unpaid = 0;
	while (row < rows) {
		if (++unpaid === CODES_PER_CHECK) {
			budget.spend(unpaid);
			unpaid = 0;
		}
		if (count < codeSize && blockLeft >= 2 && at + 2 <= bytes.length) {
			// Two bytes at once inside a sub-block: a 12-bit code needs at most two.
			bits |= (bytes[at]! | (bytes[at + 1]! << 8)) << count;
			at += 2;
			count += 16;
			blockLeft -= 2;
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
		if (x + MAX_CODES > out.length) {
			// Keep the row being filled and the window before it; what codes pointed before that is gone.
			const keep = Math.min(rowStart, x - WINDOW);
			out.copyWithin(0, keep, x);
			for (let c = 0; c < MAX_CODES; c++) place[c] = Math.max(-1, place[c]! - keep);
			x -= keep;
			rowStart -= keep;
			previousAt -= keep;
		}
		let size: number;
		if (previous < 0) {
			if (code >= clear) throw new GifFormatError("LZW code before any string");
			out[x] = code;
			size = 1;
		} else {
			if (code > next || (code === next && next >= MAX_CODES)) throw new GifFormatError("LZW code out of range");
			if (code < clear) {
				out[x] = code;
				size = 1;
			} else if (code === next) {
				// Not in the dictionary yet (KwKwK): the previous string, then its own first index.
				size = length[previous]! + 1;
				copyString(view, previousAt, x, size - 1);
				out[x + size - 1] = out[previousAt]!;
			} else {
				size = length[code]!;
				const from = place[code]!;
				if (from >= 0) copyString(view, from, x, size);
				else spellString(out, x, size, code, prefix, suffix);
				// Its latest copy: a code in use stays in the window.
				place[code] = x;
			}
			if (next < MAX_CODES) {
				prefix[next] = previous;
				suffix[next] = out[x]!;
				length[next] = length[previous]! + 1;
				place[next] = previousAt;
				next++;
				if (next === 1 << codeSize && codeSize < 12) codeSize++;
			}
		}
		previous = code;
		previousAt = x;
		x += size;
		while (x - rowStart >= width) {
			onRow(out.subarray(rowStart, rowStart + width), row++);
			rowStart += width;
			if (row === rows) break;
		}
	}
	reader.at = at;
}

/**
 * `size` indices from `from` to `to`, which lies past their end, eight at a time: the bytes written
 * past `to + size` are the next strings' room (`out` keeps MAX_CODES of it), written over later.
 */
function copyString(view: DataView, from: number, to: number, size: number): void {
	for (let k = 0; k < size; k += 8) {
		view.setUint32(to + k, view.getUint32(from + k, true), true);
		view.setUint32(to + k + 4, view.getUint32(from + k + 4, true), true);
	}
}

/** The string of `code`, `size` long, written at `to` from the dictionary, last index first. */
function spellString(
	out: Uint8Array,
	to: number,
	size: number,
	code: number,
	prefix: Uint16Array,
	suffix: Uint8Array,
): void {
	for (let i = to + size - 1, walk = code; i >= to; i--) {
		out[i] = suffix[walk]!;
		walk = prefix[walk]!;
	}
}
