import { freeBuffer } from "../free-buffer";
import type { Box, Raster, RowSink } from "../types";

/**
 * Bytes of RGBA a decoder gathers before handing rows to the sink: enough that a narrow image is
 * not handed out a row at a time (a 1-pixel-wide image has millions of rows), small beside the image.
 */
const BAND_BYTES = 64 * 1024;

/** Rows per band for an image `width` pixels wide: at least one, at most the image. */
export function bandRows(width: number, height: number): number {
	return Math.max(1, Math.min(height, Math.floor(BAND_BYTES / (width * 4))));
}

/** Per image row, the columns from..to-1 that some wanted box holds there (none: from = to = 0). */
export interface WantedSpans {
	from: Int32Array;
	to: Int32Array;
}

/**
 * The columns of each row that the boxes of `wanted` hold (one span a row: from the leftmost box
 * to the rightmost), so that a decode for boxes (decode.ts `decodeRows`) need not turn the rest
 * into pixels. Undefined when everything is: no boxes given, or none (as image-rows.ts reads them).
 */
export function wantedSpans(
	width: number,
	height: number,
	wanted: readonly Box[] | undefined,
): WantedSpans | undefined {
	if (!wanted || wanted.length === 0) return undefined;
	const from = new Int32Array(height).fill(width);
	const to = new Int32Array(height);
	for (const box of wanted) {
		const x0 = Math.max(0, box.x0);
		const x1 = Math.min(width, box.x1);
		if (x0 >= x1) continue;
		for (let y = Math.max(0, box.y0); y < Math.min(height, box.y1); y++) {
			from[y] = Math.min(from[y]!, x0);
			to[y] = Math.max(to[y]!, x1);
		}
	}
	for (let y = 0; y < height; y++) if (to[y] === 0) from[y] = 0;
	return { from, to };
}

/** Hands a decoded raster to the sink in bands, as views of it: no copy. */
export function emitRaster(raster: Raster, sink: RowSink): void {
	const { width, height, data } = raster;
	const step = bandRows(width, height);
	for (let y = 0; y < height; y += step) {
		const count = Math.min(step, height - y);
		sink.rows(y, count, data.subarray(y * width * 4, (y + count) * width * 4));
	}
}

/**
 * emitRaster for a raster decoded for this pass alone (interlaced PNG, lossless WebP), which is
 * freed once its rows are handed out or the sink stops early: the next pass decodes a new one, and
 * two whole images must not be alive while the collector catches up.
 */
export function emitPassRaster(raster: Raster, sink: RowSink): void {
	try {
		emitRaster(raster, sink);
	} finally {
		freeBuffer(raster.data);
	}
}

/** A sink that copies the rows into one raster: for the code that still wants the whole image. */
export function rasterSink(width: number, height: number): RowSink & { raster: Raster; complete(): boolean } {
	const raster = { width, height, data: new Uint8Array(width * height * 4) };
	let next = 0;
	return {
		raster,
		rows(y, count, rgba) {
			raster.data.set(rgba.subarray(0, count * width * 4), y * width * 4);
			next = y + count;
		},
		complete: () => next === height,
	};
}
