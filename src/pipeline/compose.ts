import type { Box, ErasedPixels, Overlay, Raster } from "./types";

/**
 * A few consecutive rows of the image, as the last pass holds them: what is pasted and drawn
 * lands here, then the rows are encoded and let go.
 */
export interface Band extends Raster {
	/** Image row of the band's first row. */
	top: number;
}

/** Writes the erase stage's pixels into the band where their mask is set; parts outside it are skipped. */
export function pasteErased(band: Band, { box, mask, rgba }: ErasedPixels): void {
	const rows = overlap(band, box.y0, box.y1);
	if (!rows) return;
	const boxWidth = box.x1 - box.x0;
	const x0 = Math.max(0, box.x0);
	const x1 = Math.min(band.width, box.x1);
	for (let y = rows.y0; y < rows.y1; y++) {
		let from = (y - box.y0) * boxWidth + (x0 - box.x0);
		let to = ((y - band.top) * band.width + x0) * 4;
		for (let x = x0; x < x1; x++, from++, to += 4) {
			if (!mask[from]) continue;
			band.data[to] = rgba[from * 4]!;
			band.data[to + 1] = rgba[from * 4 + 1]!;
			band.data[to + 2] = rgba[from * 4 + 2]!;
			band.data[to + 3] = rgba[from * 4 + 3]!;
		}
	}
}

/**
 * Draws the overlay's rows that fall in the band with straight-alpha "over", in place; parts
 * outside the image are clipped. Drawing an overlay band by band gives the same pixels as at once.
 */
export function drawOverlay(band: Band, { x, y, raster: patch }: Overlay): void {
	const rows = overlap(band, y, y + patch.height);
	if (!rows) return;
	const x0 = Math.max(0, x);
	const x1 = Math.min(band.width, x + patch.width);
	const dst = band.data;
	const src = patch.data;
	for (let ty = rows.y0; ty < rows.y1; ty++) {
		let d = ((ty - band.top) * band.width + x0) * 4;
		let s = ((ty - y) * patch.width + (x0 - x)) * 4;
		for (let tx = x0; tx < x1; tx++, d += 4, s += 4) {
			const sa = src[s + 3]!;
			if (sa === 0) continue;
			const da = dst[d + 3]!;
			if (sa === 255 || da === 0) {
				dst[d] = src[s]!;
				dst[d + 1] = src[s + 1]!;
				dst[d + 2] = src[s + 2]!;
				dst[d + 3] = sa;
				continue;
			}
			// out = src·αs + dst·αd·(1-αs), divided by the resulting alpha (straight colours).
			const below = da * (255 - sa);
			const outA255 = sa * 255 + below; // alpha × 255
			for (let c = 0; c < 3; c++) {
				dst[d + c] = Math.round((src[s + c]! * sa * 255 + dst[d + c]! * below) / outA255);
			}
			dst[d + 3] = Math.round(outA255 / 255);
		}
	}
}

/**
 * A band of a grey image, a byte a pixel: pass 3's band when the PNG is grey (every pixel of the
 * image, of the erased pixels and of the overlays' colours is grey, and the image opaque).
 */
export interface GreyBand {
	top: number;
	width: number;
	height: number;
	data: Uint8Array;
}

/** pasteErased into a grey band: the erased pixels' red, which is their grey. */
export function pasteErasedGrey(band: GreyBand, { box, mask, rgba }: ErasedPixels): void {
	const rows = overlap(band, box.y0, box.y1);
	if (!rows) return;
	const boxWidth = box.x1 - box.x0;
	const x0 = Math.max(0, box.x0);
	const x1 = Math.min(band.width, box.x1);
	for (let y = rows.y0; y < rows.y1; y++) {
		let from = (y - box.y0) * boxWidth + (x0 - box.x0);
		let to = (y - band.top) * band.width + x0;
		for (let x = x0; x < x1; x++, from++, to++) if (mask[from]) band.data[to] = rgba[from * 4]!;
	}
}

/**
 * drawOverlay into a grey band: the red channel of what drawOverlay makes of an opaque pixel (the
 * band's pixels are all opaque, so the result is too), the same bytes a grey PNG keeps of it.
 */
export function drawOverlayGrey(band: GreyBand, { x, y, raster: patch }: Overlay): void {
	const rows = overlap(band, y, y + patch.height);
	if (!rows) return;
	const x0 = Math.max(0, x);
	const x1 = Math.min(band.width, x + patch.width);
	const dst = band.data;
	const src = patch.data;
	for (let ty = rows.y0; ty < rows.y1; ty++) {
		let d = (ty - band.top) * band.width + x0;
		let s = ((ty - y) * patch.width + (x0 - x)) * 4;
		for (let tx = x0; tx < x1; tx++, d++, s += 4) {
			const sa = src[s + 3]!;
			if (sa === 0) continue;
			if (sa === 255) {
				dst[d] = src[s]!;
				continue;
			}
			// drawOverlay's blend with the destination's alpha 255: divided by 255 · 255.
			dst[d] = Math.round((src[s]! * sa * 255 + dst[d]! * 255 * (255 - sa)) / 65025);
		}
	}
}

/** Image rows in both the band and [y0, y1), or undefined when none. */
function overlap(band: Band | GreyBand, y0: number, y1: number): Pick<Box, "y0" | "y1"> | undefined {
	const from = Math.max(band.top, y0);
	const to = Math.min(band.top + band.height, y1);
	return from < to ? { y0: from, y1: to } : undefined;
}
