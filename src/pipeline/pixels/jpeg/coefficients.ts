import type { McuGrid } from "./container";

/**
 * Where a multi-scan (progressive, or sequential with one scan per component) JPEG keeps its
 * quantised coefficients until the last scan: in the tail of the very buffer that becomes the
 * RGBA raster, so that the decode needs one allocation, not coefficients and raster side by side.
 *
 * Layout. The coefficients are Int16, 64 per block, grouped by MCU row: for MCU row m, component 0's
 * `v` block rows, then component 1's, and so on. One MCU row takes C bytes. The store starts at
 * T = S − mcusY·C, so MCU row m's coefficients start at S − (mcusY − m)·C.
 *
 * In-place conversion. MCU rows are turned into pixels top to bottom; converting row m writes the
 * raster up to E(m) = min(height, (m + 1)·8·vmax)·width·4 bytes. The buffer size is
 *   S = max over m of E(m) + (mcusY − m)·C,
 * so for every m, E(m) ≤ S − (mcusY − m)·C: the pixels of rows 0..m end before the coefficients
 * of row m begin, and rows after m lie further on. No write ever lands on a coefficient not yet
 * converted, and the raster is the buffer's first width·height·4 bytes.
 *
 * What it costs. Per pixel, the raster takes R = 4 bytes and the coefficients 2 bytes × blocks per
 * MCU / pixels per MCU: grey 2 B, 4:2:0 and 4:1:1 3 B, 4:2:2 and 4:4:0 4 B, 4:4:4 6 B. With k MCU
 * rows still to convert after row m, S must cover k·C plus what rows m+1.. have not yet written.
 * When an MCU row's coefficients fit in its pixels (C ≤ R per row: all but 4:4:4), the largest need
 * is at the last two rows and S < width·height·4 + 2·C: the raster plus under two MCU rows (4:2:2,
 * exactly 4 B/px, adds up to 4 bytes per pixel of the MCU grid's padding columns, which C counts
 * and R does not).
 * For 4:4:4 the need is largest at the first row: S ≈ 6 B/px, 1.5 times the raster, whose unused
 * tail stays allocated with it (150 MB at 25 MP: over a Worker's 128 MB).
 *
 * Rows handed to a sink need no raster: then the buffer is the coefficients alone (mcusY·C).
 */
export class CoefficientStore {
	readonly buffer: ArrayBuffer;
	readonly coefficients: Int16Array;
	/** Int16 offset of each component's first block within an MCU row. */
	private readonly componentStart: number[];
	/** Int16 length of one MCU row. */
	private readonly rowLength: number;
	/** Blocks per block row, by component. */
	readonly blocksPerLine: number[];
	/** Block rows per MCU row, by component. */
	private readonly v: number[];

	constructor(width: number, height: number, grid: McuGrid, withRaster: boolean) {
		this.v = grid.v;
		this.blocksPerLine = grid.h.map((h) => grid.mcusX * h);
		this.componentStart = [];
		let start = 0;
		for (let c = 0; c < grid.h.length; c++) {
			this.componentStart.push(start);
			start += this.blocksPerLine[c]! * grid.v[c]! * 64;
		}
		const rowBytes = mcuRowBytes(grid);
		this.rowLength = rowBytes / 2;
		const size = withRaster ? inPlaceSize(width, height, grid, rowBytes) : grid.mcusY * rowBytes;
		this.buffer = new ArrayBuffer(size);
		this.coefficients = new Int16Array(this.buffer, size - grid.mcusY * rowBytes);
	}

	/** Int16 offset of block (bx, by) of component c (block coordinates within the component). */
	block(c: number, bx: number, by: number): number {
		const v = this.v[c]!;
		const mcuRow = (by / v) | 0;
		return mcuRow * this.rowLength + this.componentStart[c]! + ((by - mcuRow * v) * this.blocksPerLine[c]! + bx) * 64;
	}
}

/** S of the layout above: the smallest buffer in which converting never overwrites a coefficient not yet used. */
export function inPlaceSize(width: number, height: number, grid: McuGrid, rowBytes: number): number {
	let size = 0;
	for (let m = 0; m < grid.mcusY; m++) {
		const pixelEnd = Math.min(height, (m + 1) * 8 * grid.vmax) * width * 4;
		size = Math.max(size, pixelEnd + (grid.mcusY - m) * rowBytes);
	}
	return size;
}

/** Bytes of one MCU row of coefficients: 64 Int16 per block. */
export function mcuRowBytes(grid: McuGrid): number {
	return grid.h.reduce((sum, h, c) => sum + grid.mcusX * h * grid.v[c]! * 128, 0);
}
