import { describe, expect, it } from "vitest";
import { RleDeflater } from "../../src/pipeline/pixels/deflate";
import { encodePng } from "../../src/pipeline/pixels/png-encode";
import { decodeFile } from "../support/decode";
import { concat } from "../support/png";

async function inflate(chunks: Uint8Array[]): Promise<Uint8Array> {
	const stream = new Blob(chunks).stream().pipeThrough(new DecompressionStream("deflate"));
	return new Uint8Array(await new Response(stream).arrayBuffer());
}

function compress(blocks: Uint8Array[]): Uint8Array[] {
	const deflater = new RleDeflater();
	return [...blocks.map((b) => deflater.push(b)), deflater.finish()];
}

describe("RleDeflater", () => {
	const cases: Record<string, () => Uint8Array[]> = {
		"noise (all literals)": () => {
			let seed = 1;
			const next = () => {
				seed = (seed * 16807) % 2147483647;
				return seed & 255;
			};
			return [Uint8Array.from({ length: 70_000 }, next)];
		},
		"long runs, several blocks": () => [
			new Uint8Array(100_000),
			new Uint8Array(5000).fill(7),
			Uint8Array.of(1, 1, 1, 2),
		],
		// Fibonacci-like frequencies make a Huffman tree deeper than deflate's 15-bit limit.
		"skewed frequencies that need length limiting": () => {
			const out: number[] = [];
			let [a, b] = [1, 1];
			for (let symbol = 0; symbol < 26; symbol++) {
				for (let k = 0; k < a; k++) out.push(symbol * 9, symbol * 9 + 1); // no runs: literals only
				[a, b] = [b, a + b];
			}
			return [Uint8Array.from(out)];
		},
		"a single byte and an empty block": () => [Uint8Array.of(42), new Uint8Array(0)],
		// Stretches of 1 to 9 and of 256 to 521 equal bytes, often the same byte twice in a row, at each alignment
		// (runs are looked for a word at a time): runs that meet, cross words and exceed 258.
		"runs of every length at every alignment": () => {
			let seed = 5;
			const next = (n: number) => {
				seed = (seed * 16807) % 2147483647;
				return seed % n;
			};
			const bytes: number[] = [];
			let value = 0;
			while (bytes.length < 200_000) {
				if (next(3) > 0) value = next(4);
				// Mostly short; some just around one or two maximal matches (258), leaving 0 to 5 over.
				const length = next(5) === 0 ? 256 + 258 * next(2) + next(8) : 1 + next(9);
				for (let k = 0; k < length; k++) bytes.push(value);
			}
			const all = Uint8Array.from(bytes);
			return [0, 1, 2, 3].map((offset) => all.subarray(offset, 50_000 + offset));
		},
	};
	for (const [name, make] of Object.entries(cases)) {
		it(`round-trips ${name} through the runtime's inflater`, async () => {
			const blocks = make();
			const expected = new Uint8Array(blocks.reduce((n, b) => n + b.length, 0));
			let at = 0;
			for (const b of blocks) {
				expected.set(b, at);
				at += b.length;
			}
			const restored = await inflate(compress(blocks));
			expect(restored.length).toBe(expected.length);
			expect(restored.every((v, i) => v === expected[i])).toBe(true);
		});
	}

	it("compresses runs far below their size", () => {
		const size = compress([new Uint8Array(1_000_000)]).reduce((n, c) => n + c.length, 0);
		expect(size).toBeLessThan(2000);
	});
});

describe("encodePng on a raster that is a view at an odd offset", () => {
	it("reads the pixels from where the view starts", () => {
		const width = 33;
		const height = 9;
		const backing = new Uint8Array(width * height * 4 + 1);
		for (let i = 0; i < backing.length; i++) backing[i] = (i * 31) % 256;
		const data = backing.subarray(1); // byteOffset 1: not a whole 32-bit word
		const decoded = decodeFile(concat(encodePng({ width, height, data })));
		expect([decoded.width, decoded.height]).toEqual([width, height]);
		expect(decoded.data).toEqual(data);
	});
});
