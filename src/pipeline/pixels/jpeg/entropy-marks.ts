import type { McuGrid } from "./container";
import { type BitReader, READER_STATE } from "./huffman";

/**
 * Places in a sequential scan's data where a later decode may start instead of at the scan's
 * beginning: at chosen MCU columns of every MCU row, where the reader stood and each component's
 * DC prediction. A decode that passes such a place writes it down; a decode of a window of the image
 * (a turned JPEG's, see turned.ts) starts each MCU row at the window's first column from there, so
 * that windows after the first read only their own MCUs' data.
 */
export class EntropyMarks {
	private readonly state: Float64Array;
	private readonly saved: Uint8Array;
	/** Index among the marked columns of each MCU column, -1 where there is no mark. */
	private readonly column: Int32Array;
	private readonly stride: number;

	constructor(
		grid: McuGrid,
		private readonly components: number,
		columns: number[],
	) {
		this.column = new Int32Array(grid.mcusX).fill(-1);
		columns.forEach((mx, i) => {
			this.column[mx] = i;
		});
		this.stride = READER_STATE + components;
		this.state = new Float64Array(grid.mcusY * columns.length * this.stride);
		this.saved = new Uint8Array(grid.mcusY * columns.length);
		this.columns = columns.length;
	}

	private readonly columns: number;

	/** Bytes held for `columns` marked columns of `grid`. */
	static bytes(grid: McuGrid, components: number, columns: number): number {
		return grid.mcusY * columns * ((READER_STATE + components) * 8 + 1);
	}

	/** Writes down the state at MCU (mx, my) if that is a marked place not yet written. */
	pass(my: number, mx: number, reader: BitReader, planes: { pred: number }[]): void {
		const slot = this.slot(my, mx);
		if (slot < 0 || this.saved[slot]) return;
		const at = slot * this.stride;
		reader.save(this.state, at);
		for (let c = 0; c < this.components; c++) this.state[at + READER_STATE + c] = planes[c]!.pred;
		this.saved[slot] = 1;
	}

	/** Puts the reader and predictions where MCU (mx, my) starts, if written down: true then. */
	restore(my: number, mx: number, reader: BitReader, planes: { pred: number }[]): boolean {
		const slot = this.slot(my, mx);
		if (slot < 0 || !this.saved[slot]) return false;
		const at = slot * this.stride;
		reader.restore(this.state, at);
		// An integer, as BitReader.restore says why.
		for (let c = 0; c < this.components; c++) planes[c]!.pred = this.state[at + READER_STATE + c]! | 0;
		return true;
	}

	private slot(my: number, mx: number): number {
		const column = this.column[mx]!;
		return column < 0 ? -1 : my * this.columns + column;
	}
}
