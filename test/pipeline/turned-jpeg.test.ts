import { describe, expect, it } from "vitest";
import { decodeRows } from "../../src/pipeline/decode";
import type { JpegContainer } from "../../src/pipeline/pixels/jpeg/container";
import { decodeJpegRaster } from "../../src/pipeline/pixels/jpeg/decode";
import { decodeTurnedRows } from "../../src/pipeline/pixels/jpeg/turned";
import { JpegEncoder } from "../../src/pipeline/pixels/jpeg-encode";
import { applyOrientation } from "../../src/pipeline/pixels/orientation";
import type { Raster } from "../../src/pipeline/types";
import { probed } from "../support/decode";
import * as gifJpeg from "./fixtures/gif-jpeg";
import * as images from "./fixtures/images";
import { exifSegment } from "./hostile/jpeg";

/**
 * A JPEG turned by its EXIF orientation is decoded a window of displayed rows at a time, each
 * window from a decode of the stored image (pixels/jpeg/turned.ts). Its rows must be exactly the
 * stored image decoded whole and turned, whatever the window: the upsampled chroma at a window's
 * edge, restart intervals, sizes that are not whole MCUs, and windows entered from written-down
 * places in the data.
 */
function bytes(base64: string): Uint8Array {
	return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

/** A JPEG of our own encoder (4:2:0), `width` x `height` of smooth colour with some noise. */
function encoded(width: number, height: number): Uint8Array {
	const encoder = new JpegEncoder(width, height, 90);
	const row = new Uint8Array(width * 3);
	let seed = 7;
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			seed = (seed * 1103515245 + 12345) >>> 0;
			row[x * 3] = (x * 255) / width;
			row[x * 3 + 1] = (y * 255) / height;
			row[x * 3 + 2] = (seed >>> 24) & 0xff;
		}
		encoder.addRow(row);
	}
	return encoder.finish();
}

/** The file with an APP1 EXIF segment saying `orientation`, right after SOI. */
function turned(file: Uint8Array, orientation: number): Uint8Array {
	const app1 = Uint8Array.from(exifSegment(orientation));
	const out = new Uint8Array(file.length + app1.length);
	out.set(file.subarray(0, 2));
	out.set(app1, 2);
	out.set(file.subarray(2), 2 + app1.length);
	return out;
}

function gathered(width: number, height: number, decode: (sink: { rows: RowsFn }) => void): Raster {
	const data = new Uint8Array(width * height * 4);
	let next = 0;
	decode({
		rows(y, count, rgba) {
			expect(y).toBe(next);
			data.set(rgba.subarray(0, count * width * 4), y * width * 4);
			next = y + count;
		},
	});
	expect(next).toBe(height);
	return { width, height, data };
}
type RowsFn = (y: number, count: number, rgba: Uint8Array) => void;

const FILES: [string, Uint8Array][] = [
	["4:2:0, 37x23", bytes(images.jpeg420_jpg)],
	["4:2:2, 37x23", bytes(images.jpeg422_jpg)],
	["4:4:4, 37x23", bytes(images.jpeg444_jpg)],
	["grey, 37x23", bytes(images.jpeggrey_jpg)],
	["restart every MCU, 37x23", bytes(images.jpegrestart_jpg)],
	["progressive 4:2:0", bytes(gifJpeg.progressive420_jpg)],
	["progressive with restarts", bytes(gifJpeg.progressiverestart_jpg)],
	["a scan per component", bytes(gifJpeg.sequentialscans_jpg)],
	["our encoder's 4:2:0, 203x141", encoded(203, 141)],
];

describe("a JPEG turned by its EXIF orientation, decoded a window at a time", () => {
	describe.each(FILES)("%s", (_, plain) => {
		const stored = decodeJpegRaster(plain, jpegOf(plain));
		it.each([2, 3, 4, 5, 6, 7, 8])("orientation %i: decodeRows gives the stored image turned", (orientation) => {
			const image = probed(turned(plain, orientation));
			const expected = applyOrientation(copy(stored), orientation);
			expect([image.width, image.height]).toEqual([expected.width, expected.height]);
			const rows = gathered(image.width, image.height, (sink) => decodeRows(image, sink));
			expect(Buffer.compare(rows.data, expected.data)).toBe(0);
		});

		it.each([3, 4, 5, 6, 7, 8])("orientation %i: the same with windows of 1, 5 and 16 rows", (orientation) => {
			const image = probed(turned(plain, orientation));
			if (image.format !== "jpeg") throw new Error("not a JPEG");
			const expected = applyOrientation(copy(stored), orientation);
			for (const rows of [1, 5, 16]) {
				const got = gathered(image.width, image.height, (sink) =>
					decodeTurnedRows(image.bytes, image.jpeg, sink, { rows }),
				);
				expect(Buffer.compare(got.data, expected.data)).toBe(0);
			}
		});
	});
});

function jpegOf(file: Uint8Array): JpegContainer {
	const image = probed(file);
	if (image.format !== "jpeg") throw new Error("not a JPEG");
	return image.jpeg;
}

function copy(raster: Raster): Raster {
	return { ...raster, data: raster.data.slice() };
}
