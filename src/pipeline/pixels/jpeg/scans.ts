import type { CoefficientStore } from "./coefficients";
import { componentSize, type Frame, type McuGrid, type Scan } from "./container";
import { JpegFormatError } from "./errors";
import { BitReader, type HuffmanTable, READER_STATE } from "./huffman";
import type { ScanMarks } from "./scan-marks";
import { ZIGZAG } from "./zigzag";

/**
 * Numbers a cursor's place takes (`ScanCursor.save`): the reader's, the next row, the MCUs decoded,
 * the end-of-band run and a DC prediction for each of at most four components.
 */
export const CURSOR_STATE = READER_STATE + 3 + 4;

/**
 * One scan, decoded a band of MCU rows at a time into the coefficient store (quantised values,
 * natural order), following ITU T.81 annex G for progressive scans: DC first and refining scans, AC
 * first scans with end-of-band runs, AC refining scans with correction bits. A sequential scan is a
 * DC first scan plus an AC first scan over 1..63 of the same block.
 *
 * Every scan of a file keeps its own cursor (where it stopped in its data, its predictions, its
 * end-of-band run), so that the scans take turns on each MCU row: a block's refinements need only
 * that block's earlier values, and the whole image's coefficients are never held at once.
 */
export class ScanCursor {
	private readonly decoder: ScanDecoder;
	/** Not interleaved: the component's blocks, an MCU being one block. */
	private readonly blocks?: { x: number; y: number };
	/** Next block row (not interleaved) or MCU row (interleaved) to decode. */
	private next = 0;
	/** MCUs decoded, for the restart interval. */
	private mcu = 0;

	constructor(
		bytes: Uint8Array,
		frame: Frame,
		private readonly grid: McuGrid,
		private readonly scan: Scan,
		private readonly store: CoefficientStore,
		/** The scan's place in the file's order (its marks' index). */
		private readonly index = 0,
	) {
		this.decoder = new ScanDecoder(new BitReader(bytes, scan.start), store, scan, frame);
		if (scan.components.length === 1) this.blocks = componentSize(frame, grid, scan.components[0]!, 8);
	}

	/** Writes where the cursor stands into `into[at..at + CURSOR_STATE)`, for `restore` to come back to. */
	save(into: Float64Array, at: number): void {
		this.decoder.save(into, at);
		into[at + READER_STATE] = this.next;
		into[at + READER_STATE + 1] = this.mcu;
	}

	/** Stands where `save` wrote. */
	restore(from: Float64Array, at: number): void {
		this.decoder.restore(from, at);
		// Integers, as BitReader.restore says why.
		this.next = from[at + READER_STATE]! | 0;
		this.mcu = from[at + READER_STATE + 1]! | 0;
	}

	/**
	 * Decodes the scan's blocks of the MCU rows before `end` (the store holding them), every row
	 * whole; with `marks`, writing down its place at each marked column of every row it passes.
	 */
	decodeUntil(end: number, marks?: ScanMarks): void {
		const { grid } = this;
		const columns = marks ? marks.blockColumns(this.index) : WHOLE_ROW;
		if (this.blocks) {
			const c = this.scan.components[0]!.index;
			const last = Math.min(this.blocks.y, end * grid.v[c]!);
			for (; this.next < last; this.next++) this.decodeRow(this.next, 0, this.blocks.x, columns, marks);
			return;
		}
		for (; this.next < Math.min(end, grid.mcusY); this.next++) this.decodeRow(this.next, 0, grid.mcusX, columns, marks);
	}

	/**
	 * Decodes the scan's blocks of MCU row `my` that lie in MCU columns from marked column `j` up to
	 * `mcuEnd`, entering each of its rows there from `marks` (which must hold the row: `complete`).
	 * The cursor then stands nowhere in particular: `enterRow` before decoding whole rows again.
	 */
	decodeWindow(my: number, marks: ScanMarks, j: number, mcuEnd: number): void {
		const { grid } = this;
		const columns = marks.blockColumns(this.index);
		const from = columns[j]!;
		if (this.blocks) {
			const c = this.scan.components[0]!.index;
			const v = grid.v[c]!;
			const end = Math.min(this.blocks.x, mcuEnd * grid.h[c]!);
			for (let by = my * v; by < Math.min(this.blocks.y, (my + 1) * v); by++) {
				this.decoder.restoreMark(marks.numbers, marks.slot(this.index, by, j));
				this.mcu = by * this.blocks.x + from;
				this.decodeRow(by, from, end, WHOLE_ROW);
			}
			return;
		}
		this.decoder.restoreMark(marks.numbers, marks.slot(this.index, my, j));
		this.mcu = my * grid.mcusX + from;
		this.decodeRow(my, from, Math.min(grid.mcusX, mcuEnd), WHOLE_ROW);
	}

