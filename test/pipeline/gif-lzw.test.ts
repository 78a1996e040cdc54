/**
 * GIF's LZW decoder copies each code's string from where it was last written, within a window of
 * the output it keeps, and spells it out from the dictionary when that lies further back: every row
 * must come out exactly as encoded either way, over images large enough that the window moves on
 * many times, with the dictionary cleared when full (most encoders) or kept full to the end.
 */
import { describe, expect, it } from "vitest";
import { ByteReader } from "../../src/pipeline/pixels/gif/blocks";
import { decodeLzw } from "../../src/pipeline/pixels/gif/lzw";
import { WorkBudget } from "../../src/pipeline/pixels/work-budget";

/** GIF LZW of `indices`, in sub-blocks; the code size grows exactly when the decoder's does. */
function lzwEncode(indices: Uint8Array, minCodeSize: number, clearWhenFull: boolean): Uint8Array {
	const clear = 1 << minCodeSize;
	const bytes: number[] = [];
	let pending = 0;
	let pendingBits = 0;
	const write = (code: number, count: number) => {
		pending |= code << pendingBits;
		for (pendingBits += count; pendingBits >= 8; pendingBits -= 8, pending >>>= 8) bytes.push(pending & 255);
	};
	let size = minCodeSize + 1;
	let table = new Map<number, number>();
	let next = clear + 2;
	// The decoder adds a code for each code it reads after the first since a clear.
	let decoderNext = clear + 2;
	let decoderHasPrevious = false;
	const emit = (code: number) => {
		write(code, size);
		if (decoderHasPrevious && decoderNext < 4096) {
			decoderNext++;
			if (decoderNext === 1 << size && size < 12) size++;
		}
		decoderHasPrevious = true;
	};
	write(clear, size);
	let string = indices[0]!;
	for (let i = 1; i < indices.length; i++) {
		const index = indices[i]!;
		const known = table.get(string * 256 + index);
		if (known !== undefined) {
			string = known;
			continue;
		}
		emit(string);
		if (next < 4096) table.set(string * 256 + index, next++);
		if (next === 4096 && clearWhenFull) {
			write(clear, size);
			size = minCodeSize + 1;
			table = new Map();
			next = clear + 2;
			decoderNext = clear + 2;
			decoderHasPrevious = false;
		}
		string = index;
	}
	emit(string);
	write(clear + 1, size);
	if (pendingBits > 0) bytes.push(pending & 255);
	const data = Uint8Array.from(bytes);
	const blocks: number[] = [];
	for (let at = 0; at < data.length; at += 255) {
		const piece = data.subarray(at, at + 255);
		blocks.push(piece.length, ...piece);
	}
	blocks.push(0);
	return Uint8Array.from(blocks);
}

/**
 * A page-like picture of `colours` indices: runs of one index, stretches of noise, and stretches
 * repeating rows far above, so that strings are short and long and their codes old and new.
 */
function picture(width: number, height: number, colours: number, seed: number): Uint8Array {
	const out = new Uint8Array(width * height);
	let state = seed;
	const random = (n: number) => {
		state = (Math.imul(state, 1103515245) + 12345) >>> 0;
		return (state >>> 8) % n;
	};
	for (let at = 0; at < out.length; ) {
		const kind = random(3);
		const length = Math.min(out.length - at, 1 + random(kind === 0 ? 3000 : 400));
		if (kind === 0) out.fill(random(colours), at, at + length);
		else if (kind === 1) for (let i = 0; i < length; i++) out[at + i] = random(colours);
		else {
			const from = random(Math.max(1, at - length));
			for (let i = 0; i < length; i++) out[at + i] = out[from + i]!;
		}
		at += length;
	}
	return out;
}

/** The first index at which they differ, -1 if none. */
function firstDifference(a: Uint8Array, b: Uint8Array): number {
	if (a.length !== b.length) return Math.min(a.length, b.length);
	for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
	return -1;
}

function decoded(data: Uint8Array, minCodeSize: number, width: number, height: number): Uint8Array {
	const out = new Uint8Array(width * height);
	let rows = 0;
	decodeLzw(new ByteReader(data), minCodeSize, width, height, new WorkBudget(1e9), (line, n) => {
		out.set(line, n * width);
		rows++;
	});
	expect(rows).toBe(height);
	return out;
}

describe("GIF LZW decoding", () => {
	const cases = [
		{ name: "256 colours, dictionary cleared when full", colours: 256, minCodeSize: 8, clearWhenFull: true },
		{ name: "256 colours, dictionary kept full", colours: 256, minCodeSize: 8, clearWhenFull: false },
		{ name: "4 colours, dictionary cleared when full", colours: 4, minCodeSize: 2, clearWhenFull: true },
		{ name: "4 colours, dictionary kept full", colours: 4, minCodeSize: 2, clearWhenFull: false },
	];
	for (const { name, colours, minCodeSize, clearWhenFull } of cases) {
		it(`gives back every row of a 1.5 MP picture exactly: ${name}`, () => {
			const [width, height] = [1000, 1500];
			const indices = picture(width, height, colours, minCodeSize * 7 + (clearWhenFull ? 1 : 0));
			const data = lzwEncode(indices, minCodeSize, clearWhenFull);
			expect(firstDifference(decoded(data, minCodeSize, width, height), indices)).toBe(-1);
		});
	}

	it("gives back rows narrower than one code's string (a string spans many rows)", () => {
		const indices = picture(3, 200_000, 2, 5);
		expect(firstDifference(decoded(lzwEncode(indices, 2, false), 2, 3, 200_000), indices)).toBe(-1);
	});
});
