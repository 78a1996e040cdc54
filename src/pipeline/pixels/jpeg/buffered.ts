import { CoefficientStore } from "./coefficients";
import type { JpegContainer } from "./container";
import { idct8x8, idctDcOnly, idctDcOnlyHalf, idctHalf } from "./idct";
import { type ChromaSeen, isRgb, outputSize, samplePlanes, writeMcuRow } from "./output";
import { type McuRowTarget, spanMcus, writtenColumns } from "./row-target";
import type { ScanMarks } from "./scan-marks";
import { CURSOR_STATE, ScanCursor } from "./scans";
import { ZIGZAG } from "./zigzag";

/**
 * Decodes a JPEG whose coefficients arrive over several scans (progressive, or sequential with the
 * components in separate scans) an MCU row at a time: every scan adds its part of the row's
 * coefficients, each resuming where it stopped on the row above, then the row is turned into
 * pixels, into `target`. It holds one MCU row of coefficients, whatever the image's size. With a
 * `target.span`, only the MCUs around it become pixels and the decode ends after its last row;
 * with `target.wanted`, only the wanted MCUs, and the decode ends after the last of them.
 * `places` lets a decode with a span start at the MCU row above it, where an earlier decode stood
 * at most two MCU rows before it stopped, instead of reading every scan from its start. `marks`
 * (a turned JPEG's windows, whose span starts at a marked column) let it read, of the rows an
 * earlier decode marked, only the span's columns in every scan, and skip the rows above its first.
 */
export function decodeBuffered(
	bytes: Uint8Array,
	jpeg: JpegContainer,
	target: McuRowTarget,
	places?: ScanPlaces,
	marks?: ScanMarks,
): ChromaSeen {
	const { frame, adobeTransform } = jpeg;
	const { block } = target;
	const { width, height } = outputSize(frame, block);
	const grid = target.grid;
	const store = new CoefficientStore(grid);
	const cursors = jpeg.scans.map((scan, s) => new ScanCursor(bytes, frame, grid, scan, store, s));
	const planes = samplePlanes(width, grid, block);
	/** Non-zero where any coefficient of the second or third component was. */
	let chroma = 0;
	// A progressive component no scan ever named has no table: its coefficients are all zero anyway.
	const quant = frame.components.map((c) => naturalOrder(c.quant));
	const { coefficients, ends } = store;
	const coef = new Int32Array(64);
	const rgb = isRgb(frame.components, adobeTransform);
	const mcus = spanMcus(grid, target.span);
	const { wanted } = target;
	// The first row turned into pixels: the span's, or the first wanted one's.
	const top = wanted ? Math.max(mcus.y0, wanted.firstRow) : mcus.y0;
	const start = top > 0 && places ? places.restore(top, cursors) : 0;
	const end = wanted ? Math.min(mcus.y1, wanted.endRow) : mcus.y1;
	const column = marks ? marks.columnIndex(mcus.x0) : -1;
	/** The MCU row every cursor stands at the start of; -1 once a window's rows have left them elsewhere. */
	let at = start;
	for (let my = start; my < end; my++) {
		if (column >= 0 && marks!.complete(my)) {
			// Marked: rows above need not be read at all, the span's columns only of the others.
			if (my < top) continue;
			store.startRow(my);
			for (const cursor of cursors) cursor.decodeWindow(my, marks!, column, mcus.x1);
			at = -1;
		} else {
			if (at !== my) {
				if (!marks?.started(my)) throw new Error("a decode must start where its scans' places are known");
				for (const cursor of cursors) cursor.enterRow(my, marks);
			}
			places?.save(my, cursors);
			store.startRow(my);
			for (const cursor of cursors) cursor.decodeUntil(my + 1, marks);
			marks?.setComplete(my);
			at = my + 1;
			// Rows above are read, not turned into pixels.
			if (my < top) continue;
		}
		const runs = wanted ? wanted.runs(my) : [mcus.x0, mcus.x1];
		for (let c = 0; c < planes.length; c++) {
			const p = planes[c]!;
			const q = quant[c]!;
			for (let run = 0; run < runs.length; run += 2) {
				const blocks = Math.min(store.blocksPerLine[c]!, runs[run + 1]! * grid.h[c]!);
				for (let by = 0; by < p.v; by++) {
					for (let bx = runs[run]! * grid.h[c]!; bx < blocks; bx++) {
						const at = store.block(c, bx, my * p.v + by);
						// Only the coefficients before the block's end can be non-zero; `coef` is all zero between blocks.
						const end = ends[at >> 6]!;
						let ac = 0;
						if (end > DENSE_END) {
							// Most of the block: every coefficient in natural order, with no lookup.
							for (let i = 1; i < 64; i++) ac |= coef[i] = coefficients[at + i]! * q[i]!;
						} else {
							for (let k = 1; k < end; k++) {
								const i = ZIGZAG[k]!;
								ac |= coef[i] = coefficients[at + i]! * q[i]!;
							}
						}
						if (c > 0) chroma |= ac | coefficients[at]!;
						const out = by * block * p.stride + bx * block;
						if (ac === 0) {
							if (block === 4) idctDcOnlyHalf(coefficients[at]! * q[0]!, p.rows, out, p.stride);
							else idctDcOnly(coefficients[at]! * q[0]!, p.rows, out, p.stride);
						} else {
							coef[0] = coefficients[at]! * q[0]!;
							if (block === 4) idctHalf(coef, p.rows, out, p.stride);
							else idct8x8(coef, p.rows, out, p.stride);
						}
						if (end > DENSE_END) coef.fill(0, 1);
						else for (let k = 1; k < end; k++) coef[ZIGZAG[k]!] = 0;
					}
				}
			}
		}
		const y0 = my * block * grid.vmax;
		const y1 = Math.min(height, y0 + block * grid.vmax);
		const columns = writtenColumns(target, width, my);
		writeMcuRow(planes, target.pixels, width, y0, y1, grid.vmax, rgb, target.firstRow(y0), target.span, columns);
		target.written(y0, y1);
	}
	if (marks && at === end) {
		for (const cursor of cursors) cursor.markRowStart(end, marks);
		marks.setStarted(end);
	}
	return chroma !== 0;
}

