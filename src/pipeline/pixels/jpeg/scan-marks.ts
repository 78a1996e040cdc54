import { componentSize, type Frame, type McuGrid, type Scan } from "./container";
import { READER_STATE } from "./huffman";

/**
 * Places in a multi-scan JPEG's data where a decode of a band of columns (a window of an image
 * turned by EXIF, turned.ts) enters every scan: for each scan, at chosen MCU columns of every row it
 * codes (a block row of its one component, or an MCU row when it interleaves them), where its reader
 * stood, its end-of-band run and, for the scans that predict DC, the predictions. The first decode
 * that reads a row whole writes them down; a later decode of a window reads, in every scan, only
 * the window's blocks of the rows marked, and so the scans' data about once in all rather than once
 * per window. A row's blocks are only ever read after the same blocks of every earlier scan
 * (refinements read bits according to the values before them), which entering each scan at the
 * same columns keeps.
 *
 * Marked rows form a prefix of the image (decodes read from the top); `complete(my)` says whether
 * MCU row `my` is marked at every column, `started(my)` whether every scan's place at its start is.
 */
export class ScanMarks {
	/** The marked MCU columns, ascending, the first 0. */
	readonly columns: readonly number[];
	private readonly state: Int32Array;
	/** Per scan: where its marks start in `state`, numbers a mark takes, and its block columns per marked column. */
	private readonly scans: { offset: number; stride: number; blockColumns: Int32Array }[];
	private readonly column: Int32Array;
	private readonly marked: Uint8Array;

	constructor(frame: Frame, grid: McuGrid, scans: readonly Scan[], columns: readonly number[]) {
		this.columns = [...new Set([0, ...columns])].sort((a, b) => a - b);
		this.column = new Int32Array(grid.mcusX).fill(-1);
		this.columns.forEach((mx, j) => {
			this.column[mx] = j;
		});
		let offset = 0;
		this.scans = scans.map((scan) => {
			const { rows, perMcu, across } = scanRows(frame, grid, scan);
			const stride = markStride(frame, scan);
			const blockColumns = Int32Array.from(this.columns, (mx) => Math.min(across, mx * perMcu));
			const at = offset;
			offset += rows * this.columns.length * stride;
			return { offset: at, stride, blockColumns };
		});
		this.state = new Int32Array(offset);
		this.marked = new Uint8Array(grid.mcusY);
	}

	/** Bytes held for `columns` marked columns (at most) of a file's scans. */
	static bytes(frame: Frame, grid: McuGrid, scans: readonly Scan[], columns: number): number {
		const numbers = scans.reduce((n, scan) => n + scanRows(frame, grid, scan).rows * markStride(frame, scan), 0);
		return numbers * columns * 4 + grid.mcusY;
	}

	/** Index among the marked columns of MCU column `mx`, -1 where there is none. */
	columnIndex(mx: number): number {
		return this.column[mx] ?? -1;
	}

	/** Scan `s`'s units (blocks of its component, or MCUs) where each marked column starts. */
	blockColumns(s: number): Int32Array {
		return this.scans[s]!.blockColumns;
	}

	/** Where scan `s`'s mark at its row `row`, marked column `j`, lies in `numbers`. */
	slot(s: number, row: number, j: number): number {
		const scan = this.scans[s]!;
		return scan.offset + (row * this.columns.length + j) * scan.stride;
	}

	get numbers(): Int32Array {
		return this.state;
	}

	complete(my: number): boolean {
		return (this.marked[my]! & COMPLETE) !== 0;
	}

	started(my: number): boolean {
		return (this.marked[my]! & STARTED) !== 0;
	}

	/** Every scan's place at the start of MCU row `my` is written down. */
	setStarted(my: number): void {
		if (my < this.marked.length) this.marked[my]! |= STARTED;
	}

	/** Every place of MCU row `my` is written down. */
	setComplete(my: number): void {
		this.marked[my]! |= STARTED | COMPLETE;
	}
}

const STARTED = 1;
const COMPLETE = 2;

/**
 * The rows a scan codes, its units across (blocks of its one component, or MCUs when it interleaves
 * them) and the units an MCU column holds.
 */
export function scanRows(frame: Frame, grid: McuGrid, scan: Scan): { rows: number; across: number; perMcu: number } {
	if (scan.components.length > 1) return { rows: grid.mcusY, across: grid.mcusX, perMcu: 1 };
	const c = scan.components[0]!;
	const size = componentSize(frame, grid, c, 8);
	return { rows: size.y, across: size.x, perMcu: grid.h[c.index]! };
}

/** Numbers a scan's mark takes: the reader's, the end-of-band run, and the DC predictions where the scan makes them. */
function markStride(frame: Frame, scan: Scan): number {
	const predicts = !frame.progressive || (scan.ss === 0 && scan.ah === 0);
	return READER_STATE + 1 + (predicts ? scan.components.length : 0);
}
