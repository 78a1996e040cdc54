import { CoefficientStore } from "./coefficients";
import type { JpegContainer } from "./container";
import { idct8x8, idctDcOnly, idctDcOnlyHalf, idctHalf } from "./idct";
import { type ChromaSeen, isRgb, outputSize, samplePlanes, writeMcuRow } from "./output";
import { type McuRowTarget, spanMcus, writtenColumns } from "./row-target";
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
 * at most two MCU rows before it stopped, instead of reading every scan from its start.
 */
export function decodeBuffered(
	bytes: Uint8Array,
	jpeg: JpegContainer,
	target: McuRowTarget,
	places?: ScanPlaces,
): ChromaSeen {
	const { frame, adobeTransform } = jpeg;
	const { block } = target;
	const { width, height } = outputSize(frame, block);
	const grid = target.grid;
	const store = new CoefficientStore(grid);
	const cursors = jpeg.scans.map((scan) => new ScanCursor(bytes, frame, grid, scan, store));
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
	const start = mcus.y0 > 0 && places?.restore(mcus.y0, cursors) ? mcus.y0 : 0;
	for (let my = start; my < (wanted ? Math.min(mcus.y1, wanted.endRow) : mcus.y1); my++) {
		places?.save(my, cursors);
		store.startRow(my);
		for (const cursor of cursors) cursor.decodeUntil(my + 1);
		// Rows above the span are read, not turned into pixels.
		if (my < mcus.y0) continue;
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
 * Where every scan's cursor stood at the start of the last two MCU rows a decode began: a decode
 * stopped by its sink while handing out a row of MCU row k needs to be taken up at k or k - 1 (the
 * row above the first row not written). Two rows' worth, whatever the image's size.
 */
export class ScanPlaces {
	private readonly rows = [-1, -1];
	private readonly state: Float64Array[];

	constructor(scans: number) {
		this.state = [new Float64Array(scans * CURSOR_STATE), new Float64Array(scans * CURSOR_STATE)];
	}

	/** Bytes held for a file of `scans` scans. */
	static bytes(scans: number): number {
		return 2 * scans * CURSOR_STATE * 8;
	}

	save(my: number, cursors: ScanCursor[]): void {
		const slot = my & 1;
		const state = this.state[slot]!;
		this.rows[slot] = my;
		for (let i = 0; i < cursors.length; i++) cursors[i]!.save(state, i * CURSOR_STATE);
	}

	/** Puts every cursor where it stood at the start of MCU row `my`, if that was written down: true then. */
	restore(my: number, cursors: ScanCursor[]): boolean {
		const slot = my & 1;
		if (this.rows[slot] !== my) return false;
		const state = this.state[slot]!;
		for (let i = 0; i < cursors.length; i++) cursors[i]!.restore(state, i * CURSOR_STATE);
		return true;
	}
}
