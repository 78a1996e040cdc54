import type { Box, Raster, RowSink } from "../types";
import { inflateZlib } from "./inflate";
import { idatPieces, type PngContainer, PngFormatError, type PngHeader } from "./png-chunks";
import { unfilterRow } from "./png-filters";
import { plainGrey, type RowConverter, rgbaTarget, rowConverter } from "./png-rows";
import { bandRows, emitPassRaster, wantedSpans } from "./raster-rows";
import type { WorkBudget } from "./work-budget";

/**
 * Decodes a plain (not interlaced) PNG to RGBA rows, top to bottom, a band at a time: besides the
 * band it holds the inflater's window and two rows, whatever the image's size. The IDAT stream is
 * inflated by our own inflater straight from the file's chunks. With `wanted`, only the rows its
 * boxes hold are right (decode.ts `decodeRows`). A plain grey PNG's rows go to a sink that takes grey
 * rows (`RowSink.greyRows`) as they are stored.
 */
export function decodePngRows(
	bytes: Uint8Array,
	png: PngContainer,
	budget: WorkBudget,
	sink: RowSink,
	wanted?: readonly Box[],
): void {
	if (png.header.interlaced) {
		emitPassRaster(decodeAdam7(bytes, png, budget), sink);
		return;
	}
	const { width, height } = png.header;
	const bandHeight = bandRows(width, height);
	if (sink.greyRows && !wanted && plainGrey(png)) {
		decodeGreyRows(bytes, png, budget, sink.greyRows.bind(sink), bandHeight);
		return;
	}
	const band = rgbaTarget(width * bandHeight);
	let inBand = 0;
	// Every row is unfiltered (the next row needs it), but only the wanted columns are converted,
	// where whole bytes make pixels.
	const { bitsPerPixel } = png.header;
	const spans = bitsPerPixel >= 8 ? wantedSpans(width, height, wanted) : undefined;
	const rows = new RowAssembler(png.header, rowConverter(png), PLAIN, (line, y, convert) => {
		if (!spans) convert(line, band, inBand * width, width);
		else if (spans.to[y]! > 0) {
			const from = spans.from[y]!;
			convert(line.subarray((from * bitsPerPixel) >> 3), band, inBand * width + from, spans.to[y]! - from);
		}
		inBand += 1;
		if (inBand === bandHeight || y === height - 1) {
			sink.rows(y + 1 - inBand, inBand, band.bytes.subarray(0, inBand * width * 4));
			inBand = 0;
		}
	});
	inflateZlib(idatPieces(bytes, png), (piece) => rows.push(piece), budget);
	if (!rows.done) throw new PngFormatError("image data ends before the last row");
}

/** decodePngRows for a plain grey PNG's rows to a sink that takes them as they are stored. */
function decodeGreyRows(
	bytes: Uint8Array,
	png: PngContainer,
	budget: WorkBudget,
	greyRows: NonNullable<RowSink["greyRows"]>,
	bandHeight: number,
): void {
	const { width, height } = png.header;
	const band = new Uint8Array(width * bandHeight);
	let inBand = 0;
	const rows = new RowAssembler(png.header, rowConverter(png), PLAIN, (line, y) => {
		band.set(line, inBand * width);
		inBand += 1;
		if (inBand === bandHeight || y === height - 1) {
			greyRows(y + 1 - inBand, inBand, band.subarray(0, inBand * width));
			inBand = 0;
		}
	});
	inflateZlib(idatPieces(bytes, png), (piece) => rows.push(piece), budget);
	if (!rows.done) throw new PngFormatError("image data ends before the last row");
}

/**
 * An interlaced (Adam7) PNG's seven passes each cover the whole image, so its rows are final only
 * once the last pass is in: it is decoded into one RGBA raster, 4 bytes a pixel.
 */
export function decodeAdam7(bytes: Uint8Array, png: PngContainer, budget: WorkBudget): Raster {
	const { width, height } = png.header;
	const raster = { width, height, data: new Uint8Array(width * height * 4) };
	const pixels = new Uint32Array(raster.data.buffer);
	const scratch = rgbaTarget(width);
	const rows = new RowAssembler(png.header, rowConverter(png), ADAM7, (line, y, convert, pass, passWidth) => {
		const [x0, , dx] = pass;
		convert(line, scratch, 0, passWidth);
		for (let i = 0, at = y * width + x0; i < passWidth; i++, at += dx) pixels[at] = scratch.words[i]!;
	});
	inflateZlib(idatPieces(bytes, png), (piece) => rows.push(piece), budget);
	if (!rows.done) throw new PngFormatError("image data ends before the last row");
	return raster;
}

