/**
 * The seam between the WebP container and the lossy (VP8) decoder.
 *
 * A `LossyDecoder` decodes the key frame in `vp8` (the payload of a "VP8 " chunk), whose size
 * the container has read from its header as `width` x `height`, and writes it as RGBA with
 * A = 255 into `out`: row y starts at byte `outOffset + y * outStride`. It writes nothing
 * outside those rows' first 4 * width bytes, and throws an Error on broken or truncated data.
 * Writing into the caller's raster lets an animation frame land at its place on the canvas.
 */
export type LossyDecoder = (
	vp8: Uint8Array,
	width: number,
	height: number,
	out: Uint8Array,
	outOffset: number,
	outStride: number,
) => void;
