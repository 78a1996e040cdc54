import { decodeFrame } from "./frame";
import { RgbaRowWriter } from "./yuv-to-rgba";

/** The most rows one macroblock row finishes: the last one finishes its own 16 and the 8 carried. */
export const VP8_BAND_ROWS = 24;

/**
 * Decodes a lossy WebP image's VP8 chunk payload (starting with the 3-byte frame tag) to RGBA rows,
 * A = 255, a macroblock row at a time: `onRows(from, to, rgba)` gets frame rows [from, to) at the
 * start of `rgba` (width * 4 bytes a row, valid only during the call). Besides that band it holds
 * a few macroblock rows of YUV. Throws Vp8FormatError if the data is broken or cut short, or if
 * the frame is not width x height.
 */
export function decodeVp8Rows(
	vp8: Uint8Array,
	width: number,
	height: number,
	onRows: (from: number, to: number, rgba: Uint8Array) => void,
): void {
	const band = new Uint8Array(width * VP8_BAND_ROWS * 4);
	const writer = new RgbaRowWriter(width, band, 0, width * 4);
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
			const yAt = (r - rows.yFirstRow) * rows.yStride;
			writer.write(r - rows.from, rows.y, yAt, rows.u, nearAt, farAt, rows.v, nearAt, farAt);
		}
		onRows(rows.from, rows.to, band.subarray(0, (rows.to - rows.from) * width * 4));
	});
}
