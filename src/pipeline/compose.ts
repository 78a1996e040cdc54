import type { Overlay, Raster } from "./types";

/**
 * Draws each overlay onto the raster with straight-alpha "over", in place. Overlays are small
 * patches (one per region), so nothing the size of the image is allocated; parts that fall
 * outside the raster are clipped.
 */
export function composeOverlays(raster: Raster, overlays: Overlay[]): void {
	for (const overlay of overlays) drawOver(raster, overlay);
}

function drawOver(target: Raster, { x, y, raster: patch }: Overlay): void {
	const x0 = Math.max(0, x);
	const y0 = Math.max(0, y);
	const x1 = Math.min(target.width, x + patch.width);
	const y1 = Math.min(target.height, y + patch.height);
	const dst = target.data;
	const src = patch.data;
	for (let ty = y0; ty < y1; ty++) {
		let d = (ty * target.width + x0) * 4;
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
