import { decodeFrame } from "../../src/pipeline/pixels/webp/vp8/frame";

/** A decoded frame's planes, chroma at half resolution rounded up. */
export interface YuvPlanes {
	y: Uint8Array;
	u: Uint8Array;
	v: Uint8Array;
}

/**
 * Decodes a VP8 key frame to full YUV 4:2:0 planes, exactly as the format defines them (what
 * `dwebp -yuv` writes). The reference the tests compare with: production decodes straight to RGBA.
 */
export function decodeVp8Yuv(vp8: Uint8Array, width: number, height: number): YuvPlanes {
	const cw = (width + 1) >> 1;
	const ch = (height + 1) >> 1;
	const planes = { y: new Uint8Array(width * height), u: new Uint8Array(cw * ch), v: new Uint8Array(cw * ch) };
	decodeFrame(vp8, width, height, (rows) => {
		for (let r = rows.from; r < rows.to; r++) {
			const at = (r - rows.yFirstRow) * rows.yStride;
			planes.y.set(rows.y.subarray(at, at + width), r * width);
		}
		// Each chroma row once: the one whose upper luma row is emitted now.
		for (let c = (rows.from + 1) >> 1; c < (rows.to + 1) >> 1; c++) {
			const at = (c - rows.cFirstRow) * rows.cStride;
			planes.u.set(rows.u.subarray(at, at + cw), c * cw);
			planes.v.set(rows.v.subarray(at, at + cw), c * cw);
		}
	});
	return planes;
}