/**
 * Past this zigzag index a block's coefficients are dequantised all 64 in natural order rather
 * than up to its end through the zigzag table (a noisy photo's blocks end near 64).
 */
const DENSE_END = 24;

/** A quantisation table (zigzag order, as stored) in the natural order the coefficients are kept in. */
function naturalOrder(zigzag: Int32Array | undefined): Int32Array {
	const natural = new Int32Array(64);
	if (zigzag) for (let k = 0; k < 64; k++) natural[ZIGZAG[k]!] = zigzag[k]!;
	return natural;
}

/**
 * Where every scan's cursor stood at the start of some MCU rows, so that a later decode of the
 * same file can start there instead of reading every scan from its start: the last two MCU rows a
 * decode began (a decode stopped by its sink while handing out a row of MCU row k is taken up at
 * k or k - 1, the row above the first row not written) and every `PLACE_EVERY`th row (pass 2
 * decodes again for each group of crops, each lower down the page, and starts at most that many
 * rows above its first). Saving is only copying: every decode writes down the rows it begins.
 */
export class ScanPlaces {
	private readonly rows = [-1, -1];
	private readonly state: Float64Array[];
	private readonly periodic: Float64Array;
	private readonly saved: Uint8Array;

	constructor(
		private readonly scans: number,
		mcuRows: number,
	) {
		this.state = [new Float64Array(scans * CURSOR_STATE), new Float64Array(scans * CURSOR_STATE)];
		const periodic = Math.ceil(mcuRows / PLACE_EVERY);
		this.periodic = new Float64Array(periodic * scans * CURSOR_STATE);
		this.saved = new Uint8Array(periodic);
	}

	/** Bytes held for a file of `scans` scans and `mcuRows` MCU rows. */
	static bytes(scans: number, mcuRows: number): number {
		const periodic = Math.ceil(mcuRows / PLACE_EVERY);
		return (2 + periodic) * scans * CURSOR_STATE * 8 + periodic;
	}

	save(my: number, cursors: ScanCursor[]): void {
		const slot = my & 1;
		const state = this.state[slot]!;
		this.rows[slot] = my;
		for (let i = 0; i < cursors.length; i++) cursors[i]!.save(state, i * CURSOR_STATE);
		if (my % PLACE_EVERY !== 0 || this.saved[my / PLACE_EVERY]) return;
		const at = (my / PLACE_EVERY) * this.scans * CURSOR_STATE;
		for (let i = 0; i < cursors.length; i++) cursors[i]!.save(this.periodic, at + i * CURSOR_STATE);
		this.saved[my / PLACE_EVERY] = 1;
	}

	/**
	 * Puts every cursor where it stood at the start of MCU row `my`, or of the nearest row above it
	 * written down; returns that row (0 when none was: the cursors stay at their scans' starts).
	 */
	restore(my: number, cursors: ScanCursor[]): number {
		const slot = my & 1;
		if (this.rows[slot] === my) {
			const state = this.state[slot]!;
			for (let i = 0; i < cursors.length; i++) cursors[i]!.restore(state, i * CURSOR_STATE);
			return my;
		}
		for (let p = Math.floor(my / PLACE_EVERY); p > 0; p--) {
			if (!this.saved[p]) continue;
			const at = p * this.scans * CURSOR_STATE;
			for (let i = 0; i < cursors.length; i++) cursors[i]!.restore(this.periodic, at + i * CURSOR_STATE);
			return p * PLACE_EVERY;
		}
		return 0;
	}
}

/** MCU rows between two places written down for good (a 25 MP image's 313 rows: 79 places, 76 KB in all for 10 scans). */
const PLACE_EVERY = 4;
