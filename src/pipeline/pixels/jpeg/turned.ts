import { freeBuffer } from "../../free-buffer";
import { clipBox } from "../../patch";
import type { Box, RowSink } from "../../types";
import { decodeBaseline } from "./baseline";
import { decodeBuffered } from "./buffered";
import { type JpegContainer, type McuGrid, mcuGrid, oneScan } from "./container";
import { EntropyMarks } from "./entropy-marks";
import { spanMcus } from "./row-target";
import { ScanMarks } from "./scan-marks";
import { WantedMcus } from "./wanted-mcus";

/**
 * Decodes a JPEG turned or flipped by its EXIF orientation (3 to 8) to rows as displayed without
 * ever holding the image: the displayed rows are made a window at a time, each window by decoding
 * the stored image again and keeping only the pixels that land in it. For a quarter turn (5 to 8)
 * a window of displayed rows is a band of stored columns, so each window's decode runs over every
 * MCU row but turns only its columns into pixels; for the half turn and the vertical flip (3, 4) it
 * is a band of stored rows from the bottom, and the decode stops after them.
 *
 * A sequential JPEG with one scan (what cameras write) reads its whole data once: the first
 * window's decode writes down where every window's MCUs start in each MCU row (`EntropyMarks`),
 * and the later windows start there. A multi-scan JPEG does the same in every scan (`ScanMarks`: each
 * scan's place at every window's first column of every row it codes). It holds a window of its
 * rows as displayed, a quarter of the image: fewer, larger windows (see turnWindow).
 *
 * With `wanted` (displayed areas: pass 2's crops), a window turns into pixels only the MCUs around
 * the areas it holds, its decode ends after the last of them, and a window holding none is not
 * decoded at all: its rows are handed out as they are.
 */
export function decodeTurnedRows(
	bytes: Uint8Array,
	jpeg: JpegContainer,
	sink: RowSink,
	window = turnWindow(jpeg),
	wanted?: readonly Box[],
): void {
	turnedDecodes(bytes, jpeg, window)(sink, wanted);
}

/**
 * Decodes of a turned JPEG that share one set of marks, so that a decode taken up again (pass 3,
 * stopped whenever enough PNG waits) reads only its windows' MCUs: `decode(sink, wanted, from)` is
 * `decodeTurnedRows` from the window holding displayed row `from` on (the rows of that window
 * before `from` are handed out too, for the sink to skip).
 */
export function turnedDecodes(
	bytes: Uint8Array,
	jpeg: JpegContainer,
	window = turnWindow(jpeg),
): (sink: RowSink, wanted?: readonly Box[], from?: number) => void {
	const { frame, orientation } = jpeg;
	const { width: w, height: h } = frame;
	const grid = mcuGrid(frame);
	const swapped = orientation >= 5;
	const shownWidth = swapped ? h : w;
	const shownHeight = swapped ? w : h;
	// Displayed (dx, dy) comes from stored (sx, sy); see applyOrientation for the eight cases.
	const flipX = orientation === 3 || orientation === 6 || orientation === 7;
	const flipY = orientation === 3 || orientation === 4 || orientation === 7 || orientation === 8;
	const columns = windowColumns(grid, window.rows, shownHeight, swapped, flipY, w);
	const marks = oneScan(jpeg) ? new EntropyMarks(grid, frame.components.length, columns) : undefined;
	const scanMarks = marks ? undefined : new ScanMarks(frame, grid, jpeg.scans, columns);
	return (sink, wanted, from = 0) => {
		const windowBytes = new Uint8Array(window.rows * shownWidth * 4);
		const shown = new Int32Array(windowBytes.buffer);
		const band = new Int32Array(w * 8 * grid.vmax);
		const storedWanted = wanted?.map((box) => storedBox(box, w, h, swapped, flipX, flipY));
		// A quarter of a multi-scan image at a time: freed when the decode ends, not left to the
		// collector (each pass decodes anew, and three such windows waiting for it raised the peak).
		try {
			for (let top = from - (from % window.rows); top < shownHeight; top += window.rows) {
				const count = Math.min(window.rows, shownHeight - top);
				// The stored pixels of displayed rows top..top+count: columns (5 to 8) or rows (3, 4).
				const first = flipY ? (swapped ? w : h) - top - count : top;
				const span = swapped
					? { x0: first, x1: first + count, y0: 0, y1: h }
					: { x0: 0, x1: w, y0: first, y1: first + count };
				const inWindow = storedWanted
					?.map((box) => clipBox(box, span))
					.filter((box) => box.x0 < box.x1 && box.y0 < box.y1);
				if (inWindow?.length === 0) {
					sink.rows(top, count, windowBytes.subarray(0, count * shownWidth * 4));
					continue;
				}
				const written = (y0: number, y1: number) => {
					const from = Math.max(y0, span.y0);
					const to = Math.min(y1, span.y1);
					if (swapped) {
						// A stored column of the MCU row is a run of a displayed row: written a run at a
						// time, the band read down its columns (it is small), the window along its rows.
						const step = flipX ? -1 : 1;
						const dx0 = flipX ? h - 1 - from : from;
						for (let sx = span.x0; sx < span.x1; sx++) {
							const dy = flipY ? w - 1 - sx : sx;
							let at = (dy - top) * shownWidth + dx0;
							for (let i = (from - y0) * w + sx, end = (to - y0) * w; i < end; i += w, at += step) {
								shown[at] = band[i]!;
							}
						}
						return;
					}
					for (let sy = from; sy < to; sy++) {
						const row = (sy - y0) * w;
						const dy = flipY ? h - 1 - sy : sy;
						const out = shown.subarray((dy - top) * w, (dy - top + 1) * w);
						out.set(band.subarray(row, row + w));
						if (flipX) out.reverse();
					}
				};
				const target = {
					grid,
					pixels: band,
					block: 8 as const,
					firstRow: (y0: number) => y0,
					written,
					span,
					wanted: inWindow && new WantedMcus(grid, inWindow),
				};
				if (marks) decodeBaseline(bytes, jpeg, target, marks);
				else decodeBuffered(bytes, jpeg, target, undefined, scanMarks);
				sink.rows(top, count, windowBytes.subarray(0, count * shownWidth * 4));
			}
		} finally {
			freeBuffer(windowBytes);
		}
	};
}

