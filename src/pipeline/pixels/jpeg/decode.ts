import type { Box, Raster, RowSink } from "../../types";
import { decodeBaseline } from "./baseline";
import { decodeBuffered, ScanPlaces } from "./buffered";
import { mcuRowBytes } from "./coefficients";
import { type JpegContainer, mcuGrid, oneScan } from "./container";
import { EntropyMarks } from "./entropy-marks";
import { isRgb, outputSize } from "./output";
import { bandTarget, type McuRowTarget, rasterTarget } from "./row-target";
import { decodeTurnedRows, turnedDecodes, turnedHeldBytes } from "./turned";
import { WantedMcus } from "./wanted-mcus";

/**
 * Decodes a JPEG our decoder takes to RGBA rows as displayed, one MCU row at a time: a sequential
 * JPEG whose one scan carries every component as it streams; one whose coefficients come over
 * several scans with every scan taking its turn on each MCU row (`decodeBuffered`). Orientations 1 and 2 (a
 * mirror) need nothing more; the others turn or flip the whole image, so their displayed rows are
 * made a window at a time, each from a decode of the stored image (`decodeTurnedRows`).
 *
 * With `wanted`, only the MCUs holding those areas become pixels: the other pixels of the rows
 * handed out are left as they were, and the decode ends after the areas' last row (a turned JPEG's
 * window, after the last of its areas; a window holding none is not decoded).
 */
export function decodeJpegRows(bytes: Uint8Array, jpeg: JpegContainer, sink: RowSink, wanted?: readonly Box[]): void {
	const { frame, orientation } = jpeg;
	if (orientation > 2) {
		decodeTurnedRows(bytes, jpeg, sink, undefined, wanted);
		return;
	}
	const grid = mcuGrid(frame);
	const mirror = orientation === 2;
	const stored = mirror ? wanted?.map((b) => ({ ...b, x0: frame.width - b.x1, x1: frame.width - b.x0 })) : wanted;
	const target = bandTarget(grid, frame.width, sink, { mirror, wanted: stored && new WantedMcus(grid, stored) });
	if (oneScan(jpeg)) decodeBaseline(bytes, jpeg, target);
	else decodeBuffered(bytes, jpeg, target);
}

/**
 * Decodes of a JPEG that a sink may stop and a later decode take up near where it stopped.
 * `decode(sink, from)` hands out every row from `from` on, and may hand some before it (which the
 * sink skips). Orientation 1 or 2: it starts at the MCU row above the one holding `from` (whose
 * chroma the upsampling reads), where an earlier decode wrote down its place: a one-scan JPEG the
 * reader's and the DC predictions at every MCU row (`EntropyMarks`), a multi-scan one every scan's
 * cursor at the last two MCU rows it began and every fourth (`ScanPlaces`); without a place there,
 * from the top. Turned by EXIF: at the window holding `from`, a one-scan JPEG's windows reading
 * only their own MCUs from the marks the first decode wrote down (turned.ts). The rows are exactly
 * those of a decode from the top. Pass 3 stops when enough of the PNG waits for the response; a
 * noisy photo's used to be decoded from its top once per stop.
 */
export function resumableJpegRows(bytes: Uint8Array, jpeg: JpegContainer): (sink: RowSink, from: number) => void {
	if (jpeg.orientation > 2) {
		const decode = turnedDecodes(bytes, jpeg);
		return (sink, from) => decode(sink, undefined, from);
	}
	return placedDecodes(bytes, jpeg).resumable;
}

/**
 * The decodes of a JPEG of orientation 1 or 2 after the model, sharing where they have been
 * (`resumableJpegRows`): pass 2's for boxes (`rows`, as decodeJpegRows with `wanted`), once per
 * group of crops, each starting at the MCU row above its first box where an earlier decode wrote
 * that place down (a second group halfway down a page used to read the data from the top), and
 * pass 3's, taken up again (`resumable`).
 */
