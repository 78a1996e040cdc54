import type { RowSink } from "../../types";
import type { McuGrid } from "./container";
import type { PixelSpan } from "./output";
import type { WantedMcus } from "./wanted-mcus";

/**
 * Where a JPEG decoder writes each MCU row's pixels (one int32 of RGBA each): image row y lands at
 * pixels[(y - firstRow(y0)) * width] while MCU row y0.. is written; `written` says the rows are done.
 */
export interface McuRowTarget {
	grid: McuGrid;
	pixels: Int32Array;
	firstRow(y0: number): number;
	written(y0: number, y1: number): void;
	/** Only these pixels are wanted (a window of a turned image); all of them when absent. */
	span?: PixelSpan;
	/** Only these MCUs are turned into pixels (pass 2's crops); the other pixels are left as they were. */
	wanted?: WantedMcus;
	/** Each block's side becomes this many pixels: 8, or 4 for the image at half its size (a reader's copy). */
	block: 8 | 4;
}

/** The pixel columns of MCU row `my` a decode writes: the span's, or the wanted MCUs' runs. */
export function writtenColumns(target: McuRowTarget, width: number, my: number): readonly number[] | undefined {
	const { wanted } = target;
	if (!wanted) return undefined;
	const w = 8 * target.grid.hmax;
	return wanted.runs(my).map((mx, i) => (i % 2 === 0 ? mx * w : Math.min(width, mx * w)));
}

/**
 * The MCUs a decode into `span` goes through: those holding its pixels (`spanMcusInside`), with
 * the MCU row above the first (whose last chroma row the upsampling reads) and one column either
 * side. Of those around, only the subsampled planes' blocks are read (`McuMargin`).
 */
export function spanMcus(grid: McuGrid, span: PixelSpan | undefined): PixelSpan {
	const inside = spanMcusInside(grid, span);
	if (!span) return inside;
	return {
		x0: Math.max(0, inside.x0 - 1),
		x1: Math.min(grid.mcusX, inside.x1 + 1),
		y0: Math.max(0, inside.y0 - 1),
		y1: inside.y1,
	};
}

/** The MCUs that hold pixels of `span` (all of them without one). */
export function spanMcusInside(grid: McuGrid, span: PixelSpan | undefined): PixelSpan {
	if (!span) return { x0: 0, x1: grid.mcusX, y0: 0, y1: grid.mcusY };
	const w = 8 * grid.hmax;
	const h = 8 * grid.vmax;
	return {
		x0: Math.floor(span.x0 / w),
		x1: Math.min(grid.mcusX, Math.ceil(span.x1 / w)),
		y0: Math.floor(span.y0 / h),
		y1: Math.min(grid.mcusY, Math.ceil(span.y1 / h)),
	};
}

/** Into a whole raster whose pixels are `pixels`. */
export function rasterTarget(grid: McuGrid, pixels: Int32Array): McuRowTarget {
	return { grid, pixels, block: 8, firstRow: () => 0, written: () => {} };
}

/**
 * Into one MCU row's band, handed to the sink as soon as it is written; `mirror` reverses each row
 * (EXIF orientation 2), which needs nothing more than the band. `width` is the output's (half the
 * image's, rounded up, when `block` is 4).
 */
export function bandTarget(
	grid: McuGrid,
	width: number,
	sink: RowSink,
	{ mirror = false, wanted, block = 8 }: { mirror?: boolean; wanted?: WantedMcus; block?: 8 | 4 } = {},
): McuRowTarget {
	const bytes = new Uint8Array(width * block * grid.vmax * 4);
	const pixels = new Int32Array(bytes.buffer);
	return {
		grid,
		pixels,
		wanted,
		block,
		firstRow: (y0) => y0,
		written(y0, y1) {
			if (mirror) for (let r = 0; r < y1 - y0; r++) pixels.subarray(r * width, (r + 1) * width).reverse();
			sink.rows(y0, y1 - y0, bytes.subarray(0, (y1 - y0) * width * 4));
		},
	};
}
