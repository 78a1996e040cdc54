import type { JpegContainer } from "./container";
import type { EntropyMarks } from "./entropy-marks";
import { JpegFormatError } from "./errors";
import { BitReader, type HuffmanTable } from "./huffman";
import { idct8x8, idctDcOnly, idctDcOnlyHalf, idctHalf } from "./idct";
import { type ChromaSeen, isRgb, outputSize, type SamplePlane, samplePlanes, writeMcuRow } from "./output";
import { type McuRowTarget, spanMcus, spanMcusInside, writtenColumns } from "./row-target";
import { ZIGZAG } from "./zigzag";

interface Plane extends SamplePlane {
	quant: Int32Array;
	pred: number;
	chroma: boolean;
}

/**
 * Decodes a sequential JPEG whose one scan carries every component (baseline, as cameras and most
 * encoders write it) one MCU row at a time into `target`: besides the target only one row of
 * blocks per component is held. Subsampled chroma is interpolated linearly (like libjpeg's
 * "fancy" upsampling, except below the last row of each MCU row, which repeats).
 *
 * With a `target.span`, only the MCUs that hold its pixels (and one around them, for the
 * upsampling) are turned into pixels, and the decode ends after its last row; `marks` lets each MCU
 * row start at the span's first column where an earlier decode wrote down that place. With
 * `target.wanted`, only the wanted MCUs are, and the decode ends after the last of them.
 */
export function decodeBaseline(
	bytes: Uint8Array,
	jpeg: JpegContainer,
	target: McuRowTarget,
	marks?: EntropyMarks,
): ChromaSeen {
	const { frame, adobeTransform } = jpeg;
	const scan = jpeg.scans[0]!;
	const { block } = target;
	const { width, height } = outputSize(frame, block);
	const grid = target.grid;
	const planes: Plane[] = samplePlanes(width, grid, block).map((plane, i) => ({
		...plane,
		quant: frame.components[i]!.quant!,
		pred: 0,
		chroma: i > 0,
	}));
	/** Non-zero where any coefficient of the second or third component was. */
	let chroma = 0;
	const reader = new BitReader(bytes, scan.start);
	const coef = new Int32Array(64);
	const written = new Int32Array(64);
	const rgb = isRgb(frame.components, adobeTransform);
	const { restartInterval } = scan;
	// Blocks come in the scan's component order, which need not be the frame's.
	const inScanOrder = scan.components.map((c, i) => ({ p: planes[c.index]!, dc: scan.dc[i]!, ac: scan.ac[i]! }));
	const mcus = spanMcus(grid, target.span);
	const inside = spanMcusInside(grid, target.span);
	const { wanted } = target;
	/** The MCU the reader stands at, counted across rows. */
	let mcu = 0;
	// Rows above the span, or above the first wanted row, are read only as far as the marks cannot skip them.
	const top = wanted ? Math.max(mcus.y0, wanted.firstRow) : mcus.y0;
	for (let my = top; my < (wanted ? Math.min(mcus.y1, wanted.endRow) : mcus.y1); my++) {
		const first = my * grid.mcusX + mcus.x0;
		const wantedColumns = wanted?.row(my);
		if (mcu !== first && marks?.restore(my, mcus.x0, reader, planes)) mcu = first;
		for (const last = my * grid.mcusX + mcus.x1; mcu < last; mcu++) {
			const mx = mcu % grid.mcusX;
			marks?.pass((mcu / grid.mcusX) | 0, mx, reader, planes);
			if (restartInterval && mcu > 0 && mcu % restartInterval === 0) {
				reader.restart();
				for (const p of planes) p.pred = 0;
			}
			// MCUs before this row's span (earlier rows, or its left) are read, not turned into pixels;
			// those around it only for the upsampling, which reads the subsampled planes alone.
			const shown = mcu >= first && (!wantedColumns || wantedColumns[mx] === 1);
			const around = my < inside.y0 || mx < inside.x0 || mx >= inside.x1;
			for (const { p, dc, ac } of inScanOrder) {
				const transform = shown && (!around || p.upsampler !== undefined);
				for (let by = 0; by < p.v; by++) {
					for (let bx = 0; bx < p.h; bx++) {
						if (!transform) {
							const set = skipBlock(reader, p, dc, ac);
							if (p.chroma) chroma |= set | p.pred;
							continue;
						}
						const set = decodeBlock(reader, p, dc, ac, coef, written);
						if (p.chroma) chroma |= set | p.pred;
						const at = by * block * p.stride + (mx * p.h + bx) * block;
						if (block === 4) {
							if (set === 0) idctDcOnlyHalf(coef[0]!, p.rows, at, p.stride);
							else idctHalf(coef, p.rows, at, p.stride);
						} else if (set === 0) idctDcOnly(coef[0]!, p.rows, at, p.stride);
						else idct8x8(coef, p.rows, at, p.stride);
						// Clear only what was set: most coefficients of most blocks are zero.
						for (let i = 0; i < set; i++) coef[written[i]!] = 0;
					}
				}
			}
		}
		if (reader.truncated) throw new JpegFormatError("data ends before the last block");
		const y0 = my * block * grid.vmax;
		const y1 = Math.min(height, y0 + block * grid.vmax);
		const columns = writtenColumns(target, width, my);
		writeMcuRow(planes, target.pixels, width, y0, y1, grid.vmax, rgb, target.firstRow(y0), target.span, columns);
		target.written(y0, y1);
	}
	return chroma !== 0;
}

/**
 * Reads past one block that will not become pixels: its DC prediction kept, its coefficients not.
 * Returns how many AC coefficients it has.
 */
function skipBlock(reader: BitReader, p: Plane, dc: HuffmanTable, ac: HuffmanTable): number {
	let set = 0;
	p.pred += reader.receiveExtend(reader.decode(dc));
	for (let k = 1; k < 64; ) {
		const rs = reader.decode(ac);
		const s = rs & 15;
		if (s === 0) {
			if (rs >> 4 < 15) break; // end of block
			k += 16;
			continue;
		}
		k += rs >> 4;
		if (k > 63) throw new JpegFormatError("coefficient index past 63");
		reader.skip(s);
		set++;
		k++;
	}
	return set;
}

/**
 * Reads one block's coefficients, dequantised, into `coef` (natural order; all AC entries must be
 * zero on entry). Returns how many AC coefficients it set, their indices listed in `written`.
 */
function decodeBlock(
	reader: BitReader,
	p: Plane,
	dc: HuffmanTable,
	ac: HuffmanTable,
	coef: Int32Array,
	written: Int32Array,
): number {
	let set = 0;
	p.pred += reader.receiveExtend(reader.decode(dc));
	coef[0] = p.pred * p.quant[0]!;
	for (let k = 1; k < 64; ) {
		const rs = reader.decode(ac);
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