	/** Stands at the start of MCU row `my`, from its mark (`marks.started(my)`). */
	enterRow(my: number, marks: ScanMarks): void {
		const first = this.firstRow(my);
		this.next = first;
		if (first >= this.rows) return;
		this.decoder.restoreMark(marks.numbers, marks.slot(this.index, first, 0));
		this.mcu = first * this.across;
	}

	/** Writes down where it stands, at the start of MCU row `my` (it has decoded every row before). */
	markRowStart(my: number, marks: ScanMarks): void {
		const first = this.firstRow(my);
		if (first < this.rows) this.decoder.mark(marks.numbers, marks.slot(this.index, first, 0));
	}

	/** The scan's first row (block row of its component, or MCU row) in MCU row `my`. */
	private firstRow(my: number): number {
		return this.blocks ? my * this.grid.v[this.scan.components[0]!.index]! : my;
	}

	private get rows(): number {
		return this.blocks ? this.blocks.y : this.grid.mcusY;
	}

	private get across(): number {
		return this.blocks ? this.blocks.x : this.grid.mcusX;
	}

	/**
	 * Decodes units `from..end` of the scan's row `row` (blocks of its component, or MCUs), the
	 * place written down at each of `columns` (units where marked columns start) when `marks`.
	 */
	private decodeRow(row: number, from: number, end: number, columns: Int32Array, marks?: ScanMarks): void {
		const { decoder, scan, grid, store } = this;
		const { restartInterval } = scan;
		let unit = from;
		for (let j = 0; j < columns.length; j++) {
			const stop = j + 1 < columns.length ? Math.min(end, columns[j + 1]!) : end;
			// Before the restart check: a decode entering here makes it again.
			if (marks) decoder.mark(marks.numbers, marks.slot(this.index, row, j));
			if (this.blocks) {
				const c = scan.components[0]!.index;
				for (; unit < stop; unit++, this.mcu++) {
					if (restartInterval && this.mcu > 0 && this.mcu % restartInterval === 0) decoder.restart();
					decoder.block(0, c, store.block(c, unit, row));
				}
			} else {
				for (; unit < stop; unit++, this.mcu++) {
					if (restartInterval && this.mcu > 0 && this.mcu % restartInterval === 0) decoder.restart();
					for (let i = 0; i < scan.components.length; i++) {
						const c = scan.components[i]!.index;
						const h = grid.h[c]!;
						const v = grid.v[c]!;
						for (let by = 0; by < v; by++) {
							for (let bx = 0; bx < h; bx++) decoder.block(i, c, store.block(c, unit * h + bx, row * v + by));
						}
					}
				}
			}
		}
		if (decoder.reader.truncated) throw new JpegFormatError("data ends before the last block");
	}
}

/** A row decoded whole, with no marks: one stretch from its first unit. */
const WHOLE_ROW = Int32Array.of(0);

class ScanDecoder {
	/** DC predictions, by component index. */
	private readonly predictions: Int32Array;
	/** Blocks still to skip (AC first) or only to refine (AC refining) in the current end-of-band run. */
	private eobrun = 0;
	private readonly kind: "sequential" | "dcFirst" | "dcRefine" | "acFirst" | "acRefine";
	/** Whether its blocks carry DC predictions (a mark keeps them). */
	private readonly predicts: boolean;
	private readonly coefficients: Int16Array;
	/** CoefficientStore.ends: one past each block's last non-zero AC coefficient, in zigzag order. */
	private readonly ends: Uint8Array;

	constructor(
		readonly reader: BitReader,
		store: CoefficientStore,
		private readonly scan: Scan,
		frame: Frame,
	) {
		this.coefficients = store.coefficients;
		this.ends = store.ends;
		this.predictions = new Int32Array(frame.components.length);
		const first = scan.ah === 0;
		if (!frame.progressive) this.kind = "sequential";
		else if (scan.ss === 0) this.kind = first ? "dcFirst" : "dcRefine";
		else this.kind = first ? "acFirst" : "acRefine";
		this.predicts = this.kind === "sequential" || this.kind === "dcFirst";
	}

	/** Writes the reader's place, the end-of-band run and the predictions at `at` (see CURSOR_STATE). */
	save(into: Float64Array, at: number): void {
		this.reader.save(into, at);
		into[at + READER_STATE + 2] = this.eobrun;
		into.set(this.predictions, at + READER_STATE + 3);
	}

	restore(from: Float64Array, at: number): void {
		this.reader.restore(from, at);
		this.eobrun = from[at + READER_STATE + 2]! | 0;
		for (let c = 0; c < this.predictions.length; c++) this.predictions[c] = from[at + READER_STATE + 3 + c]!;
	}

	/**
	 * Writes the reader's place, the end-of-band run and, where the scan predicts DC, its
	 * components' predictions at `at` (a ScanMarks mark).
	 */
	mark(into: Int32Array, at: number): void {
		this.reader.save(into, at);
		into[at + READER_STATE] = this.eobrun;
		if (!this.predicts) return;
		const { components } = this.scan;
		for (let i = 0; i < components.length; i++)
			into[at + READER_STATE + 1 + i] = this.predictions[components[i]!.index]!;
	}

