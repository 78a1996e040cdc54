import type { Raster } from "../../types";
import { JpegFormatError } from "./errors";
import { BitReader } from "./huffman";
import { idct8x8, idctDcOnly } from "./idct";
import { isRgb, mcuGrid, type SamplePlane, samplePlanes, writeMcuRow } from "./output";
import type { Component, Headers } from "./parse";
import { ZIGZAG } from "./zigzag";

interface Plane extends SamplePlane {
	component: Component;
	quant: Int32Array;
	pred: number;
}

/**
 * Decodes a sequential JPEG whose first scan carries every component (baseline, as cameras and
 * most encoders write it) straight into an RGBA raster, one MCU row at a time: besides the raster
 * only one row of blocks per component is held. Subsampled chroma is interpolated linearly (like
 * libjpeg's "fancy" upsampling, except below the last row of each MCU row, which repeats).
 */
export function decodeBaseline(bytes: Uint8Array, { frame, tables, scan }: Headers): Raster {
	const { width, height } = frame;
	const grid = mcuGrid(width, height, frame.components);
	const planes: Plane[] = samplePlanes(width, grid).map((plane, i) => {
		const component = frame.components[i]!;
		const quant = tables.quant[component.quant];
		if (!quant) throw new JpegFormatError("undefined quantisation table");
		return { ...plane, component, quant, pred: 0 };
	});
	const data = new Uint8Array(width * height * 4);
	const pixels = new Int32Array(data.buffer);
	const reader = new BitReader(bytes, scan.start);
	const coef = new Int32Array(64);
	const written = new Int32Array(64);
	const rgb = isRgb(frame.components, tables.adobeTransform);
	const { restartInterval } = tables;
	// Blocks come in the scan's component order, which need not be the frame's.
	const inScanOrder = scan.components.map((c) => planes[c.index]!);
	let mcu = 0;
	for (let my = 0; my < grid.mcusY; my++) {
		for (let mx = 0; mx < grid.mcusX; mx++) {
			if (restartInterval && mcu > 0 && mcu % restartInterval === 0) {
				reader.restart();
				for (const p of planes) p.pred = 0;
			}
			for (const p of inScanOrder) {
				for (let by = 0; by < p.v; by++) {
					for (let bx = 0; bx < p.h; bx++) {
						const set = decodeBlock(reader, p, coef, written);
						const at = by * 8 * p.stride + (mx * p.h + bx) * 8;
						if (set === 0) idctDcOnly(coef[0]!, p.rows, at, p.stride);
						else idct8x8(coef, p.rows, at, p.stride);
						// Clear only what was set: most coefficients of most blocks are zero.
						for (let i = 0; i < set; i++) coef[written[i]!] = 0;
					}
				}
			}
			mcu++;
		}
		if (reader.truncated) throw new JpegFormatError("data ends before the last block");
		const y0 = my * 8 * grid.vmax;
		writeMcuRow(planes, data, pixels, width, y0, Math.min(height, y0 + 8 * grid.vmax), grid.vmax, rgb);
	}
	return { width, height, data };
}

/**
 * Reads one block's coefficients, dequantised, into `coef` (natural order; all AC entries must be
 * zero on entry). Returns how many AC coefficients it set, their indices listed in `written`.
 */
function decodeBlock(reader: BitReader, p: Plane, coef: Int32Array, written: Int32Array): number {
	const { dc, ac } = p.component;
	let set = 0;
	p.pred += reader.receiveExtend(reader.decode(dc!));
	coef[0] = p.pred * p.quant[0]!;
	for (let k = 1; k < 64; ) {
		const rs = reader.decode(ac!);
		const s = rs & 15;
		const r = rs >> 4;
		if (s === 0) {
			if (r < 15) break; // end of block
			k += 16;
			continue;
		}
		k += r;
		if (k > 63) throw new JpegFormatError("coefficient index past 63");
		const z = ZIGZAG[k]!;
		coef[z] = reader.receiveExtend(s) * p.quant[k]!;
		written[set++] = z;
		k++;
	}
	return set;
}
