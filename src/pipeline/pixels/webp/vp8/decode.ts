import { decodeFrame } from "./frame";
import { RgbaRowWriter } from "./yuv-to-rgba";

/**
 * Decodes a lossy WebP image's VP8 chunk payload (starting with the 3-byte frame tag) into RGBA:
 * row y goes to out[outOffset + y * outStride], R, G, B and A = 255, and nothing else is written, so
 * an animation frame lands at its place on the canvas. Besides `out` it holds only a
 * few macroblock rows of YUV. Throws Vp8FormatError if the data is broken or cut short, or if the
 * frame is not width x height.
 */
export function decodeVp8(
	vp8: Uint8Array,
	width: number,
	height: number,
	out: Uint8Array,
	outOffset: number,
	outStride: number,
): void {
	if (outOffset < 0 || outStride < width * 4 || outOffset + (height - 1) * outStride + width * 4 > out.length) {
		throw new RangeError("decodeVp8: output buffer too small");
	}
	const writer = new RgbaRowWriter(width, out, outOffset, outStride);
	const chromaRows = (height + 1) >> 1;
	decodeFrame(vp8, width, height, (rows) => {
		for (let r = rows.from; r < rows.to; r++) {
			// Chroma row k sits between luma rows 2k and 2k+1: even rows blend in the one above, odd the one below.
			const near = r >> 1;
			let far = r & 1 ? near + 1 : near - 1;
			if (far < 0) far = 0;
			if (far >= chromaRows) far = chromaRows - 1;
			const nearAt = (near - rows.cFirstRow) * rows.cStride;
			const farAt = (far - rows.cFirstRow) * rows.cStride;
			writer.write(r, rows.y, (r - rows.yFirstRow) * rows.yStride, rows.u, nearAt, farAt, rows.v, nearAt, farAt);
		}
	});
}
