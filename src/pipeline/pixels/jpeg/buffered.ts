import { CoefficientStore } from "./coefficients";
import type { JpegContainer } from "./container";
import { idct8x8, idctDcOnly, idctDcOnlyHalf, idctHalf } from "./idct";
import { type ChromaSeen, isRgb, outputSize, samplePlanes, writeMcuRow } from "./output";
import { type McuRowTarget, spanMcus, writtenColumns } from "./row-target";
import { ScanCursor } from "./scans";
import { ZIGZAG } from "./zigzag";

/**
 * Decodes a JPEG whose coefficients arrive over several scans (progressive, or sequential with the
 * components in separate scans) an MCU row at a time: every scan adds its part of the row's
 * coefficients, each resuming where it stopped on the row above, then the row is turned into
 * pixels, into `target`. It holds one MCU row of coefficients, whatever the image's size. With a
 * `target.span`, only the MCUs around it become pixels and the decode ends after its last row;
 * with `target.wanted`, only the wanted MCUs, and the decode ends after the last of them.
 */
export function decodeBuffered(bytes: Uint8Array, jpeg: JpegContainer, target: McuRowTarget): ChromaSeen {
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
	const coefficients = store.coefficients;
	const coef = new Int32Array(64);
	const rgb = isRgb(frame.components, adobeTransform);
	const mcus = spanMcus(grid, target.span);
	const { wanted } = target;
	for (let my = 0; my < (wanted ? Math.min(mcus.y1, wanted.endRow) : mcus.y1); my++) {
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
						let ac = 0;
						for (let i = 1; i < 64; i++) ac |= coef[i] = coefficients[at + i]! * q[i]!;
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

/** A quantisation table (zigzag order, as stored) in the natural order the coefficients are kept in. */
function naturalOrder(zigzag: Int32Array | undefined): Int32Array {
	const natural = new Int32Array(64);
	if (zigzag) for (let k = 0; k < 64; k++) natural[ZIGZAG[k]!] = zigzag[k]!;
	return natural;
}
