/** The PNG the last pass writes: rows as they come, in the smallest colour type that holds them. */
import { describe, expect, it } from "vitest";
import { ColourScan, encodePng, PngEncoder } from "../../src/pipeline/pixels/png-encode";
import { pixelWords } from "../../src/pipeline/rows";
import type { Raster } from "../../src/pipeline/types";
import { decodeFile } from "../support/decode";
import { concat, crc32 } from "../support/png";

function noise(width: number, height: number, grey: boolean): Raster {
	const data = new Uint8Array(width * height * 4);
	let seed = 11;
	for (let i = 0; i < width * height; i++) {
		seed = (seed * 1103515245 + 12345) & 0x7fffffff;
		const v = seed & 255;
		data.set(grey ? [v, v, v, 255] : [v, (v * 7) & 255, (v * 13) & 255, 255], i * 4);
	}
	return { width, height, data };
}

describe("PngEncoder", () => {
	it("makes the same file from rows given a few at a time as from all of them at once", () => {
		const image = noise(301, 257, false);
		const words = pixelWords(image.data);
		const whole = concat(encodePng(image));
		for (const step of [1, 7, 100]) {
			const encoder = new PngEncoder(301, 257, 3);
			const pieces = encoder.start();
			for (let y = 0; y < 257; y += step) {
				const count = Math.min(step, 257 - y);
				const above = y > 0 ? words.subarray((y - 1) * 301, y * 301) : undefined;
				pieces.push(...encoder.addRows(words.subarray(y * 301, (y + count) * 301), count, above));
			}
			pieces.push(...encoder.finish());
			expect(concat(pieces)).toEqual(whole);
		}
	});

	it("ends every chunk with the CRC a PNG reader checks, whatever its length", () => {
		for (const [width, height] of [
			[1, 1],
			[3, 2],
			[301, 257],
			[997, 300],
		] as const) {
			const file = concat(encodePng(noise(width, height, false)));
			const view = new DataView(file.buffer, file.byteOffset);
			let chunks = 0;
			for (let at = 8; at < file.length; chunks++) {
				const length = view.getUint32(at);
				expect(view.getUint32(at + 8 + length)).toBe(crc32(file.subarray(at + 4, at + 8 + length)));
				at += 12 + length;
			}
			expect(chunks).toBeGreaterThanOrEqual(3);
		}
	});

	it("writes a file that decodes to the image", async () => {
		const image = noise(64, 48, false);
		const out = decodeFile(concat(encodePng(image)));
		expect(out.data).toEqual(image.data);
	});

	// Each colour type has its own filter loop; widths of one pixel and odd ones end rows mid-word.
	const kinds = {
		grey: (image: Raster) => image,
		RGB: (image: Raster) => image,
		"RGBA, some pixels translucent": (image: Raster) => {
			for (let i = 3; i < image.data.length; i += 28) image.data[i] = (i * 5) & 255;
			return image;
		},
	};
	for (const [kind, make] of Object.entries(kinds)) {
		for (const width of [1, 3, 37]) {
			it(`writes ${kind} ${width} pixels wide that decodes to the image, runs and noise alike`, () => {
				const image = make(noise(width, 29, kind === "grey"));
				// White rows (long runs) between the noisy ones.
				image.data.fill(255, width * 4 * 10, width * 4 * 20);
				const file = concat(encodePng(image));
				expect(file[25]).toBe({ grey: 0, RGB: 2 }[kind] ?? 6);
				expect(decodeFile(file).data).toEqual(image.data);
			});
		}
	}

	it("refuses to end before its last row", () => {
		const encoder = new PngEncoder(4, 4, 1);
		encoder.start();
		encoder.addRows(new Int32Array(4), 1, undefined);
		expect(() => encoder.finish()).toThrow(/1 of 4 rows/);
	});
});

describe("ColourScan", () => {
	const words = (...pixels: [number, number, number, number][]) => pixelWords(Uint8Array.from(pixels.flat()));

	it("grey for an opaque grey page, RGB once a colour is drawn over it, RGBA for any translucent pixel", () => {
		const scan = new ColourScan();
		scan.addPixels(words([0, 0, 0, 255], [200, 200, 200, 255]));
		expect(scan.channels).toBe(1);
		scan.addColour([20, 20, 20]);
		expect(scan.channels).toBe(1);
		scan.addColour([200, 30, 30]);
		expect(scan.channels).toBe(3);
		scan.addPixels(words([9, 9, 9, 254]));
		expect(scan.channels).toBe(4);
	});

	it("RGB for an opaque page with one coloured pixel", () => {
		const scan = new ColourScan();
		scan.addPixels(words([10, 10, 10, 255], [10, 11, 10, 255]));
		expect(scan.channels).toBe(3);
	});
});
