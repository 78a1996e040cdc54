import { WebpFormatError } from "../errors";
import type { BitReader } from "./bit-reader";
import { planeDistance } from "./distance";
import { prefixedValue } from "./entropy-coded";
import type { StreamHeader } from "./image-stream";
import { readSymbol } from "./prefix-code";

/**
 * libwebp codes an alpha plane as a VP8L image whose pixels all read `constant | level << 8`:
 * levels (or palette indices) in green, the same red, blue and alpha everywhere. When every
 * prefix group says so (one-symbol red, blue and alpha codes, the same symbols) and no predictor
 * mixes the channels, green alone can be decoded, one byte a pixel, at any spacing: straight
 * into the A bytes of a raster. Returns the constant, or undefined when the stream is not so.
 */
export function greenOnlyConstant(header: StreamHeader): number | undefined {
	if (header.transforms.some((t) => t.kind === "predictor")) return undefined;
	const constant = header.groups[0]!.fixedBits;
	const uniform = header.groups.every((g) => g.fixedChannels && g.fixedBits === constant);
	return uniform ? constant : undefined;
}

/**
 * Decodes the green channel of the stream's width x height pixels into out[offset + i * step]
 * (pixel i in row order), its header already read, `constant` from `greenOnlyConstant`.
 * Cross-colour and subtract-green leave green alone; a palette maps it.
 */
export function decodeGreenOnly(
	br: BitReader,
	header: StreamHeader,
	width: number,
	height: number,
	constant: number,
	out: Uint8Array,
	offset: number,
	step: number,
): void {
	const { codedWidth, groups, map, cacheBits } = header;
	const total = codedWidth * height;
	if (offset + (width * height - 1) * step >= out.length) throw new RangeError("output too small for the VP8L image");
	// The cache hashes whole ARGB values; every pixel's is constant | green << 8.
	const cache = new Int32Array(cacheBits > 0 ? 1 << cacheBits : 0);
	const cacheShift = 32 - cacheBits;
	const remember = (green: number) => {
		if (cacheBits > 0) {
			const argb = constant | (green << 8);
			cache[Math.imul(argb, 0x1e35a7bd) >>> cacheShift] = argb;
		}
	};
	const groupAt = (pos: number) => {
		if (!map) return groups[0]!;
		const x = pos % codedWidth;
		const y = (pos - x) / codedWidth;
		return groups[map.groups[(y >> map.bits) * map.width + (x >> map.bits)]!]!;
	};
	const blockMask = map ? (1 << map.bits) - 1 : -1;
	let group = groupAt(0);
	for (let pos = 0, x = 0; pos < total; ) {
		if ((x & blockMask) === 0) group = groupAt(pos);
		const code = readSymbol(br, group.green);
		if (code < 256 || code >= 280) {
			const green = code < 256 ? code : (cache[code - 280]! >> 8) & 0xff;
			out[offset + pos * step] = green;
			remember(green);
			pos++;
			if (++x === codedWidth) {
				x = 0;
				br.checkEnd();
			}
			continue;
		}
		const length = prefixedValue(br, code - 256);
		const distance = planeDistance(prefixedValue(br, readSymbol(br, group.distance)), codedWidth);
		if (distance > pos || length > total - pos) throw new WebpFormatError("VP8L copy outside the image");
		for (let end = pos + length; pos < end; pos++) {
			const green = out[offset + (pos - distance) * step]!;
			out[offset + pos * step] = green;
			remember(green);
		}
		x = pos % codedWidth;
		group = groupAt(pos);
		br.checkEnd();
	}
	br.checkEnd();
	const indexing = header.transforms.find((t) => t.kind === "colour-indexing");
	if (indexing?.kind === "colour-indexing") {
		expandIndices(out, offset, step, width, height, indexing.bundleBits, indexing.palette);
	}
}

/** The colour-indexing transform on green alone, from the last pixel back, as in transforms.ts. */
function expandIndices(
	out: Uint8Array,
	offset: number,
	step: number,
	width: number,
	height: number,
	bundleBits: number,
	palette: Int32Array,
): void {
	const codedWidth = (width + (1 << bundleBits) - 1) >> bundleBits;
	const bitsPerIndex = 8 >> bundleBits;
	const indexMask = (1 << bitsPerIndex) - 1;
	const perPixelMask = (1 << bundleBits) - 1;
	for (let y = height - 1; y >= 0; y--) {
		for (let x = width - 1; x >= 0; x--) {
			const packed = out[offset + (y * codedWidth + (x >> bundleBits)) * step]!;
			const index = (packed >> ((x & perPixelMask) * bitsPerIndex)) & indexMask;
			out[offset + (y * width + x) * step] = palette[index]! >> 8;
		}
	}
}
