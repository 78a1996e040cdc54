import type { Raster } from "../../../types";
import { WebpFormatError } from "../errors";
import { BitReader } from "./bit-reader";
import { decodeImageStream, measureStreamHeader } from "./image-stream";

const SIGNATURE = 0x2f;

/** Size of a VP8L bitstream from its 5-byte header (RFC 9649 section 3.2). */
export function vp8lSize(data: Uint8Array): { width: number; height: number } {
	if (data.length < 5 || data[0] !== SIGNATURE) throw new WebpFormatError("VP8L signature missing");
	const br = new BitReader(data, 1);
	const width = br.read(14) + 1;
	const height = br.read(14) + 1;
	br.read(1); // alpha_is_used: a hint only, the pixels carry their alpha anyway
	if (br.read(3) !== 0) throw new WebpFormatError("VP8L version is not 0");
	return { width, height };
}

/**
 * Decodes a VP8L bitstream into a new RGBA raster. The pixels are decoded as ARGB numbers in
 * the raster's own memory and then put in RGBA byte order in place: no second copy.
 */
export function decodeVp8l(data: Uint8Array): Raster {
	const { width, height } = vp8lSize(data);
	const rgba = new Uint8Array(width * height * 4);
	decodeImageStream(new BitReader(data, 5), width, height, new Int32Array(rgba.buffer), true);
	return { width, height, data: rgba };
}

/**
 * Bytes decoding a VP8L bitstream holds: its ARGB pixels (4 a pixel, turned into the RGBA raster
 * in place) and sub-images (`memory`), its prefix tables (`fixedMemory`). Reads and checks the
 * whole header.
 */
export function vp8lHeldBytes(data: Uint8Array): { memory: number; fixedMemory: number } {
	const { width, height } = vp8lSize(data);
	const cost = measureStreamHeader(new BitReader(data, 5), width, height);
	return { memory: width * height * 4 + cost.subImageBytes, fixedMemory: cost.tableBytes };
}