	restoreMark(from: Int32Array, at: number): void {
		this.reader.restore(from, at);
		this.eobrun = from[at + READER_STATE]!;
		if (!this.predicts) return;
		const { components } = this.scan;
		for (let i = 0; i < components.length; i++)
			this.predictions[components[i]!.index] = from[at + READER_STATE + 1 + i]!;
	}

	/** At a restart marker: the reader skips it, predictions and runs start over. */
	restart(): void {
		this.reader.restart();
		this.predictions.fill(0);
		this.eobrun = 0;
	}

	/** Decodes the block at `at` of the scan's `i`-th component, frame component `c`. */
	block(i: number, c: number, at: number): void {
		switch (this.kind) {
			case "sequential":
				this.dcFirst(this.scan.dc[i]!, c, at);
				this.acFirst(this.scan.ac[i]!, at, 1, 63);
				break;
			case "dcFirst":
				this.dcFirst(this.scan.dc[i]!, c, at);
				break;
			case "dcRefine":
				if (this.reader.readBit()) this.coefficients[at] = this.coefficients[at]! | (1 << this.scan.al);
				break;
			case "acFirst":
				this.acFirst(this.scan.ac[i]!, at, this.scan.ss, this.scan.se);
				break;
			case "acRefine":
				this.acRefine(this.scan.ac[i]!, at);
				break;
		}
	}

	private dcFirst(table: HuffmanTable, c: number, at: number): void {
		const { reader } = this;
		const prediction = this.predictions[c]! + reader.receiveExtend(reader.decode(table));
		this.predictions[c] = prediction;
		this.coefficients[at] = prediction * (1 << this.scan.al);
	}

	private acFirst(table: HuffmanTable, at: number, ss: number, se: number): void {
		if (this.eobrun > 0) {
			this.eobrun--;
			return;
		}
		const { reader, coefficients, ends } = this;
		const scale = 1 << this.scan.al;
		let end = ends[at >> 6]!;
		for (let k = ss; k <= se; ) {
			const rs = reader.decode(table);
			const s = rs & 15;
			const r = rs >> 4;
			if (s === 0) {
				if (r < 15) {
					// End of band: this block and (2^r − 1 + r more bits) blocks after it.
					this.eobrun = (1 << r) - 1 + reader.readBits(r);
					break;
				}
				k += 16;
				continue;
			}
			k += r;
			if (k > se) throw new JpegFormatError("coefficient index past the band");
			coefficients[at + ZIGZAG[k]!] = reader.receiveExtend(s) * scale;
			k++;
			if (k > end) end = k;
		}
		ends[at >> 6] = end;
	}

	/**
	 * A refining AC scan sends one more bit of every coefficient in the band: coefficients already
	 * non-zero get a correction bit (in the order met); a zero one that becomes ±1 is coded with a
	 * run of the zero coefficients skipped before it (T.81 G.1.2.3).
	 */
	private acRefine(table: HuffmanTable, at: number): void {
		const { reader, coefficients, ends } = this;
		const { se, al } = this.scan;
		const plus = 1 << al;
		const minus = -1 << al;
		let k = this.scan.ss;
		// Every coefficient from `end` on is zero: no correction bit is read for it.
		let end = ends[at >> 6]!;
		if (this.eobrun === 0) {
			for (; k <= se; k++) {
				const rs = reader.decode(table);
				let r = rs >> 4;
				const s = rs & 15;
				let value = 0;
				if (s !== 0) {
					if (s !== 1) throw new JpegFormatError("refinement larger than one bit");
					value = reader.readBit() ? plus : minus;
				} else if (r !== 15) {
					this.eobrun = (1 << r) + reader.readBits(r);
					break;
				}
				// Skip r zero coefficients (correcting the non-zero ones passed), then place the new one.
				for (; k < end && k <= se; k++) {
					const z = at + ZIGZAG[k]!;
					const old = coefficients[z]!;
					if (old !== 0) {
						if (reader.readBit() && (old & plus) === 0) coefficients[z] = old >= 0 ? old + plus : old + minus;
					} else if (r-- === 0) {
						break;
					}
				}
				// Past the end every coefficient is zero: the r + 1st from here is the one placed.
				if (k >= end) k = Math.min(k + r, se + 1);
				if (value !== 0) {
					if (k > se) throw new JpegFormatError("coefficient index past the band");
					coefficients[at + ZIGZAG[k]!] = value;
					if (k >= end) end = k + 1;
				}
			}
		}
		if (this.eobrun > 0) {
			// Inside an end-of-band run only the non-zero coefficients get their correction bits.
			for (const last = Math.min(se + 1, end); k < last; k++) {
				const z = at + ZIGZAG[k]!;
				const old = coefficients[z]!;
				if (old !== 0 && reader.readBit() && (old & plus) === 0) coefficients[z] = old >= 0 ? old + plus : old + minus;
			}
			this.eobrun--;
		}
		ends[at >> 6] = end;
	}
}
