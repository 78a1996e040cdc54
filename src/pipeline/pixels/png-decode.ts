import type { Raster } from "../types";
import { inflateZlib } from "./inflate";
import { PngFormatError, type PngHeader, readPngChunks } from "./png-chunks";
import { unfilterRow } from "./png-filters";
import { type RowConverter, rowConverter } from "./png-rows";

/**
 * Decodes a PNG straight into one RGBA buffer, inflating the IDAT stream with our own inflater
 * and unfiltering row by row. Only the output raster, two rows and the inflater's window are
 * ever allocated, where a general decoder (photon) would hold the pixels three times over and
 * the runtime's DecompressionStream leaves its output chunks (the image's size again) as garbage.
 */
export function decodePng(bytes: Uint8Array): Raster {
	const png = readPngChunks(bytes);
	const { width, height } = png.header;
	const raster: Raster = { width, height, data: new Uint8Array(width * height * 4) };
	const rows = new RowSink(png.header, rowConverter(png), raster);
	// Trailing bytes after the last row are ignored, as browsers do.
	inflateZlib(png.idat, (bytes) => rows.push(bytes));
	if (!rows.done) throw new PngFormatError("image data ends before the last row");
	return raster;
}

/** Adam7 passes as [startX, startY, stepX, stepY]; a plain image is one pass of step 1. */
const ADAM7 = [
	[0, 0, 8, 8],
	[4, 0, 8, 8],
	[0, 4, 4, 8],
	[2, 0, 4, 4],
	[0, 2, 2, 4],
	[1, 0, 2, 2],
	[0, 1, 1, 2],
] as const;
const PLAIN = [[0, 0, 1, 1]] as const;

/** Collects inflated bytes into filtered rows, unfilters them and writes RGBA into the raster. */
class RowSink {
	done = false;
	private readonly passes: readonly (readonly [number, number, number, number])[];
	private readonly bitsPerPixel: number;
	private readonly bytesPerPixel: number;
	private readonly rgba: Uint8Array;
	private pass = -1;
	private passWidth = 0;
	private passHeight = 0;
	private row = 0;
	private filled = 0;
	private current = new Uint8Array(0);
	private previous = new Uint8Array(0);

	constructor(
		header: PngHeader,
		private readonly convert: RowConverter,
		private readonly raster: Raster,
	) {
		this.passes = header.interlaced ? ADAM7 : PLAIN;
		this.bitsPerPixel = header.bitsPerPixel;
		this.bytesPerPixel = Math.max(1, header.bitsPerPixel >> 3);
		this.rgba = new Uint8Array(raster.width * 4);
		this.nextPass();
	}

	/** Takes the next inflated bytes; true once the last row is in. */
	push(chunk: Uint8Array): boolean {
		let at = 0;
		while (at < chunk.length && !this.done) {
			const take = Math.min(this.current.length - this.filled, chunk.length - at);
			this.current.set(chunk.subarray(at, at + take), this.filled);
			this.filled += take;
			at += take;
			if (this.filled === this.current.length) this.finishRow();
		}
		return this.done;
	}

	private finishRow(): void {
		const filter = this.current[0]!;
		const line = this.current.subarray(1);
		if (!unfilterRow(filter, line, this.previous.subarray(1), this.bytesPerPixel)) {
			throw new PngFormatError(`unknown row filter ${filter}`);
		}
		if (this.passes === PLAIN) {
			// Straight into the raster's row: no copy through the row buffer.
			const { width, data } = this.raster;
			this.convert(line, data.subarray(this.row * width * 4, (this.row + 1) * width * 4), width);
		} else {
			this.convert(line, this.rgba, this.passWidth);
			this.place();
		}
		[this.previous, this.current] = [this.current, this.previous];
		this.filled = 0;
		this.row += 1;
		if (this.row === this.passHeight) this.nextPass();
	}

	/** Scatters an Adam7 pass's row to its pixels in the raster. */
	private place(): void {
		const [x0, y0, dx, dy] = this.passes[this.pass]!;
		const { width, data } = this.raster;
		const y = y0 + this.row * dy;
		for (let i = 0; i < this.passWidth; i++) {
			const to = (y * width + x0 + i * dx) * 4;
			data[to] = this.rgba[i * 4]!;
			data[to + 1] = this.rgba[i * 4 + 1]!;
			data[to + 2] = this.rgba[i * 4 + 2]!;
			data[to + 3] = this.rgba[i * 4 + 3]!;
		}
	}

	/** Moves to the next pass that has pixels; Adam7 skips passes empty for small images. */
	private nextPass(): void {
		const { width, height } = this.raster;
		for (;;) {
			this.pass += 1;
			const pass = this.passes[this.pass];
			if (!pass) {
				this.done = true;
				return;
			}
			const [x0, y0, dx, dy] = pass;
			this.passWidth = Math.ceil((width - x0) / dx);
			this.passHeight = Math.ceil((height - y0) / dy);
			if (this.passWidth <= 0 || this.passHeight <= 0) continue;
			const rowBytes = 1 + Math.ceil((this.passWidth * this.bitsPerPixel) / 8);
			this.current = new Uint8Array(rowBytes);
			this.previous = new Uint8Array(rowBytes);
			this.row = 0;
			this.filled = 0;
			return;
		}
	}
}
