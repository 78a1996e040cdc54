import type { Raster } from "../../types";
import { CoefficientStore } from "./coefficients";
import { JpegFormatError } from "./errors";
import { idct8x8, idctDcOnly } from "./idct";
import { isRgb, mcuGrid, samplePlanes, writeMcuRow } from "./output";
import { type Headers, nextScan, type Scan } from "./parse";
import { decodeScan } from "./scans";
import { ZIGZAG } from "./zigzag";

/**
 * Decodes a JPEG whose coefficients arrive over several scans (progressive, or sequential with the
 * components in separate scans): every scan is read into the coefficient store, which lives in the
 * tail of the raster's own buffer (see CoefficientStore), then the MCU rows are turned into RGBA
 * top to bottom, in place.
 */
export function decodeBuffered(bytes: Uint8Array, { frame, tables, scan: first }: Headers): Raster {
	const { width, height } = frame;
	const grid = mcuGrid(width, height, frame.components);
	const store = new CoefficientStore(width, height, grid);
	for (let scan: Scan | undefined = first; scan; ) {
		const end = decodeScan(bytes, frame, grid, store, scan, tables.restartInterval);
		scan = nextScan(bytes, end, frame, tables);
	}
	const planes = samplePlanes(width, grid);
	const quant = frame.components.map((c) => naturalOrder(tables.quant[c.quant]));
	const data = new Uint8Array(store.buffer, 0, width * height * 4);
	const pixels = new Int32Array(store.buffer, 0, width * height);
	const coefficients = store.coefficients;
	const coef = new Int32Array(64);
	const rgb = isRgb(frame.components, tables.adobeTransform);
	for (let my = 0; my < grid.mcusY; my++) {
		for (let c = 0; c < planes.length; c++) {
			const p = planes[c]!;
			const q = quant[c]!;
			for (let by = 0; by < p.v; by++) {
				for (let bx = 0; bx < store.blocksPerLine[c]!; bx++) {
					const at = store.block(c, bx, my * p.v + by);
					let ac = 0;
					for (let i = 1; i < 64; i++) ac |= coef[i] = coefficients[at + i]! * q[i]!;
					const out = by * 8 * p.stride + bx * 8;
					if (ac === 0) idctDcOnly(coefficients[at]! * q[0]!, p.rows, out, p.stride);
					else {
						coef[0] = coefficients[at]! * q[0]!;
						idct8x8(coef, p.rows, out, p.stride);
					}
				}
			}
		}
		const y0 = my * 8 * grid.vmax;
		writeMcuRow(planes, data, pixels, width, y0, Math.min(height, y0 + 8 * grid.vmax), grid.vmax, rgb);
	}
	return { width, height, data };
}

/** A quantisation table (zigzag order, as stored) in the natural order the coefficients are kept in. */
function naturalOrder(zigzag: Int32Array | undefined): Int32Array {
	if (!zigzag) throw new JpegFormatError("undefined quantisation table");
	const natural = new Int32Array(64);
	for (let k = 0; k < 64; k++) natural[ZIGZAG[k]!] = zigzag[k]!;
	return natural;
}
