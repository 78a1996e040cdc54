/**
 * Crops copied out of rows as a decode hands them over: only the crops whose rows are passing are
 * allocated, each handed over once its last row is in and freed after, and the decode is stopped
 * after the last crop's last row.
 */
import { freeBuffer } from "./free-buffer";
import { EnoughRows } from "./rows";
import type { Box, Raster, RowSink } from "./types";

export class CropCollector<T extends { box: Box }> implements RowSink {
	private readonly waiting: T[];
	private readonly collecting: { crop: T; pixels: Raster }[] = [];

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
				const width = crop.box.x1 - crop.box.x0;
				const height = crop.box.y1 - crop.box.y0;
				this.collecting.push({ crop, pixels: { width, height, data: new Uint8Array(width * height * 4) } });
			}
			const from = r * this.imageWidth * 4;
			for (let i = 0; i < this.collecting.length; i++) {
				const { crop, pixels } = this.collecting[i]!;
				const { box } = crop;
				pixels.data.set(rgba.subarray(from + box.x0 * 4, from + box.x1 * 4), (row - box.y0) * pixels.width * 4);
				if (row === box.y1 - 1) {
					this.collecting.splice(i--, 1);
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