/** The stored pixels of a displayed box (see `written` above for where each displayed pixel comes from). */
function storedBox(box: Box, w: number, h: number, swapped: boolean, flipX: boolean, flipY: boolean): Box {
	const across = swapped ? { from: box.y0, to: box.y1, size: w } : { from: box.x0, to: box.x1, size: w };
	const down = swapped ? { from: box.x0, to: box.x1, size: h } : { from: box.y0, to: box.y1, size: h };
	const flipAcross = swapped ? flipY : flipX;
	const flipDown = swapped ? flipX : flipY;
	return {
		x0: flipAcross ? across.size - across.to : across.from,
		x1: flipAcross ? across.size - across.from : across.to,
		y0: flipDown ? down.size - down.to : down.from,
		y1: flipDown ? down.size - down.from : down.to,
	};
}

/**
 * Bytes of displayed rows a window holds. A sequential JPEG reads its data about twice whatever the
 * number of windows, so its windows are small enough that 25 MP fits the call's memory; a multi-scan
 * JPEG takes a quarter of the image at a time: its marks grow with the windows, a number a row of
 * every scan for each (smaller windows would hold less pixels but more marks).
 */
export const SEQUENTIAL_WINDOW_BYTES = 2 * 1024 * 1024;
const MULTI_SCAN_WINDOWS = 4;

/**
 * Displayed rows per window for `jpeg`. A sequential JPEG's are whole MCUs of the stored image (its
 * columns for a quarter turn, its rows else): a window ending inside an MCU would decode that MCU
 * twice, once for each window it falls in.
 */
export function turnWindow(jpeg: JpegContainer): { rows: number } {
	const { width, height } = jpeg.frame;
	const swapped = jpeg.orientation >= 5;
	const shownWidth = swapped ? height : width;
	const shownHeight = swapped ? width : height;
	if (!oneScan(jpeg)) {
		const bytes = Math.ceil((shownWidth * shownHeight * 4) / MULTI_SCAN_WINDOWS);
		return { rows: Math.max(1, Math.min(shownHeight, Math.floor(bytes / (shownWidth * 4)))) };
	}
	const grid = mcuGrid(jpeg.frame);
	const mcu = 8 * (swapped ? grid.hmax : grid.vmax);
	const rows = Math.floor(SEQUENTIAL_WINDOW_BYTES / (shownWidth * 4));
	return { rows: Math.max(1, Math.min(shownHeight, rows >= mcu ? rows - (rows % mcu) : rows)) };
}

/** Bytes `decodeTurnedRows` holds besides the decoder's own rows: the window, a stored MCU row, the marks. */
export function turnedHeldBytes(jpeg: JpegContainer): number {
	const { width, height } = jpeg.frame;
	const grid = mcuGrid(jpeg.frame);
	const shownWidth = jpeg.orientation >= 5 ? height : width;
	const shownHeight = jpeg.orientation >= 5 ? width : height;
	const { rows } = turnWindow(jpeg);
	const swapped = jpeg.orientation >= 5;
	const flipY = jpeg.orientation === 3 || jpeg.orientation === 4 || jpeg.orientation === 7 || jpeg.orientation === 8;
	const columns = windowColumns(grid, rows, shownHeight, swapped, flipY, width).length;
	const marks = oneScan(jpeg)
		? EntropyMarks.bytes(grid, jpeg.frame.components.length, columns)
		: ScanMarks.bytes(jpeg.frame, grid, jpeg.scans, columns);
	return rows * shownWidth * 4 + width * 8 * grid.vmax * 4 + marks;
}

/** The MCU columns where each window's decode starts in an MCU row: its first (quarter turns) or column 0. */
function windowColumns(
	grid: McuGrid,
	rows: number,
	shownHeight: number,
	swapped: boolean,
	flipY: boolean,
	storedWidth: number,
): number[] {
	const columns = new Set<number>([0]);
	if (swapped) {
		for (let top = 0; top < shownHeight; top += rows) {
			const count = Math.min(rows, shownHeight - top);
			const x0 = flipY ? storedWidth - top - count : top;
			columns.add(spanMcus(grid, { x0, x1: x0 + count, y0: 0, y1: 1 }).x0);
		}
	}
	return [...columns];
}
