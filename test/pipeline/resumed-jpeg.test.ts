import { describe, expect, it } from "vitest";
import { decodeImage, resumableRows } from "../../src/pipeline/decode";
import { JpegEncoder } from "../../src/pipeline/pixels/jpeg-encode";
import { EnoughRows } from "../../src/pipeline/rows";
import { probed } from "../support/decode";
import * as gifJpeg from "./fixtures/gif-jpeg";
import * as images from "./fixtures/images";
import { exifSegment } from "./hostile/jpeg";

/**
 * The last pass stops its decode whenever enough of the PNG waits for the response, and decodes
 * again for the rest (pass-bands.ts). A JPEG's next decode starts near the first row not yet
 * written rather than at the top (a one-scan JPEG from marks at every MCU row, a multi-scan one from
 * every scan's place at the last two MCU rows); the rows must be exactly those of one decode from
 * the top, whatever the row it stopped at: upsampled chroma across the MCU row entered, restart
 * intervals, end-of-band runs across rows, a mirrored image, a third decode entered where the
 * second wrote down its place.
 */
function bytes(base64: string): Uint8Array {
	return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

/** A JPEG of our own encoder (4:2:0, MCUs of 16 rows), `width` x `height` of smooth colour with some noise. */
function encoded(width: number, height: number): Uint8Array {
	const encoder = new JpegEncoder(width, height, 90);
	const row = new Uint8Array(width * 3);
	let seed = 11;
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

/** The file mirrored by an EXIF orientation of 2. */
function mirrored(file: Uint8Array): Uint8Array {
	const app1 = Uint8Array.from(exifSegment(2));
	const out = new Uint8Array(file.length + app1.length);
	out.set(file.subarray(0, 2));
	out.set(app1, 2);
	out.set(file.subarray(2), 2 + app1.length);
	return out;
}

/**
 * The image's rows from decodes stopped after each of `stops` (at the end of the call that reaches
 * it, as the last pass stops) and taken up from the first row not written, and the first row each
 * later decode handed out.
 */
function inSegments(file: Uint8Array, stops: number[]): { data: Uint8Array; starts: number[] } {
	const image = probed(file);
	const { width, height } = image;
	const data = new Uint8Array(width * height * 4);
	const decode = resumableRows(image);
	const starts: number[] = [];
	let next = 0;
	for (const stop of [...stops, height]) {
		let first = -1;
		try {
			decode(
				{
					rows(y, count, rgba) {
						if (first < 0) first = y;
						const skip = Math.max(0, next - y);
						if (skip < count) data.set(rgba.subarray(skip * width * 4, count * width * 4), (y + skip) * width * 4);
						if (y + count <= next) return; // rows written before: no new row, no reason to stop
						next = y + count;
						if (next >= stop && next < height) throw new EnoughRows();
					},
				},
				next,
			);
		} catch (error) {
			if (!(error instanceof EnoughRows)) throw error;
		}
		starts.push(first);
	}
	expect(next).toBe(height);
	return { data, starts: starts.slice(1) };
}

const FILES: [string, Uint8Array][] = [
	["4:2:0, 37x23", bytes(images.jpeg420_jpg)],
	["4:2:2, 37x23", bytes(images.jpeg422_jpg)],
	["4:4:4, 37x23", bytes(images.jpeg444_jpg)],
	["grey, 37x23", bytes(images.jpeggrey_jpg)],
	["restart every MCU, 37x23", bytes(images.jpegrestart_jpg)],
	["our encoder's 4:2:0, 203x141", encoded(203, 141)],
	["progressive 4:2:0, 75x53", bytes(gifJpeg.progressive420_jpg)],
	["progressive 4:4:4, 75x53", bytes(gifJpeg.progressive444_jpg)],
	["progressive grey, 75x53", bytes(gifJpeg.progressivegrey_jpg)],
	["progressive with restarts, 75x53", bytes(gifJpeg.progressiverestart_jpg)],
	["progressive, many scans, 75x53", bytes(gifJpeg.progressivescans_jpg)],
	["a scan per component, 75x53", bytes(gifJpeg.sequentialscans_jpg)],
];

describe("a JPEG decoded again from where the last decode stopped", () => {
	describe.each(FILES)("%s", (_, file) => {
		it.each([
			["as stored", file],
			["mirrored", mirrored(file)],
		])("%s: its rows are those of one decode, wherever the decodes stop", (_, shown) => {
			const whole = decodeImage(probed(shown));
			for (const stops of [[1], [8], [9, 17], [15, 16, 30], [40, 100]]) {
				const { data } = inSegments(shown, stops);
				expect(Buffer.compare(data, whole.data)).toBe(0);
			}
		});
	});

	it("starts each later decode at the MCU row above the first row not written, not at the top", () => {
		const file = encoded(96, 400);
		const { data, starts } = inSegments(file, [100, 250]);
		expect(Buffer.compare(data, decodeImage(probed(file)).data)).toBe(0);
		// MCU rows of 16 rows, handed out whole: the first decode stops after row 111, so the second
		// takes up at row 112 (the eighth MCU row) and starts at the seventh; it stops after 255.
		expect(starts).toEqual([96, 240]);
	});

	it("takes up a multi-scan JPEG's every scan at the MCU row above, too", () => {
		const file = bytes(gifJpeg.progressive420_jpg);
		const { data, starts } = inSegments(file, [20]);
		expect(Buffer.compare(data, decodeImage(probed(file)).data)).toBe(0);
		// The first decode stops after row 31 (the end of the second MCU row); the next starts at the second.
		expect(starts).toEqual([16]);
	});

	it("reads from the top, and gives the same rows, when no earlier decode stood near the row asked for", () => {
		const file = bytes(gifJpeg.progressive420_jpg);
		const image = probed(file);
		const whole = decodeImage(image);
		const handed: number[] = [];
		const rows = new Uint8Array(whole.data.length);
		resumableRows(image)(
			{
				rows(y, count, rgba) {
					handed.push(y);
					rows.set(rgba.subarray(0, count * image.width * 4), y * image.width * 4);
				},
			},
			40,
		);
		expect(handed[0]).toBeLessThanOrEqual(40);
		const from = 40 * image.width * 4;
		expect(Buffer.compare(rows.subarray(from), whole.data.subarray(from))).toBe(0);
	});
});
