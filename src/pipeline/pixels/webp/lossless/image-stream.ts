import { WebpUnsupported } from "../errors";
import type { BitReader } from "./bit-reader";
import { decodeEntropyCoded, type GroupMap, type PrefixGroup, readCacheBits, readGroup } from "./entropy-coded";
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

/**
 * A VP8L image stream: transforms, colour cache, meta prefix codes, then the entropy-coded
 * pixels. Decoded straight into `out` (ARGB, one number per pixel, or RGBA bytes with
 * `toRgba`), which must hold width x height pixels; the transforms are undone in place.
 */
export function decodeImageStream(br: BitReader, width: number, height: number, out: Int32Array, toRgba = false): void {
	decodeStreamPixels(br, readStreamHeader(br, width, height), width, height, out, toRgba);
}

export function readStreamHeader(br: BitReader, width: number, height: number): StreamHeader {
	const { transforms, codedWidth } = readTransforms(br, width, height, decodeSubImage);
	const cacheBits = readCacheBits(br);
	const map = br.read(1) === 1 ? readGroupMap(br, codedWidth, height) : undefined;
	const groups = map ? readMappedGroups(br, map, cacheBits) : [readGroup(br, cacheBits)];
	return { transforms, codedWidth, cacheBits, map, groups };
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

/** Transform data, palettes and the group map: no transforms, no meta codes, one group. */
function decodeSubImage(br: BitReader, width: number, height: number): Int32Array {
	const cacheBits = readCacheBits(br);
	const group = readGroup(br, cacheBits);
	const pixels = new Int32Array(width * height);
	decodeEntropyCoded(br, pixels, width, height, [group], undefined, cacheBits);
	return pixels;
}

/** Lookup tables of all groups together may take this many entries (4 bytes each). */
const MAX_TABLE_ENTRIES = 1 << 22;

/**
 * Reads every group the stream holds but keeps only those the map uses, renumbering the map:
 * a stream may declare up to 65536 groups. Tables past the budget are refused as unsupported
 * (libwebp's encoder stays far below it), so that another decoder can try a small image.
 */
function readMappedGroups(br: BitReader, map: GroupMap, cacheBits: number): PrefixGroup[] {
	let declared = 0;
	for (const g of map.groups) declared = Math.max(declared, g + 1);
	const renumbered = new Int32Array(declared).fill(-1);
	for (const g of map.groups) renumbered[g] = 0;
	const groups: PrefixGroup[] = [];
	let entries = 0;
	for (let g = 0; g < declared; g++) {
		const group = readGroup(br, cacheBits);
		if (renumbered[g] === -1) continue;
		entries += group.green.length + group.red.length + group.blue.length + group.alpha.length;
		if (entries > MAX_TABLE_ENTRIES) throw new WebpUnsupported("VP8L prefix tables exceed the memory budget");
		renumbered[g] = groups.length;
		groups.push(group);
	}
	for (let i = 0; i < map.groups.length; i++) map.groups[i] = renumbered[map.groups[i]!]!;
	return groups;
}

/** The meta prefix codes: a sub-image whose red and green give each block's group index. */
function readGroupMap(br: BitReader, width: number, height: number): GroupMap {
	const bits = br.read(3) + 2;
	const blocksWide = (width + (1 << bits) - 1) >> bits;
	const blocksHigh = (height + (1 << bits) - 1) >> bits;
	const image = decodeSubImage(br, blocksWide, blocksHigh);
	const groups = new Uint16Array(image.length);
	for (let i = 0; i < image.length; i++) groups[i] = (image[i]! >> 8) & 0xffff;
	return { groups, bits, width: blocksWide };
}
