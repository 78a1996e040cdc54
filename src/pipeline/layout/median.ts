import type { Box } from "../types";

/**
 * Per-channel medians of RGBA pixels by 256-bin histograms: linear time and no arrays of
 * numbers to sort, which matters when a region holds tens of thousands of pixels.
 */
export function medianRgba(data: Uint8Array, pixels: Int32Array, count = pixels.length): number[] | undefined {
	if (count === 0) return undefined;
	const histograms = new Uint32Array(4 * 256);
	for (let k = 0; k < count; k++) {
		const i = pixels[k]! * 4;
		histograms[data[i]!]!++;
		histograms[256 + data[i + 1]!]!++;
		histograms[512 + data[i + 2]!]!++;
		histograms[768 + data[i + 3]!]!++;
	}
	return histogramMedian(histograms, count);
}

/**
 * Per-channel medians of `count` RGBA pixels counted in `histograms` (four of 256 bins, R, G, B, A),
 * or undefined when none were.
 */
export function histogramMedian(histograms: Uint32Array, count: number): number[] | undefined {
	if (count === 0) return undefined;
	const half = count >> 1;
	const out = [0, 0, 0, 0];
	for (let c = 0; c < 4; c++) {
		let seen = 0;
		for (let v = 0; v < 256; v++) {
			seen += histograms[c * 256 + v]!;
			if (seen > half) {
				out[c] = v;
				break;
			}
		}
	}
	return out;
}

/**
 * Indices of the pixels where `mask` is set, in order. `within`: the box (of a mask `width` wide)
 * every set pixel lies in, the only part walked.
 */
export function maskedPixels(mask: Uint8Array, within?: { width: number; box: Box }): Int32Array {
	const w = within?.width ?? mask.length;
	const { x0, y0, x1, y1 } = within?.box ?? { x0: 0, y0: 0, x1: mask.length, y1: 1 };
	let count = 0;
	for (let y = y0; y < y1; y++) for (let i = y * w + x0, end = y * w + x1; i < end; i++) if (mask[i]) count++;
	const out = new Int32Array(count);
	let k = 0;
	for (let y = y0; y < y1; y++) for (let i = y * w + x0, end = y * w + x1; i < end; i++) if (mask[i]) out[k++] = i;
	return out;
}
