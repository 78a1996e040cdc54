/**
 * An image's pixels at the bytes its colours need (grey a byte a pixel, opaque colour three, else
 * four), written from pixel words (rows.ts pixelWords: 0xAABBGGRR) and read back as them. Grey and
 * RGB go four pixels at a time through 32-bit words, where four pixels fill one word (grey) or three
 * (RGB): byte by byte, RGB cost several times as much.
 */
export class PackedPixels {
	/** The pixels, `channels` bytes each, in order. */
	readonly bytes: Uint8Array;
	/** The same bytes as little-endian words (a word holds four grey pixels, three four RGB ones). */
	private readonly words: Int32Array;

	constructor(
		pixels: number,
		readonly channels: 1 | 3 | 4,
	) {
		this.bytes = new Uint8Array(pixels * channels);
		this.words = new Int32Array(this.bytes.buffer, 0, this.bytes.length >> 2);
	}

	/** Writes `from` (pixel words) from pixel `at` on; a pixel loses what its channels do not hold. */
	pack(at: number, from: Int32Array): void {
		const { channels, bytes, words } = this;
		const count = from.length;
		if (channels === 4) {
			words.set(from, at);
			return;
		}
		// Single pixels until `at` starts a word, whole words while four pixels remain, then singles.
		const head = Math.min(count, (4 - (at & 3)) & 3);
		const body = head + ((count - head) & ~3);
		if (channels === 1) {
			for (let i = 0; i < head; i++) bytes[at + i] = from[i]!;
			for (let i = head, w = (at + head) >> 2; i < body; i += 4, w++) {
				words[w] =
					(from[i]! & 0xff) | ((from[i + 1]! & 0xff) << 8) | ((from[i + 2]! & 0xff) << 16) | (from[i + 3]! << 24);
			}
			for (let i = body; i < count; i++) bytes[at + i] = from[i]!;
			return;
		}
		for (let i = 0; i < head; i++) this.packRgb(at + i, from[i]!);
		for (let i = head, w = ((at + head) * 3) >> 2; i < body; i += 4, w += 3) {
			const b = from[i + 1]!;
			const c = from[i + 2]!;
			words[w] = (from[i]! & 0xffffff) | (b << 24);
			words[w + 1] = ((b >>> 8) & 0xffff) | (c << 16);
			words[w + 2] = ((c >>> 16) & 0xff) | (from[i + 3]! << 8);
		}
		for (let i = body; i < count; i++) this.packRgb(at + i, from[i]!);
	}

	/** Pixels `at` to `at + count` as pixel words, into `to` from `toAt` on (opaque when packed without alpha). */
	unpack(at: number, count: number, to: Int32Array, toAt: number): void {
		const { channels, bytes, words } = this;
		if (channels === 4) {
			to.set(words.subarray(at, at + count), toAt);
			return;
		}
		const head = Math.min(count, (4 - (at & 3)) & 3);
		const body = head + ((count - head) & ~3);
		if (channels === 1) {
			for (let i = 0; i < head; i++) to[toAt + i] = grey(bytes[at + i]!);
			for (let i = head, w = (at + head) >> 2; i < body; i += 4, w++) {
				const v = words[w]!;
				to[toAt + i] = grey(v & 0xff);
				to[toAt + i + 1] = grey((v >>> 8) & 0xff);
				to[toAt + i + 2] = grey((v >>> 16) & 0xff);
				to[toAt + i + 3] = grey(v >>> 24);
			}
			for (let i = body; i < count; i++) to[toAt + i] = grey(bytes[at + i]!);
			return;
		}
		for (let i = 0; i < head; i++) to[toAt + i] = this.unpackRgb(at + i);
		for (let i = head, w = ((at + head) * 3) >> 2; i < body; i += 4, w += 3) {
			const a = words[w]!;
			const b = words[w + 1]!;
			const c = words[w + 2]!;
			to[toAt + i] = OPAQUE | a;
			to[toAt + i + 1] = OPAQUE | (a >>> 24) | (b << 8);
			to[toAt + i + 2] = OPAQUE | (b >>> 16) | (c << 16);
			to[toAt + i + 3] = OPAQUE | (c >>> 8);
		}
		for (let i = body; i < count; i++) to[toAt + i] = this.unpackRgb(at + i);
	}

	private packRgb(pixel: number, word: number): void {
		const at = pixel * 3;
		this.bytes[at] = word;
		this.bytes[at + 1] = word >>> 8;
		this.bytes[at + 2] = word >>> 16;
	}

	private unpackRgb(pixel: number): number {
		const { bytes } = this;
		const at = pixel * 3;
		return OPAQUE | (bytes[at + 2]! << 16) | (bytes[at + 1]! << 8) | bytes[at]!;
	}
}

const OPAQUE = 0xff000000 | 0;

function grey(v: number): number {
	return OPAQUE | (v * 0x010101);
}