/** Bytes the inflater's output `expected` holds for this header: every pass's rows with their filter byte. */
export function inflatedSize(header: PngHeader): number {
	let total = 0;
	for (const [x0, y0, dx, dy] of header.interlaced ? ADAM7 : PLAIN) {
		const passWidth = Math.ceil((header.width - x0) / dx);
		const passHeight = Math.ceil((header.height - y0) / dy);
		if (passWidth > 0 && passHeight > 0) total += passHeight * (1 + Math.ceil((passWidth * header.bitsPerPixel) / 8));
	}
	return total;
}

/** A pass as [startX, startY, stepX, stepY]; a plain image is one pass of step 1. */
type Pass = readonly [number, number, number, number];

const ADAM7: readonly Pass[] = [
	[0, 0, 8, 8],
	[4, 0, 8, 8],
	[0, 4, 4, 8],
	[2, 0, 4, 4],
	[0, 2, 2, 4],
	[1, 0, 2, 2],
	[0, 1, 1, 2],
];
const PLAIN: readonly Pass[] = [[0, 0, 1, 1]];

/** Receives each unfiltered row with the image row it belongs to, and converts it where it wants. */
type RowHandler = (line: Uint8Array, y: number, convert: RowConverter, pass: Pass, passWidth: number) => void;

/**
 * Cuts the inflated bytes into filtered rows, pass by pass, and unfilters each into `current`.
 * A row that lies whole in the inflater's output is unfiltered straight from it; only a row split
 * between two outputs is first copied together.
 */
class RowAssembler {
	done = false;
	private readonly bitsPerPixel: number;
	private readonly bytesPerPixel: number;
	private pass = -1;
	private passWidth = 0;
	private passHeight = 0;
	private row = 0;
	/** Filtered bytes of a row split between two pieces of output, with its filter byte. */
	private partial = new Uint8Array(0);
	private filled = 0;
	private current = new Uint8Array(0);
	private previous = new Uint8Array(0);

	constructor(
		private readonly header: PngHeader,
		private readonly convert: RowConverter,
		private readonly passes: readonly Pass[],
		private readonly onRow: RowHandler,
	) {
		this.bitsPerPixel = header.bitsPerPixel;
		this.bytesPerPixel = Math.max(1, header.bitsPerPixel >> 3);
		this.nextPass();
	}

	/** Takes the next inflated bytes; true once the last row is in. */
	push(piece: Uint8Array): boolean {
		let at = 0;
		while (at < piece.length && !this.done) {
			// A pass's rows have their own length.
			const rowBytes = this.partial.length;
			if (this.filled === 0 && piece.length - at >= rowBytes) {
				this.finishRow(piece, at);
				at += rowBytes;
				continue;
			}
			const take = Math.min(rowBytes - this.filled, piece.length - at);
			this.partial.set(piece.subarray(at, at + take), this.filled);
			this.filled += take;
			at += take;
			if (this.filled === rowBytes) {
				this.filled = 0;
				this.finishRow(this.partial, 0);
			}
		}
		return this.done;
	}

	private finishRow(src: Uint8Array, at: number): void {
		const filter = src[at]!;
		if (!unfilterRow(filter, src, at + 1, this.current, this.previous, this.bytesPerPixel)) {
			throw new PngFormatError(`unknown row filter ${filter}`);
		}
		const pass = this.passes[this.pass]!;
		this.onRow(this.current, pass[1] + this.row * pass[3], this.convert, pass, this.passWidth);
		const unfiltered = this.current;
		this.current = this.previous;
		this.previous = unfiltered;
		this.row += 1;
		if (this.row === this.passHeight) this.nextPass();
	}

	/** Moves to the next pass that has pixels; Adam7 skips passes empty for small images. */
	private nextPass(): void {
		const { width, height } = this.header;
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
			const lineBytes = Math.ceil((this.passWidth * this.bitsPerPixel) / 8);
			this.partial = new Uint8Array(1 + lineBytes);
			this.current = new Uint8Array(lineBytes);
			this.previous = new Uint8Array(lineBytes);
			this.row = 0;
			this.filled = 0;
			return;
		}
	}
}
