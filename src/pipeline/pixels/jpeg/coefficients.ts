import type { McuGrid } from "./container";

/**
 * Where a multi-scan (progressive, or sequential with one scan per component) JPEG keeps the
 * quantised coefficients of one MCU row while every scan adds its part to them: the scans are
 * decoded band by band (see ScanCursor), so no more than a row of MCUs is ever held.
 *
 * Layout. Int16, 64 per block, natural order: component 0's `v` block rows of the MCU row, then
 * component 1's, and so on; an MCU row takes `mcuRowBytes` (grey 2 bytes a pixel of the row, 4:2:0
 * 3, 4:2:2 4, 4:4:4 6).
 */
export class CoefficientStore {
	readonly coefficients: Int16Array;
	/**
	 * Per block (its offset / 64), one past the zigzag index of its last non-zero AC coefficient (0
	 * when none): every coefficient after it is zero, so a refining scan inside an end-of-band run and
	 * the dequantisation stop there instead of visiting all 63 (most blocks of a photo end early).
	 */
	readonly ends: Uint8Array;
	/** Blocks per block row, by component. */
	readonly blocksPerLine: number[];
	/** Int16 offset of each component's first block within the MCU row. */
	private readonly componentStart: number[];
	/** Block rows per MCU row, by component. */
	private readonly v: number[];
	/** The MCU row held. */
	private mcuRow = 0;

	constructor(grid: McuGrid) {
		this.v = grid.v;
		this.blocksPerLine = grid.h.map((h) => grid.mcusX * h);
		this.componentStart = [];
		let start = 0;
		for (let c = 0; c < grid.h.length; c++) {
			this.componentStart.push(start);
			start += this.blocksPerLine[c]! * grid.v[c]! * 64;
		}
		const blocks = mcuRowBlocks(grid);
		this.coefficients = new Int16Array(blocks * 64);
		this.ends = new Uint8Array(blocks);
	}

	/** Holds MCU row `m` from now on, all its coefficients zero. */
	startRow(m: number): void {
		this.mcuRow = m;
		this.coefficients.fill(0);
		this.ends.fill(0);
	}

	/** Int16 offset of block (bx, by) of component c (block coordinates within the component, in the row held). */
	block(c: number, bx: number, by: number): number {
		return this.componentStart[c]! + ((by - this.mcuRow * this.v[c]!) * this.blocksPerLine[c]! + bx) * 64;
	}
}

/** Bytes of one MCU row of coefficients: 64 Int16 and an end per block. */
export function mcuRowBytes(grid: McuGrid): number {
	return mcuRowBlocks(grid) * 129;
}

function mcuRowBlocks(grid: McuGrid): number {
	return grid.h.reduce((sum, h, c) => sum + grid.mcusX * h * grid.v[c]!, 0);
}
