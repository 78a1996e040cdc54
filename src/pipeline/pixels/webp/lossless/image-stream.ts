import { WebpFormatError } from "../errors";
import type { BitReader } from "./bit-reader";
import {
	decodeEntropyCoded,
	type GroupMap,
	type GroupShape,
	groupEntries,
	measureGroup,
	type PrefixGroup,
	readCacheBits,
	readGroup,
} from "./entropy-coded";
import { readTransforms, type Transform, undoTransforms } from "./transforms";

/** What precedes a VP8L image stream's pixels (RFC 9649 section 5). */
export interface StreamHeader {
	transforms: Transform[];
	/** Width of the entropy-coded image: narrower than the image's when palette indices are bundled. */
	codedWidth: number;
	cacheBits: number;
	map: GroupMap | undefined;
	groups: PrefixGroup[];
}

/** What decoding a stream holds besides its pixels, read from its header by `measureStreamHeader`. */
export interface StreamCost {
	/** Sub-images (transform data, palette, group map), in bytes. */
	subImageBytes: number;
	/** Prefix tables and the colour cache, in bytes. */
	tableBytes: number;
	/** Every group codes red, blue and alpha as one constant and no predictor mixes the channels: see green-only.ts. */
	greenOnly: boolean;
}

/**
 * Lookup tables of all groups together may take this many entries (4 bytes each, 16 MB): libwebp's
 * encoder stays far below it (it makes at most a few thousand groups); more is a file built to
 * exhaust memory.
 */
const MAX_TABLE_ENTRIES = 1 << 22;

/**
 * A VP8L image stream: transforms, colour cache, meta prefix codes, then the entropy-coded
 * pixels. Decoded straight into `out` (ARGB, one number per pixel, or RGBA bytes with
 * `toRgba`), which must hold width x height pixels; the transforms are undone in place.
 */
export function decodeImageStream(br: BitReader, width: number, height: number, out: Int32Array, toRgba = false): void {
	decodeStreamPixels(br, readStreamHeader(br, width, height), width, height, out, toRgba);
}

export function readStreamHeader(br: BitReader, width: number, height: number): StreamHeader {
	const { transforms, codedWidth, cacheBits, map, groups } = readHeader(br, width, height, readGroup, groupEntries);
	return { transforms, codedWidth, cacheBits, map, groups };
}

/**
 * Reads a stream's header as `readStreamHeader` does (sub-images decoded, every code read and
 * checked) without building its prefix tables, and says what the decode will hold besides its
 * pixels: what the probe prices a lossless WebP or alpha plane at before the call is accepted.
 */
export function measureStreamHeader(br: BitReader, width: number, height: number): StreamCost {
	const header = readHeader(br, width, height, measureGroup, (g: GroupShape) => g.entries);
	const entries = header.groups.reduce((n, g) => n + g.entries, 0);
	const constant = header.groups[0]!.fixedBits;
	const greenOnly =
		!header.transforms.some((t) => t.kind === "predictor") &&
		header.groups.every((g) => g.fixedChannels && g.fixedBits === constant);
	const tableBytes = entries * 4 + (header.cacheBits ? 4 << header.cacheBits : 0);
	return { subImageBytes: header.subImageBytes, tableBytes, greenOnly };
}

/** The rest of `decodeImageStream`, once its header is read. */
export function decodeStreamPixels(
	br: BitReader,
	header: StreamHeader,
	width: number,
	height: number,
	out: Int32Array,
	toRgba: boolean,
): void {
	decodeEntropyCoded(br, out, header.codedWidth, height, header.groups, header.map, header.cacheBits);
	undoTransforms(out, width, height, header.transforms, toRgba);
}

/** The header, with groups read by `readOne` (built or measured), and the bytes its sub-images took. */
function readHeader<G>(
	br: BitReader,
	width: number,
	height: number,
	readOne: (br: BitReader, cacheBits: number) => G,
	entriesOf: (group: G) => number,
) {
	let subImageBytes = 0;
	const subImage = (br: BitReader, w: number, h: number) => {
		subImageBytes += w * h * 4;
		return decodeSubImage(br, w, h);
	};
	const { transforms, codedWidth } = readTransforms(br, width, height, subImage);
	const cacheBits = readCacheBits(br);
	const map = br.read(1) === 1 ? readGroupMap(br, codedWidth, height, subImage) : undefined;
	if (map) subImageBytes += map.groups.length * 2;
	const groups = map ? readMappedGroups(br, map, cacheBits, readOne, entriesOf) : [readOne(br, cacheBits)];
	return { transforms, codedWidth, cacheBits, map, groups, subImageBytes };
}

/** Transform data, palettes and the group map: no transforms, no meta codes, one group. */
function decodeSubImage(br: BitReader, width: number, height: number): Int32Array {
	const cacheBits = readCacheBits(br);
	const group = readGroup(br, cacheBits);
	const pixels = new Int32Array(width * height);
	decodeEntropyCoded(br, pixels, width, height, [group], undefined, cacheBits);
	return pixels;
}

/**
 * Reads every group the stream holds but keeps only those the map uses, renumbering the map. A
 * stream may declare up to 65536 groups, but never usefully more than the map has blocks: a 4x4
 * image declaring 65536 groups (seconds of reading for 16 pixels) is refused, as are tables past
 * `MAX_TABLE_ENTRIES`, counting those of unused groups (every table has at least 256 entries, so
 * at most 3276 groups are ever read).
 */
function readMappedGroups<G>(
	br: BitReader,
	map: GroupMap,
	cacheBits: number,
	readOne: (br: BitReader, cacheBits: number) => G,
	entriesOf: (group: G) => number,
): G[] {
	let declared = 0;
	for (const g of map.groups) declared = Math.max(declared, g + 1);
	if (declared > map.groups.length) throw new WebpFormatError("VP8L declares more prefix groups than it has blocks");
	const renumbered = new Int32Array(declared).fill(-1);
	for (const g of map.groups) renumbered[g] = 0;
	const groups: G[] = [];
	let entries = 0;
	for (let g = 0; g < declared; g++) {
		const group = readOne(br, cacheBits);
		// Groups the map does not use are read all the same: they count, so that reading them is bounded too.
		entries += entriesOf(group);
		if (entries > MAX_TABLE_ENTRIES) throw new WebpFormatError("VP8L prefix tables exceed the memory budget");
		if (renumbered[g] === -1) continue;
		renumbered[g] = groups.length;
		groups.push(group);
	}
	for (let i = 0; i < map.groups.length; i++) map.groups[i] = renumbered[map.groups[i]!]!;
	return groups;
}

/** The meta prefix codes: a sub-image whose red and green give each block's group index. */
function readGroupMap(
	br: BitReader,
	width: number,
	height: number,
	subImage: (br: BitReader, w: number, h: number) => Int32Array,
): GroupMap {
	const bits = br.read(3) + 2;
	const blocksWide = (width + (1 << bits) - 1) >> bits;
	const blocksHigh = (height + (1 << bits) - 1) >> bits;
	const image = subImage(br, blocksWide, blocksHigh);
	const groups = new Uint16Array(image.length);
	for (let i = 0; i < image.length; i++) groups[i] = (image[i]! >> 8) & 0xffff;
	return { groups, bits, width: blocksWide };
}
