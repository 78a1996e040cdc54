import { describe, expect, it } from "vitest";
import { ImageDataError } from "../../src/pipeline/pixels/image-error";
import { DYNAMIC_BLOCK_WORK, inflateZlib, PLAIN_BLOCK_WORK } from "../../src/pipeline/pixels/inflate";
import { InflateError } from "../../src/pipeline/pixels/inflate-error";
import { WorkBudget } from "../../src/pipeline/pixels/work-budget";
import { concat } from "../support/png";

/** The pieces one at a time, as an inflater asks for them. */
function source(pieces: Uint8Array[]): () => Uint8Array | undefined {
	let next = 0;
	return () => pieces[next++];
}

const unlimited = () => new WorkBudget(Number.POSITIVE_INFINITY);

/** Inflates `pieces`, collecting the output (the sink's view is copied: it is reused). */
function inflate(pieces: Uint8Array[], budget = unlimited()): Uint8Array {
	const parts: Uint8Array[] = [];
	inflateZlib(
		source(pieces),
		(bytes) => {
			parts.push(bytes.slice());
			return false;
		},
		budget,
	);
	return concat(parts);
}

/** zlib's own deflater, as the runtime ships it: what most PNG encoders produce. */
async function zlibDeflate(data: Uint8Array): Promise<Uint8Array> {
	const stream = new Blob([data]).stream().pipeThrough(new CompressionStream("deflate"));
	return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Block type of the first block: the header's bits 1-2 after the two zlib bytes. */
const firstBlockType = (z: Uint8Array) => (z[2]! >> 1) & 3;

function pseudoRandom(length: number, seed = 7): Uint8Array {
	const out = new Uint8Array(length);
	for (let i = 0; i < length; i++) {
		seed = (seed * 16807) % 2147483647;
		out[i] = seed & 255;
	}
	return out;
}

const text = new TextEncoder().encode(
	"The quick brown fox jumps over the lazy dog; the lazy dog sleeps on, and the fox jumps again. ".repeat(40),
);

function adler32(data: Uint8Array): number {
	let a = 1;
	let b = 0;
	for (const v of data) {
		a = (a + v) % 65521;
		b = (b + a) % 65521;
	}
	return ((b << 16) | a) >>> 0;
}

/** A zlib stream of stored (uncompressed) blocks of at most `blockSize` bytes. */
function storedStream(data: Uint8Array, blockSize: number): Uint8Array {
	const bytes: number[] = [0x78, 0x01];
	for (let at = 0; at === 0 || at < data.length; at += blockSize) {
		const block = data.subarray(at, at + blockSize);
		const last = at + blockSize >= data.length ? 1 : 0;
		bytes.push(last, block.length & 255, block.length >> 8, ~block.length & 255, (~block.length >> 8) & 255);
		bytes.push(...block);
	}
	const sum = adler32(data);
	bytes.push(sum >>> 24, (sum >>> 16) & 255, (sum >>> 8) & 255, sum & 255);
	return Uint8Array.from(bytes);
}

/**
 * Writes one block by hand, to make what zlib itself never emits; symbols use the fixed codes
 * (RFC 1951 3.2.6), a dynamic block's header is written bit by bit.
 */
class BlockWriter {
	private readonly bytes: number[] = [0x78, 0x01];
	private buffer = 0;
	private count = 0;

	constructor(type: 1 | 2 = 1) {
		this.bits(1, 1); // the last block
		this.bits(type, 2);
	}

	bits(value: number, n: number): this {
		for (let i = 0; i < n; i++) {
			this.buffer |= ((value >> i) & 1) << this.count++;
			if (this.count === 8) this.flushByte();
		}
		return this;
	}

	/** A Huffman code, sent most significant bit first. */
	code(value: number, n: number): this {
		for (let i = n - 1; i >= 0; i--) this.bits((value >> i) & 1, 1);
		return this;
	}

	literal(v: number): this {
		return v < 144 ? this.code(0x30 + v, 8) : this.code(0x190 + v - 144, 9);
	}

	/** A match of 258 bytes (symbol 285) at `distance` (≥ 24577: code 29 and 13 extra bits). */
	longMatch(distance: number): this {
		return this.code(0xc0 + 285 - 280, 8)
			.code(29, 5)
			.bits(distance - 24577, 13);
	}

	/** A match of 3 bytes (symbol 257) at a distance of 1..4 (codes 0..3, no extra bits). */
	shortMatch(distance: number): this {
		return this.code(1, 7).code(distance - 1, 5);
	}

	end(): Uint8Array {
		this.code(0, 7);
		if (this.count > 0) this.flushByte();
		return Uint8Array.from([...this.bytes, 0, 0, 0, 0]); // Adler-32 (not checked)
	}

	private flushByte(): void {
		this.bytes.push(this.buffer);
		this.buffer = 0;
		this.count = 0;
	}
}

describe("inflateZlib", () => {
	it("inflates stored blocks, a block split across pieces included", () => {
		const data = pseudoRandom(100_000);
		const z = storedStream(data, 30_000);
		expect(inflate([z])).toEqual(data);
		expect(inflate([z.subarray(0, 12_345), z.subarray(12_345, 70_001), z.subarray(70_001)])).toEqual(data);
	});

	it("inflates zlib's fixed-code blocks", async () => {
		const data = new TextEncoder().encode("a short text, a short text");
		const z = await zlibDeflate(data);
		expect(firstBlockType(z)).toBe(1);
		expect(inflate([z])).toEqual(data);
	});

	it("inflates zlib's dynamic-code blocks", async () => {
		const z = await zlibDeflate(text);
		expect(firstBlockType(z)).toBe(2);
		expect(inflate([z])).toEqual(text);
	});

	it("gives the same output however the stream is cut into pieces", async () => {
		const data = concat([text.subarray(0, 600), pseudoRandom(300), text.subarray(0, 400)]);
		const streams = [await zlibDeflate(data), storedStream(data, 500)];
		for (const z of streams) {
			for (let cut = 0; cut <= z.length; cut++) {
				expect(inflate([z.subarray(0, cut), z.subarray(cut)])).toEqual(data);
			}
			const bytewise = Array.from(z, (_, i) => z.subarray(i, i + 1));
			expect(inflate(bytewise)).toEqual(data);
		}
	});

	it("copies matches across the output window as it slides, up to the longest distance", () => {
		// 32768 literals, then 258-byte matches at distance 32768 until 1 MB: the output wraps the
		// inflater's window several times, and every match reaches the farthest byte allowed.
		const start = pseudoRandom(32768, 3);
		const writer = new BlockWriter();
		for (const v of start) writer.literal(v);
		const matches = Math.ceil((1_000_000 - 32768) / 258);
		for (let i = 0; i < matches; i++) writer.longMatch(32768);
		const out = inflate([writer.end()]);
		expect(out.length).toBe(32768 + matches * 258);
		for (let i = 0; i < out.length; i++) {
			if (out[i] !== start[i % 32768]) throw new Error(`byte ${i} is ${out[i]}, not ${start[i % 32768]}`);
		}
	});

	it("repeats a match that overlaps its own output", () => {
		const z = new BlockWriter().literal(1).literal(2).shortMatch(2).shortMatch(1).end();
		expect(inflate([z])).toEqual(Uint8Array.of(1, 2, 1, 2, 1, 1, 1, 1));
	});

	it("stops as soon as the sink has what it needs, ignoring what follows", async () => {
		const z = await zlibDeflate(pseudoRandom(600_000));
		const corruptTail = concat([z.subarray(0, z.length >> 1), new Uint8Array(1000).fill(0xff)]);
		let received = 0;
		inflateZlib(
			source([corruptTail]),
			(bytes) => {
				received += bytes.length;
				return received >= 100_000;
			},
			unlimited(),
		);
		expect(received).toBeGreaterThanOrEqual(100_000);
	});

	it("throws on a stream cut anywhere before its end-of-block code", async () => {
		const data = concat([text.subarray(0, 300), pseudoRandom(200)]);
		for (const z of [await zlibDeflate(data), storedStream(data, 128)]) {
			const deflateEnd = z.length - 4; // the Adler-32 is not needed
			for (let cut = 0; cut < deflateEnd; cut++) {
				expect(() => inflate([z.subarray(0, cut)]), `cut at ${cut}`).toThrow(InflateError);
			}
			expect(inflate([z.subarray(0, deflateEnd)])).toEqual(data);
		}
	});

	it("hands over what it inflated before the data ran out", async () => {
		const data = pseudoRandom(400_000);
		const z = await zlibDeflate(data);
		const received: Uint8Array[] = [];
		expect(() =>
			inflateZlib(
				source([z.subarray(0, z.length >> 1)]),
				(bytes) => {
					received.push(bytes.slice());
					return false;
				},
				unlimited(),
			),
		).toThrow(InflateError);
		const got = concat(received);
		expect(got.length).toBeGreaterThan(150_000);
		expect(got).toEqual(data.subarray(0, got.length));
	});

	const corrupt: Record<string, () => Uint8Array> = {
		"a header that is not zlib's": () => Uint8Array.of(0x1f, 0x8b, 8, 0, 0, 0),
		"a header check that fails": () => Uint8Array.of(0x78, 0x02, 3, 0),
		"a preset dictionary": () => Uint8Array.of(0x78, 0xbb, 0, 0, 0, 0, 3, 0),
		"block type 3": () => Uint8Array.of(0x78, 0x01, 0b111, 0, 0, 0, 0),
		"a stored length whose complement is wrong": () => Uint8Array.of(0x78, 0x01, 1, 5, 0, 0xfa, 0xfe, 1, 2, 3, 4, 5),
		"a distance before the start": () => new BlockWriter().literal(1).shortMatch(2).end(),
		"a length code past 285": () => new BlockWriter().code(0xc0 + 286 - 280, 8).end(),
		"a distance code past 29": () => new BlockWriter().literal(1).code(1, 7).code(30, 5).end(),
		// HLIT 257, HDIST 1, HCLEN 4; code-length codes 16, 17, 18, 0 all 1 bit long: over-subscribed.
		"over-subscribed code lengths": () =>
			new BlockWriter(2).bits(0, 5).bits(0, 5).bits(0, 4).bits(1, 3).bits(1, 3).bits(1, 3).bits(1, 3).end(),
	};
	for (const [name, make] of Object.entries(corrupt)) {
		it(`throws on ${name}`, () => {
			expect(() => inflate([make()])).toThrow(InflateError);
		});
	}
});

describe("inflateZlib's work budget", () => {
	/** A zlib stream of `count` empty stored blocks, then one that holds `data`. */
	function emptyBlocks(count: number, data: Uint8Array): Uint8Array {
		const empty = Uint8Array.of(0, 0, 0, 0xff, 0xff); // not last, stored, aligned; LEN 0, NLEN ~0
		const parts = [Uint8Array.of(0x78, 0x01), ...Array(count).fill(empty)];
		parts.push(Uint8Array.of(1, data.length, 0, ~data.length & 255, 0xff), data, new Uint8Array(4));
		return concat(parts);
	}
	const data = Uint8Array.of(1, 2, 3);

	it("charges a unit per byte out and a block's worth per block header", () => {
		const blocks = 10;
		const cost = blocks * PLAIN_BLOCK_WORK + PLAIN_BLOCK_WORK + data.length;
		expect(inflate([emptyBlocks(blocks, data)], new WorkBudget(cost))).toEqual(data);
		expect(() => inflate([emptyBlocks(blocks, data)], new WorkBudget(cost - 1))).toThrow(ImageDataError);
	});

	it("stops a stream of a hundred thousand empty blocks once it has cost what its output would", () => {
		const budget = new WorkBudget(1000 * DYNAMIC_BLOCK_WORK);
		expect(() => inflate([emptyBlocks(100_000, data)], budget)).toThrow(/more decoding work/);
	});
});
