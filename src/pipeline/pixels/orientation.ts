import { exifOrientation } from "../probe";
import type { Raster } from "../types";

/** EXIF orientation (1..8) of a JPEG, from its APP1 Exif segment; 1 when absent. */
export function jpegOrientation(bytes: Uint8Array): number {
	let at = 2;
	while (at + 4 <= bytes.length && bytes[at] === 0xff) {
		const marker = bytes[at + 1]!;
		if (marker === 0xda || marker === 0xd9) break; // scan data: metadata comes before it
		const length = (bytes[at + 2]! << 8) | bytes[at + 3]!;
		const segment = bytes.subarray(at + 4, at + 2 + length);
		const isExif = segment[0] === 0x45 && segment[1] === 0x78 && segment[2] === 0x69 && segment[3] === 0x66;
		if (marker === 0xe1 && isExif) return exifOrientation(segment.subarray(6)) ?? 1;
		at += 2 + length;
	}
	return 1;
}

/**
 * Turns a raster stored as the camera wrote it into the raster as displayed. Flips and the
 * half turn work in place; quarter turns need a second buffer because the sides swap.
 */
export function applyOrientation(raster: Raster, orientation: number): Raster {
	if (orientation < 2 || orientation > 8) return raster;
	const { width: w, height: h } = raster;
	const src = new Uint32Array(raster.data.buffer, raster.data.byteOffset, w * h);
	if (orientation <= 4) {
		if (orientation === 2 || orientation === 3) for (let y = 0; y < h; y++) src.subarray(y * w, y * w + w).reverse();
		if (orientation === 3 || orientation === 4) flipRows(src, w, h);
		return raster;
	}
	// 5 transpose, 6 quarter turn clockwise, 7 transverse, 8 quarter turn anticlockwise.
	const out = new Uint8Array(w * h * 4);
	const dst = new Uint32Array(out.buffer);
	const flipX = orientation === 6 || orientation === 7;
	const flipY = orientation === 7 || orientation === 8;
	for (let y = 0; y < h; y++) {
		const dx = flipX ? h - 1 - y : y;
		for (let x = 0; x < w; x++) {
			const dy = flipY ? w - 1 - x : x;
			dst[dy * h + dx] = src[y * w + x]!;
		}
	}
	return { width: h, height: w, data: out };
}

function flipRows(px: Uint32Array, w: number, h: number): void {
	const row = new Uint32Array(w);
	for (let top = 0, bottom = h - 1; top < bottom; top++, bottom--) {
		row.set(px.subarray(top * w, top * w + w));
		px.copyWithin(top * w, bottom * w, bottom * w + w);
		px.set(row, bottom * w);
	}
}
