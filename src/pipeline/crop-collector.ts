/**
 * Crops copied out of rows as a decode hands them over: a crop holds only its rows already in
 * (crop-rows.ts), each is handed over once its last row is in and freed after, and the decode is
 * stopped after the last crop's last row.
 */
import { CropRows } from "./crop-rows";
import { freeBuffer } from "./free-buffer";
import { EnoughRows } from "./rows";
import type { Box, Raster, RowSink } from "./types";

export class CropCollector<T extends { box: Box }> implements RowSink {
	private readonly waiting: T[];
	private readonly collecting: { crop: T; rows: CropRows }[] = [];

	constructor(
		crops: readonly T[],
		private readonly imageWidth: number,
		private readonly complete: (crop: T, pixels: Raster) => void,
	) {
		this.waiting = [...crops].sort((a, b) => a.box.y0 - b.box.y0);
	}

	rows(y: number, count: number, rgba: Uint8Array): void {
		for (let r = 0; r < count; r++) {
			const row = y + r;
			while (this.waiting.length > 0 && this.waiting[0]!.box.y0 <= row) {
				const crop = this.waiting.shift()!;
				this.collecting.push({ crop, rows: new CropRows(crop.box.x1 - crop.box.x0, crop.box.y1 - crop.box.y0) });
			}
			const from = r * this.imageWidth * 4;
			for (let i = 0; i < this.collecting.length; i++) {
				const { crop, rows } = this.collecting[i]!;
				const { box } = crop;
				rows.push(rgba.subarray(from + box.x0 * 4, from + box.x1 * 4));
				if (row === box.y1 - 1) {
					this.collecting.splice(i--, 1);
					const pixels = rows.whole();
					this.complete(crop, pixels);
					freeBuffer(pixels.data);
				}
			}
			if (this.waiting.length === 0 && this.collecting.length === 0) throw new EnoughRows();
		}
	}
}

/**
 * The crops in the order a CropCollector hands them over (by last row; among crops ending on the
 * same row, by first row), for pixels read without a decode to give the same order.
 */
export function byLastRow<T extends { box: Box }>(crops: readonly T[]): T[] {
	return [...crops].sort((a, b) => a.box.y0 - b.box.y0).sort((a, b) => a.box.y1 - b.box.y1);
}
