/** The reader copy's JPEG encoder: files that decoders read back as the image that was encoded. */
import { PhotonImage } from "@cf-wasm/photon";
import { describe, expect, it } from "vitest";
import { JpegEncoder } from "../../src/pipeline/pixels/jpeg-encode";
import type { Raster } from "../../src/pipeline/types";
import { decodeFile } from "../support/decode";

/** RGB rows of a smooth colour field with a dark bar, like a page with a line of text. */
function scene(width: number, height: number): Uint8Array {
	const rgb = new Uint8Array(width * height * 3);
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			const bar = y > height / 3 && y < height / 2 && x % 7 < 4;
			const i = (y * width + x) * 3;
			rgb[i] = bar ? 20 : (80 + (x * 150) / width) | 0;
			rgb[i + 1] = bar ? 20 : (200 - (y * 120) / height) | 0;
			rgb[i + 2] = bar ? 30 : 160;
		}
	}
	return rgb;
}

function encode(rgb: Uint8Array, width: number, height: number, quality = 85): Uint8Array {
	const encoder = new JpegEncoder(width, height, quality);
	for (let y = 0; y < height; y++) encoder.addRow(rgb.subarray(y * width * 3, (y + 1) * width * 3));
	return encoder.finish();
}

/** Mean absolute difference per channel, RGB against the decoded RGBA. */
function meanError(rgb: Uint8Array, decoded: Raster): number {
	let total = 0;
	for (let i = 0, j = 0; i < rgb.length; i += 3, j += 4) {
		for (let c = 0; c < 3; c++) total += Math.abs(rgb[i + c]! - decoded.data[j + c]!);
	}
	return total / rgb.length;
}

function photon(file: Uint8Array): Raster {
	const image = PhotonImage.new_from_byteslice(file);
	try {
		return { width: image.get_width(), height: image.get_height(), data: image.get_raw_pixels() };
	} finally {
		image.free();
	}
}

describe("JpegEncoder", () => {
	for (const [width, height] of [
		[1, 1],
		[17, 9],
		[33, 35],
		[320, 240],
	] as const) {
		it(`a ${width}x${height} image decodes to itself (ours and photon) within a few levels`, async () => {
			const rgb = scene(width, height);
			const file = encode(rgb, width, height);
			for (const decoded of [decodeFile(file), photon(file)]) {
				expect([decoded.width, decoded.height]).toEqual([width, height]);
				// Stripes 7 px apart lose a little more on a tiny image: few blocks, mostly edges.
				expect(meanError(rgb, decoded)).toBeLessThan(width * height < 400 ? 8 : 4);
			}
		});
	}

	it("quality trades size for fidelity", async () => {
		const rgb = scene(320, 240);
		const low = encode(rgb, 320, 240, 30);
		const high = encode(rgb, 320, 240, 95);
		expect(low.length).toBeLessThan(high.length / 2);
		expect(meanError(rgb, decodeFile(high))).toBeLessThan(meanError(rgb, decodeFile(low)));
	});

	it("refuses to end before its last row", () => {
		const encoder = new JpegEncoder(8, 8, 85);
		encoder.addRow(new Uint8Array(24));
		expect(() => encoder.finish()).toThrow(/1 of 8 rows/);
	});
});
