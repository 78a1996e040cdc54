/**
 * A crop's pixels while its rows pass (pass 2), kept in bands allocated as the rows reach them: a
 * crop whose first rows are in holds those rows, not its whole box, whatever the allocator does
 * with memory not yet written. That is what crop-plan.ts counts (`pixelsHeld`) when it puts crops in
 * one decode. Joined into one raster at its last row, when layout and erase want it whole.
 */
import { freeBuffer } from "./free-buffer";
import type { Raster } from "./types";

/** A band's bytes at most: small beside a crop (up to 4 MB), so a crop holds at most this much ahead of its rows. */
const BAND_BYTES = 64 * 1024;

/** Rows of a band of a crop `width` pixels wide. */
function bandRowsOf(width: number): number {
	return Math.max(1, Math.floor(BAND_BYTES / (width * 4)));
}

/** Pixels a crop of `width` by `height` holds once its first `rowsIn` rows are in (its bands, the last one whole). */
export function pixelsHeld(width: number, height: number, rowsIn: number): number {
	const bandRows = bandRowsOf(width);
	return Math.min(height, Math.ceil(rowsIn / bandRows) * bandRows) * width;
}

export class CropRows {
	private readonly bands: Uint8Array[] = [];
	private readonly rowBytes: number;
	private readonly bandRows: number;
	/** Rows in so far. */
	private filled = 0;

	constructor(
		readonly width: number,
		readonly height: number,
	) {
		this.rowBytes = width * 4;
		this.bandRows = bandRowsOf(width);
	}

	/** Appends the crop's next row: `width` RGBA pixels. */
	push(row: Uint8Array): void {
		const at = this.filled % this.bandRows;
		if (at === 0) this.bands.push(new Uint8Array(Math.min(this.bandRows, this.height - this.filled) * this.rowBytes));
		this.bands[this.bands.length - 1]!.set(row, at * this.rowBytes);
		this.filled++;
	}

	/** The whole crop, once its last row is in; each band is let go as soon as it is copied. */
	whole(): Raster {
		const { width, height, bands } = this;
		if (this.filled !== height) throw new Error("the crop's rows are not all in");
		if (bands.length === 1) return { width, height, data: bands[0]! };
		const data = new Uint8Array(height * this.rowBytes);
		let at = 0;
		for (const band of bands) {
			data.set(band, at);
			at += band.length;
			freeBuffer(band);
		}
		bands.length = 0;
		return { width, height, data };
	}
}
