import { WebpFormatError } from "../errors";
import type { BitReader } from "./bit-reader";
import { planeDistance } from "./distance";
import { isSingleSymbol, ROOT_BITS, readPrefixCode, readPrefixLengths, readSymbol, tableShape } from "./prefix-code";

/** The five prefix codes that code one area of the image (RFC 9649 section 3.7.2.2). */
export interface PrefixGroup {
	/** Green literals, then 24 LZ77 length prefixes, then colour cache indices. */
	green: Int32Array;
	red: Int32Array;
	blue: Int32Array;
	alpha: Int32Array;
	distance: Int32Array;
	/**
	 * Whether red, blue and alpha codes have one symbol each (common in grey, opaque images
	 * after subtract-green): literals then cost one green symbol, the rest is `fixedBits`.
	 */
	fixedChannels: boolean;
	fixedBits: number;
}

/** Which group codes each block of the image: the meta prefix codes. */
export interface GroupMap {
	/** Group index per block, row by row. */
	groups: Uint16Array;
	/** Blocks are 2^bits pixels square. */
	bits: number;
	/** Blocks per row. */
	width: number;
}

const LENGTH_PREFIXES = 24;
const ROOT_MASK = (1 << ROOT_BITS) - 1;

/** Reads one group's five codes; green's alphabet grows by the colour cache's size. */
export function readGroup(br: BitReader, cacheBits: number): PrefixGroup {
	const cacheSize = cacheBits > 0 ? 1 << cacheBits : 0;
	const green = readPrefixCode(br, 256 + LENGTH_PREFIXES + cacheSize);
	const red = readPrefixCode(br, 256);
	const blue = readPrefixCode(br, 256);
	const alpha = readPrefixCode(br, 256);
	const distance = readPrefixCode(br, 40);
	const fixedChannels = [red, blue, alpha].every(isSingleSymbol);
	const fixedBits = ((alpha[0]! >> 8) << 24) | ((red[0]! >> 8) << 16) | (blue[0]! >> 8);
	return { green, red, blue, alpha, distance, fixedChannels, fixedBits };
}

/**
 * What a group would cost without building it: its tables' entries (4 bytes each), and whether it
 * decodes red, blue and alpha without reading a bit (then `fixedBits`, as `readGroup` would set it).
 */
export interface GroupShape {
	entries: number;
	fixedChannels: boolean;
	fixedBits: number;
}

/** Reads one group's five codes as `readGroup` does, measuring their tables instead of building them. */
export function measureGroup(br: BitReader, cacheBits: number): GroupShape {
	const cacheSize = cacheBits > 0 ? 1 << cacheBits : 0;
	const green = tableShape(readPrefixLengths(br, 256 + LENGTH_PREFIXES + cacheSize));
	const red = tableShape(readPrefixLengths(br, 256));
	const blue = tableShape(readPrefixLengths(br, 256));
	const alpha = tableShape(readPrefixLengths(br, 256));
	const distance = tableShape(readPrefixLengths(br, 40));
	const fixedChannels = red.lone >= 0 && blue.lone >= 0 && alpha.lone >= 0;
	const fixedBits = fixedChannels ? (alpha.lone << 24) | (red.lone << 16) | blue.lone : 0;
	const entries = green.entries + red.entries + blue.entries + alpha.entries + distance.entries;
	return { entries, fixedChannels, fixedBits };
}

/** Table entries of a built group. */
export function groupEntries(group: PrefixGroup): number {
	return group.green.length + group.red.length + group.blue.length + group.alpha.length + group.distance.length;
}

/** Optional colour cache size in bits (0 for none): 1 bit present, then 4 bits from 1 to 11. */
export function readCacheBits(br: BitReader): number {
	if (br.read(1) === 0) return 0;
	const bits = br.read(4);
	if (bits < 1 || bits > 11) throw new WebpFormatError("VP8L colour cache size out of range");
	return bits;
}

/**
 * Decodes `width` x `height` ARGB pixels into `out` (row after row, no padding): literals,
 * LZ77 copies of earlier pixels and colour cache hits.
 *
 * This loop runs once per pixel of images up to 25 MP, so it keeps the bit reader's state in
 * local variables and decodes literal symbols inline (the steps of `readSymbol`), handing the
 * state back to the reader only around the rarer copies.
 */
