import type { Box, ErasedPixels, Overlay, Raster } from "./types";

/**
 * A few consecutive rows of the image, as the last pass holds them: what is pasted and drawn
 * lands here, then the rows are encoded and let go.
 */
export interface Band extends Raster {
	/** Image row of the band's first row. */
	top: number;
	/**
	 * A byte a pixel, its grey, rather than RGBA: pass 3's band when the PNG is grey (every pixel
	 * of the image, of the erased pixels and of the overlays' colours is grey, and the image opaque).
	 */
	grey?: boolean;
}

/**
 * Writes the erase stage's pixels into the band where their mask is set; parts outside it are
 * skipped. A grey band takes their red, which is their grey.
 */
export function pasteErased(band: Band, { box, mask, rgba }: ErasedPixels): void {
	const rows = overlap(band, box.y0, box.y1);
	if (!rows) return;
	const bytes = band.grey ? 1 : 4;
	const boxWidth = box.x1 - box.x0;
	const x0 = Math.max(0, box.x0);
	const x1 = Math.min(band.width, box.x1);
	const dst = band.data;
	for (let y = rows.y0; y < rows.y1; y++) {
		let from = (y - box.y0) * boxWidth + (x0 - box.x0);
		let to = ((y - band.top) * band.width + x0) * bytes;
		for (let x = x0; x < x1; x++, from++, to += bytes) {
			if (!mask[from]) continue;
			dst[to] = rgba[from * 4]!;
			if (bytes === 1) continue;
			dst[to + 1] = rgba[from * 4 + 1]!;
			dst[to + 2] = rgba[from * 4 + 2]!;
			dst[to + 3] = rgba[from * 4 + 3]!;
		}
	}
}

/**
 * Draws the overlay's rows that fall in the band with straight-alpha "over", in place; parts
 * outside the image are clipped. Drawing an overlay band by band gives the same pixels as at once.
 * A grey band's pixels are opaque: it takes the red of what an opaque RGBA pixel would become,
 * the byte a grey PNG keeps of it.
 */
export function drawOverlay(band: Band, { x, y, raster: patch }: Overlay): void {
	const rows = overlap(band, y, y + patch.height);
	if (!rows) return;
	const bytes = band.grey ? 1 : 4;
	const x0 = Math.max(0, x);
	const x1 = Math.min(band.width, x + patch.width);
	const dst = band.data;
	const src = patch.data;
	for (let ty = rows.y0; ty < rows.y1; ty++) {
		let d = ((ty - band.top) * band.width + x0) * bytes;
		let s = ((ty - y) * patch.width + (x0 - x)) * 4;
		for (let tx = x0; tx < x1; tx++, d += bytes, s += 4) {
			const sa = src[s + 3]!;
			if (sa === 0) continue;
			const da = bytes === 4 ? dst[d + 3]! : 255;
			if (sa === 255 || da === 0) {
				dst[d] = src[s]!;
				if (bytes === 1) continue;
				dst[d + 1] = src[s + 1]!;
				dst[d + 2] = src[s + 2]!;
				dst[d + 3] = sa;
				continue;
			}
			// out = src·αs + dst·αd·(1-αs), divided by the resulting alpha (straight colours).
			const below = da * (255 - sa);
			const outA255 = sa * 255 + below; // alpha × 255
			dst[d] = Math.round((src[s]! * sa * 255 + dst[d]! * below) / outA255);
			if (bytes === 1) continue;
			dst[d + 1] = Math.round((src[s + 1]! * sa * 255 + dst[d + 1]! * below) / outA255);
			dst[d + 2] = Math.round((src[s + 2]! * sa * 255 + dst[d + 2]! * below) / outA255);
			dst[d + 3] = Math.round(outA255 / 255);
		}
	}
}

/** Image rows in both the band and [y0, y1), or undefined when none. */
function overlap(band: Band, y0: number, y1: number): Pick<Box, "y0" | "y1"> | undefined {
	const from = Math.max(band.top, y0);
	const to = Math.min(band.top + band.height, y1);
	return from < to ? { y0: from, y1: to } : undefined;
}
