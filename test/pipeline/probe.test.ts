import { describe, expect, it } from "vitest";
import { type DecodeCost, probeImage } from "../../src/pipeline/probe";
import { RequestError } from "../../src/request/errors";
import { admitImage } from "../../src/request/validate";
import { decodeFile, everyFixture, probed } from "../support/decode";
import { chunk as pngChunk, zlibStored } from "../support/png";
import * as images from "./fixtures/images";
import * as webp from "./fixtures/webp";
import { join } from "./hostile/bytes";
import { exifSegment, zeroJpeg } from "./hostile/jpeg";
import { chunk, riff, solidVp8l } from "./hostile/webp";

function bytes(base64: string): Uint8Array {
	return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

/** Bytes a pixel the decode holds, as the probe states it. */
const perPixel = (file: Uint8Array) => {
	const image = probed(file);
	return image.cost.memory / (image.width * image.height);
};

/**
 * Containers of 2000x1500 for the probe alone, which reads structure and headers, never the pixels:
 * a few bytes of data stand for the image's.
 */
const pngOf = (interlace: number) =>
	join([
		[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
		pngChunk("IHDR", Uint8Array.of(0, 0, 7, 208, 0, 0, 5, 220, 8, 6, 0, 0, interlace)),
		pngChunk("IDAT", zlibStored(new Uint8Array(8))),
		pngChunk("IEND", new Uint8Array()),
	]);
const gifOf = (interlaced: boolean) =>
	join([
		[0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 208, 7, 220, 5, 0x80, 0, 0, 0, 0, 0, 255, 255, 255],
		[0x2c, 0, 0, 0, 0, 208, 7, 220, 5, interlaced ? 0x40 : 0, 2, 1, 0x44, 0, 0x3b],
	]);

describe("probeImage: what decoding will hold, by kind", () => {
	it.each([
		["a plain PNG streams its rows", pngOf(0)],
		["a baseline JPEG streams its MCU rows", zeroJpeg(0xc0, 2000, 1500, [0x22, 0x11, 0x11], [[1, 2, 3]])],
		["a plain GIF streams its rows", gifOf(false)],
	])("%s: a band, a small part of a byte a pixel", (_, file) => {
		expect(perPixel(file)).toBeLessThan(0.1);
	});

	it("a lossy WebP streams its macroblock rows", () => {
		// 128x128: its band of 24 rows is all there is to hold.
		const image = probed(bytes(webp.lossy_webp));
		expect(image.cost.memory).toBeLessThan(image.width * 24 * 4 * 2 + 64 * 1024);
	});

	it.each([
		["an interlaced PNG: its RGBA raster", pngOf(1), 4],
		["a lossless WebP: its ARGB pixels", riff([chunk("VP8L", solidVp8l(2000, 1500))]), 4],
		["an interlaced GIF: its frame's palette indices", gifOf(true), 1],
	])("%s", (_, file, expected) => {
		expect(perPixel(file)).toBeCloseTo(expected, 0);
	});

	it.each([
		["progressive 4:2:0", 0xc2, [0x22, 0x11, 0x11], [[1, 2, 3]]],
		["progressive 4:4:4", 0xc2, [0x11, 0x11, 0x11], [[1, 2, 3]]],
		["progressive grey", 0xc2, [0x11], [[1]]],
		["sequential 4:4:4 with one scan per component", 0xc0, [0x11, 0x11, 0x11], [[1], [2], [3]]],
	])(
		"a multi-scan JPEG (%s) holds one MCU row of coefficients, its scans taking turns",
		(_, marker, sampling, scans) => {
			expect(perPixel(zeroJpeg(marker, 2000, 1600, sampling, scans))).toBeLessThan(0.2);
		},
	);

	it("a JPEG only photon decodes (CMYK) is priced at photon's 14 bytes a pixel", () => {
		expect(perPixel(zeroJpeg(0xc0, 64, 64, [0x11, 0x11, 0x11, 0x11], [[1, 2, 3, 4]]))).toBe(14);
	});

	it("a JPEG turned by its EXIF orientation reports its displayed size", () => {
		const image = probed(bytes(images.rotated_jpg));
		expect([image.width, image.height]).toEqual([4, 8]);
	});

	it("a one-scan JPEG turned by its EXIF orientation is priced at a window, not its raster", () => {
		const phone = zeroJpeg(0xc0, 4000, 3000, [0x22, 0x11, 0x11], [[1, 2, 3]], exifSegment(6));
		expect(perPixel(phone)).toBeLessThan(0.5);
	});

	it("a progressive JPEG turned by its EXIF orientation is priced at a quarter of its raster", () => {
		const phone = zeroJpeg(0xc2, 3000, 2000, [0x22, 0x11, 0x11], [[1, 2, 3]], exifSegment(6));
		expect(perPixel(phone)).toBeGreaterThan(1);
		expect(perPixel(phone)).toBeLessThan(1.2);
	});
});

describe("probeImage: the limits, checked before the rest is walked", () => {
	const limitOf = (file: Uint8Array) => {
		try {
			probeImage(file, admitImage);
			return "admitted";
		} catch (error) {
			return error instanceof RequestError ? `${error.status}: ${error.detail}` : String(error);
		}
	};

	it("refuses by the header's size alone, before anything else is read", () => {
		const seen: [number, number, DecodeCost | undefined][] = [];
		const file = zeroJpeg(0xc0, 6000, 5000, [0x22, 0x11, 0x11], [[1, 2, 3]]);
		expect(() =>
			probeImage(file, (width, height, cost) => {
				seen.push([width, height, cost]);
				admitImage(width, height, cost);
			}),
		).toThrow(RequestError);
		expect(seen).toHaveLength(1);
	});

	it("refuses a kind that holds more a pixel at its lower limit, saying so", () => {
		expect(limitOf(riff([chunk("VP8L", solidVp8l(2000, 2000))]))).toBe(
			"413: Image is 2000x2000 (4.0 megapixels); the limit is 3.1 megapixels for a lossless WebP, which takes more memory to decode (25 megapixels for other images)",
		);
		expect(limitOf(riff([chunk("VP8L", solidVp8l(1700, 1700))]))).toBe("admitted");
	});
});

describe("probeImage: the dimensions priced are the dimensions decoded", () => {
	it.each(everyFixture())("%s", (_, file) => {
		const image = probed(file);
		const raster = decodeFile(file);
		expect([raster.width, raster.height]).toEqual([image.width, image.height]);
	});
});