export function decodeEntropyCoded(
	br: BitReader,
	out: Int32Array,
	width: number,
	height: number,
	groups: PrefixGroup[],
	map: GroupMap | undefined,
	cacheBits: number,
): void {
	const total = width * height;
	if (out.length < total) throw new RangeError("output too small for the VP8L image");
	const cache = new Int32Array(cacheBits > 0 ? 1 << cacheBits : 0);
	const cacheShift = 32 - cacheBits;
	const hasCache = cacheBits > 0;
	const blockMask = map ? (1 << map.bits) - 1 : -1;
	const data = br.data;
	const end = data.length;
	const lastPos = end * 8;

	let window = br.window;
	let count = br.count;
	let next = br.pos;
	let pos = 0;
	let x = 0;
	let y = 0;
	let group = groups[0]!;
	while (pos < total) {
		if ((x & blockMask) === 0 && map) group = groups[map.groups[(y >> map.bits) * map.width + (x >> map.bits)]!]!;
		let table = group.green;
		// Inline readSymbol: top up to >= 24 bits, root lookup, optional second level, consume.
		if (count < 15) {
			while (count <= 23) {
				window |= (next < end ? data[next]! : 0) << count;
				next++;
				count += 8;
			}
		}
		let entry = table[window & ROOT_MASK]!;
		if ((entry & 0xff) > ROOT_BITS) {
			window >>= ROOT_BITS;
			count -= ROOT_BITS;
			entry = table[(entry >> 8) + (window & ((1 << ((entry & 0xff) - ROOT_BITS)) - 1))]!;
		}
		window >>= entry & 0xff;
		count -= entry & 0xff;
		const code = entry >> 8;

		if (code >= 256 && code < 256 + LENGTH_PREFIXES) {
			br.window = window;
			br.count = count;
			br.pos = next;
			const length = prefixedValue(br, code - 256);
			const distance = planeDistance(prefixedValue(br, readSymbol(br, group.distance)), width);
			window = br.window;
			count = br.count;
			next = br.pos;
			if (distance > pos || length > total - pos) throw new WebpFormatError("VP8L copy outside the image");
			// Copies may overlap what they write (a run repeats its pattern): copy forwards.
			for (let from = pos - distance, stop = pos + length; pos < stop; pos++, from++) {
				const argb = out[from]!;
				out[pos] = argb;
				if (hasCache) cache[Math.imul(argb, 0x1e35a7bd) >>> cacheShift] = argb;
			}
			x += length;
			if (x >= width) {
				y += Math.floor(x / width);
				x %= width;
				if (next * 8 - count > lastPos) throw new WebpFormatError("VP8L data is truncated");
			}
			if (map) group = groups[map.groups[(y >> map.bits) * map.width + (x >> map.bits)]!]!;
			continue;
		}

		let argb: number;
		if (code >= 256) {
			argb = cache[code - 256 - LENGTH_PREFIXES]!;
		} else if (group.fixedChannels) {
			argb = group.fixedBits | (code << 8);
		} else {
			argb = code << 8;
			for (let channel = 0; channel < 3; channel++) {
				table = channel === 0 ? group.red : channel === 1 ? group.blue : group.alpha;
				if (count < 15) {
					while (count <= 23) {
						window |= (next < end ? data[next]! : 0) << count;
						next++;
						count += 8;
					}
				}
				entry = table[window & ROOT_MASK]!;
				if ((entry & 0xff) > ROOT_BITS) {
					window >>= ROOT_BITS;
					count -= ROOT_BITS;
					entry = table[(entry >> 8) + (window & ((1 << ((entry & 0xff) - ROOT_BITS)) - 1))]!;
				}
				window >>= entry & 0xff;
				count -= entry & 0xff;
				argb |= (entry >> 8) << (channel === 0 ? 16 : channel === 1 ? 0 : 24);
			}
		}
		out[pos++] = argb;
		if (hasCache) cache[Math.imul(argb, 0x1e35a7bd) >>> cacheShift] = argb;
		if (++x === width) {
			x = 0;
			y++;
			if (next * 8 - count > lastPos) throw new WebpFormatError("VP8L data is truncated");
		}
	}
	br.window = window;
	br.count = count;
	br.pos = next;
	br.checkEnd();
}

/** LZ77 length or distance code from its prefix symbol and extra bits (RFC 9649 section 3.6.2.2). */
export function prefixedValue(br: BitReader, prefix: number): number {
	if (prefix < 4) return prefix + 1;
	const extraBits = (prefix - 2) >> 1;
	return ((2 + (prefix & 1)) << extraBits) + br.read(extraBits) + 1;
}