export function placedDecodes(
	bytes: Uint8Array,
	jpeg: JpegContainer,
): { rows(sink: RowSink, wanted: readonly Box[]): void; resumable(sink: RowSink, from: number): void } {
	const { frame, orientation } = jpeg;
	if (orientation > 2) throw new Error("a turned JPEG's decodes share window marks (turned.ts)");
	const grid = mcuGrid(frame);
	const marks = oneScan(jpeg) ? new EntropyMarks(grid, frame.components.length, [0]) : undefined;
	const places = marks ? undefined : new ScanPlaces(jpeg.scans.length, grid.mcusY);
	const mirror = orientation === 2;
	const decode = (target: McuRowTarget) => {
		if (marks) decodeBaseline(bytes, jpeg, target, marks);
		else decodeBuffered(bytes, jpeg, target, places);
	};
	return {
		rows(sink, wanted) {
			const stored = mirror ? wanted.map((b) => ({ ...b, x0: frame.width - b.x1, x1: frame.width - b.x0 })) : wanted;
			decode(bandTarget(grid, frame.width, sink, { mirror, wanted: new WantedMcus(grid, stored) }));
		},
		resumable(sink, from) {
			const target = bandTarget(grid, frame.width, sink, { mirror });
			const span = from > 0 ? { x0: 0, x1: frame.width, y0: from, y1: frame.height } : undefined;
			decode({ ...target, span });
		},
	};
}

/**
 * The JPEG at half its size each way (rounded up), as displayed, for a reader's copy: each block's
 * 4×4 pixels are the averages of its 2×2 pixels straight from its coefficients (idctHalf), which
 * skips most of the IDCT, upsampling and colour conversion, though the data is read through whole. Orientations 1 and 2 only. Answers
 * whether the full-size pixels may hold colour: a YCbCr JPEG's are all grey when no coefficient of
 * its chroma is non-zero; an RGB JPEG is taken to have colour.
 */
export function decodeJpegHalfRows(bytes: Uint8Array, jpeg: JpegContainer, sink: RowSink): { colour: boolean } {
	const { frame, orientation } = jpeg;
	if (orientation > 2) throw new Error("a turned JPEG is not decoded at half size");
	const grid = mcuGrid(frame);
	const { width } = outputSize(frame, 4);
	const target = bandTarget(grid, width, sink, { mirror: orientation === 2, block: 4 });
	const chroma = oneScan(jpeg) ? decodeBaseline(bytes, jpeg, target) : decodeBuffered(bytes, jpeg, target);
	if (frame.components.length === 1) return { colour: false };
	return { colour: isRgb(frame.components, jpeg.adobeTransform) || chroma };
}

/** The JPEG as stored (before its EXIF orientation), in one raster. */
export function decodeJpegRaster(bytes: Uint8Array, jpeg: JpegContainer): Raster {
	const { width, height } = jpeg.frame;
	const grid = mcuGrid(jpeg.frame);
	const data = new Uint8Array(width * height * 4);
	const target = rasterTarget(grid, new Int32Array(data.buffer));
	if (oneScan(jpeg)) decodeBaseline(bytes, jpeg, target);
	else decodeBuffered(bytes, jpeg, target);
	return { width, height, data };
}

/** Bytes `decodeJpegRows` holds besides the file, for the probe's price. */
export function jpegHeldBytes(jpeg: JpegContainer): number {
	const { width } = jpeg.frame;
	const grid = mcuGrid(jpeg.frame);
	// Per component one MCU row of samples, and an upsampled row of the width.
	const rows = grid.h.reduce((n, h, c) => n + grid.mcusX * h * 8 * grid.v[c]! * 8 + width * 16, 0);
	const coefficients = oneScan(jpeg) ? 0 : mcuRowBytes(grid);
	// Where resumable decodes can be taken up: a one-scan JPEG's every MCU row, a multi-scan one's last two.
	const marks = oneScan(jpeg)
		? EntropyMarks.bytes(grid, jpeg.frame.components.length, 1)
		: ScanPlaces.bytes(jpeg.scans.length, grid.mcusY);
	if (jpeg.orientation <= 2) return rows + coefficients + marks + width * 8 * grid.vmax * 4;
	return rows + coefficients + turnedHeldBytes(jpeg);
}
