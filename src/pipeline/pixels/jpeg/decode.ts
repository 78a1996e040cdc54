import type { Raster, RowSink } from "../../types";
import { emitOriented, orientedBandRows } from "../orientation";
import { decodeBaseline } from "./baseline";
import { decodeBuffered } from "./buffered";
import { CoefficientStore, inPlaceSize, mcuRowBytes } from "./coefficients";
import { type JpegContainer, mcuGrid } from "./container";
import { bandTarget, rasterTarget } from "./row-target";

/**
 * Decodes a JPEG our decoder takes to RGBA rows as displayed. A sequential JPEG whose one scan
 * carries every component streams, one MCU row at a time; one whose coefficients come over several
 * scans keeps them (2 bytes a sample) until the last scan, then streams. Orientations 1 and 2 (a
 * mirror) need nothing more; the others turn or flip the whole image, so it is decoded into a raster
 * first (`decodeJpegRaster`) and its rows are emitted from there.
 */
export function decodeJpegRows(bytes: Uint8Array, jpeg: JpegContainer, sink: RowSink): void {
	const { frame, orientation } = jpeg;
	if (orientation > 2) {
		emitOriented(decodeJpegRaster(bytes, jpeg), orientation, sink);
		return;
	}
	const grid = mcuGrid(frame);
	const target = bandTarget(grid, frame.width, sink, orientation === 2);
	if (streams(jpeg)) decodeBaseline(bytes, jpeg, target);
	else decodeBuffered(bytes, jpeg, new CoefficientStore(frame.width, frame.height, grid, false), target);
}

/** The JPEG as stored (before its EXIF orientation), in one raster: multi-scan coefficients live in its own buffer. */
export function decodeJpegRaster(bytes: Uint8Array, jpeg: JpegContainer): Raster {
	const { width, height } = jpeg.frame;
	const grid = mcuGrid(jpeg.frame);
	if (streams(jpeg)) {
		const data = new Uint8Array(width * height * 4);
		decodeBaseline(bytes, jpeg, rasterTarget(grid, new Int32Array(data.buffer)));
		return { width, height, data };
	}
	const store = new CoefficientStore(width, height, grid, true);
	decodeBuffered(bytes, jpeg, store, rasterTarget(grid, new Int32Array(store.buffer, 0, width * height)));
	return { width, height, data: new Uint8Array(store.buffer, 0, width * height * 4) };
}

/** One sequential scan with every component: decoded as it streams. */
function streams(jpeg: JpegContainer): boolean {
	return !jpeg.frame.progressive && jpeg.scans.length === 1;
}

/** Bytes `decodeJpegRows` holds besides the file, for the probe's price. */
export function jpegHeldBytes(jpeg: JpegContainer): number {
	const { width, height } = jpeg.frame;
	const grid = mcuGrid(jpeg.frame);
	// Per component one MCU row of samples, and an upsampled row of the width.
	const rows = grid.h.reduce((n, h, c) => n + grid.mcusX * h * 8 * grid.v[c]! * 8 + width * 16, 0);
	if (jpeg.orientation <= 2) {
		const band = width * 8 * grid.vmax * 4;
		return rows + band + (streams(jpeg) ? 0 : grid.mcusY * mcuRowBytes(grid));
	}
	// The stored raster (with the coefficients in its buffer), then a band of displayed rows.
	const raster = streams(jpeg) ? width * height * 4 : inPlaceSize(width, height, grid, mcuRowBytes(grid));
	const shownWidth = jpeg.orientation >= 5 ? height : width;
	return rows + raster + shownWidth * orientedBandRows(jpeg.orientation, width, height) * 4;
}
