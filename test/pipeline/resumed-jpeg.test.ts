import { describe, expect, it } from "vitest";
import { decodeImage, decodesAfterModel, resumableRows } from "../../src/pipeline/decode";
import type { Box } from "../../src/pipeline/types";
import { probed } from "../support/decode";
import { encodedJpeg, jpegKinds, withOrientation } from "../support/jpeg-files";
import { decodeInSegments } from "../support/segments";
import * as gifJpeg from "./fixtures/gif-jpeg";

/**
 * The last pass stops its decode whenever enough of the PNG waits for the response, and decodes
 * again for the rest (pass-bands.ts). A JPEG's next decode starts near the first row not yet
 * written rather than at the top (a one-scan JPEG from marks at every MCU row, a multi-scan one from
 * every scan's place at the last two MCU rows); the rows must be exactly those of one decode from
 * the top, whatever the row it stopped at: upsampled chroma across the MCU row entered, restart
 * intervals, end-of-band runs across rows, a mirrored or turned image, a third decode entered
 * where the second wrote down its place.
 */
function bytes(base64: string): Uint8Array {
	return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

const FILES = jpegKinds();

describe("a JPEG decoded again from where the last decode stopped", () => {
	describe.each(FILES)("%s", (_, file) => {
		it.each([
			["as stored", file],
			["mirrored", withOrientation(file, 2)],
			["turned by EXIF", withOrientation(file, 6)],
		])("%s: its rows are those of one decode, wherever the decodes stop", (_, shown) => {
			const whole = decodeImage(probed(shown));
			for (const stops of [[1], [8], [9, 17], [15, 16, 30], [40, 100]]) {
				const { data } = decodeInSegments(probed(shown), stops);
				expect(Buffer.compare(data, whole.data)).toBe(0);
			}
		});
	});

	it("starts each later decode at the MCU row above the first row not written, not at the top", () => {
		const file = encodedJpeg(96, 400);
		const { data, starts } = decodeInSegments(probed(file), [100, 250]);
		expect(Buffer.compare(data, decodeImage(probed(file)).data)).toBe(0);
		// MCU rows of 16 rows, handed out whole: the first decode stops after row 111, so the second
		// takes up at row 112 (the eighth MCU row) and starts at the seventh; it stops after 255.
		expect(starts).toEqual([96, 240]);
	});

	it("takes up a multi-scan JPEG's every scan at the MCU row above, too", () => {
		const file = bytes(gifJpeg.progressive420_jpg);
		const { data, starts } = decodeInSegments(probed(file), [20]);
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

	describe.each(FILES)("pass 2's decodes for groups of boxes, %s", (_, file) => {
		it.each([
			["as stored", file],
			["mirrored", withOrientation(file, 2)],
		])(
			"%s: a lower group starts near its first box, its pixels those of one decode; pass 3 after them too",
			(_, shown) => {
				const image = probed(shown);
				const { width, height } = image;
				const whole = decodeImage(image);
				const decodes = decodesAfterModel(image);
				const groups: Box[][] = [
					[{ x0: 0, y0: 0, x1: Math.min(width, 40), y1: height }],
					[{ x0: width >> 2, y0: height - 8, x1: width, y1: height }],
				];
				for (const boxes of groups) {
					const rows = new Uint8Array(whole.data.length);
					let first = -1;
					decodes.rows(
						{
							rows(y, count, rgba) {
								if (first < 0) first = y;
								rows.set(rgba.subarray(0, count * width * 4), y * width * 4);
							},
						},
						boxes,
					);
					for (const box of boxes) {
						for (let y = box.y0; y < box.y1; y++) {
							const at = (y * width + box.x0) * 4;
							const end = (y * width + box.x1) * 4;
							expect(Buffer.compare(rows.subarray(at, end), whole.data.subarray(at, end))).toBe(0);
						}
					}
					// Handed from the MCU row above the box's (whose chroma the upsampling reads), MCU rows being 8 or 16 rows.
					const top = boxes[0]!.y0;
					expect(first).toBeLessThanOrEqual(top);
					expect(first).toBeGreaterThan(top - 32);
				}
				const again = new Uint8Array(whole.data.length);
				decodes.resumable()(
					{ rows: (y, count, rgba) => again.set(rgba.subarray(0, count * width * 4), y * width * 4) },
					0,
				);
				expect(Buffer.compare(again, whole.data)).toBe(0);
			},
		);
	});
});
