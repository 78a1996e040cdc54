import { describe, expect, it } from "vitest";
import { decodeRows } from "../../src/pipeline/decode";
import type { JpegContainer } from "../../src/pipeline/pixels/jpeg/container";
import { decodeJpegRaster } from "../../src/pipeline/pixels/jpeg/decode";
import { decodeTurnedRows, turnedDecodes } from "../../src/pipeline/pixels/jpeg/turned";
import { applyOrientation } from "../../src/pipeline/pixels/orientation";
import type { Box, Raster } from "../../src/pipeline/types";
import { probed } from "../support/decode";
import { jpegKinds, withOrientation } from "../support/jpeg-files";
import { decodeInSegments } from "../support/segments";

/**
 * A JPEG turned by its EXIF orientation is decoded a window of displayed rows at a time, each
 * window from a decode of the stored image (pixels/jpeg/turned.ts). Its rows must be exactly the
 * stored image decoded whole and turned, whatever the window: the upsampled chroma at a window's
 * edge, restart intervals, sizes that are not whole MCUs, windows entered from written-down
 * places in the data, and decodes taken up at a later window.
 */
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

const FILES = jpegKinds();

describe("a JPEG turned by its EXIF orientation, decoded a window at a time", () => {
	describe.each(FILES)("%s", (_, plain) => {
		const stored = decodeJpegRaster(plain, jpegOf(plain));
		/** The file turned by `orientation`, probed, and the rows it must give. */
		const turned = (orientation: number) => {
			const image = probed(withOrientation(plain, orientation));
			if (image.format !== "jpeg") throw new Error("not a JPEG");
			return { image, jpeg: image.jpeg, expected: applyOrientation(copy(stored), orientation) };
		};
		it.each([2, 3, 4, 5, 6, 7, 8])("orientation %i: decodeRows gives the stored image turned", (orientation) => {
			const image = probed(withOrientation(plain, orientation));
			const expected = applyOrientation(copy(stored), orientation);
			expect([image.width, image.height]).toEqual([expected.width, expected.height]);
			const rows = gathered(image.width, image.height, (sink) => decodeRows(image, sink));
			expect(Buffer.compare(rows.data, expected.data)).toBe(0);
		});

		it("gives its window's memory back when the decode ends, stopped or not (each pass decodes anew)", () => {
			const image = probed(withOrientation(plain, 6));
			const seen: Uint8Array[] = [];
			decodeRows(image, { rows: (_y, _count, rgba) => void seen.push(rgba) });
			expect(seen[0]!.buffer.byteLength).toBe(0);
			const stopped: Uint8Array[] = [];
			expect(() =>
				decodeRows(image, {
					rows: (_y, _count, rgba) => {
						stopped.push(rgba);
						throw new Error("enough");
					},
				}),
			).toThrow("enough");
			expect(stopped[0]!.buffer.byteLength).toBe(0);
		});

		it.each([3, 4, 5, 6, 7, 8])("orientation %i: the same with windows of 1, 5 and 16 rows", (orientation) => {
			const { image, jpeg, expected } = turned(orientation);
			for (const rows of [1, 5, 16]) {
				const got = gathered(image.width, image.height, (sink) => decodeTurnedRows(image.bytes, jpeg, sink, { rows }));
				expect(Buffer.compare(got.data, expected.data)).toBe(0);
			}
		});

		it.each([3, 4, 5, 6, 7, 8])(
			"orientation %i: decodes stopped and taken up (pass 3) start at the window holding the first row not written",
			(orientation) => {
				const { image, jpeg, expected } = turned(orientation);
				const decode = turnedDecodes(image.bytes, jpeg, { rows: 5 });
				const { data, starts } = decodeInSegments(image, [7, 17], (sink, from) => decode(sink, undefined, from));
				expect(Buffer.compare(data, expected.data)).toBe(0);
				// Windows of 5 rows, handed out whole: the first decode stops after row 9, the second after 19.
				expect(starts).toEqual([10, 20]);
			},
		);

		it.each([3, 4, 5, 6, 7, 8])(
			"orientation %i: decodes after one for boxes, which wrote down part of the marks, give every row exactly",
			(orientation) => {
				const { image, jpeg, expected } = turned(orientation);
				const { width: w, height: h } = image;
				const decode = turnedDecodes(image.bytes, jpeg, { rows: 5 });
				// Pass 2 reads the data only as far as its box's last row, in the windows holding it.
				decode({ rows: () => {} }, [{ x0: Math.floor(w / 3), y0: 6, x1: w - 2, y1: Math.ceil(h / 2) }]);
				expect(Buffer.compare(gathered(w, h, (sink) => decode(sink)).data, expected.data)).toBe(0);
				const { data } = decodeInSegments(image, [7], (sink, from) => decode(sink, undefined, from));
				expect(Buffer.compare(data, expected.data)).toBe(0);
			},
		);

		it.each([3, 4, 5, 6, 7, 8])(
			"orientation %i: decodes for boxes after a whole one, every row marked, give their boxes exactly",
			(orientation) => {
				const { image, jpeg, expected } = turned(orientation);
				const { width: w, height: h } = image;
				const decode = turnedDecodes(image.bytes, jpeg, { rows: 5 });
				expect(Buffer.compare(gathered(w, h, (sink) => decode(sink)).data, expected.data)).toBe(0);
				// Low on the page: a multi-scan JPEG's windows skip the marked rows above it, then read only their columns.
				for (const box of [
					{ x0: 2, y0: Math.floor(h * 0.6), x1: Math.ceil(w * 0.7), y1: h },
					{ x0: Math.floor(w / 2), y0: 1, x1: w, y1: Math.ceil(h / 3) },
				]) {
					expectBoxes(
						gathered(w, h, (sink) => decode(sink, [box])),
						expected,
						[box],
					);
				}
			},
		);

		it.each([3, 4, 5, 6, 7, 8])(
			"orientation %i: pass 2's boxes exactly, in windows of 1, 5 and 16 rows, some holding none",
			(orientation) => {
				const { image, jpeg, expected } = turned(orientation);
				const { width: w, height: h } = image;
				// Two areas at odd places, one touching the right edge, the rows between them in no box.
				const wanted: Box[] = [
					{ x0: 1, y0: 2, x1: Math.ceil(w * 0.4), y1: Math.ceil(h * 0.3) },
					{ x0: Math.floor(w * 0.6), y0: Math.floor(h * 0.7), x1: w, y1: h - 1 },
				];
				for (const rows of [1, 5, 16]) {
					expectBoxes(
						gathered(w, h, (sink) => decodeTurnedRows(image.bytes, jpeg, sink, { rows }, wanted)),
						expected,
						wanted,
					);
				}
			},
		);
	});
});

/** The pixels inside `boxes` are those of `expected`; the others may be anything. */
function expectBoxes(got: Raster, expected: Raster, boxes: readonly Box[]): void {
	for (const box of boxes) {
		for (let y = box.y0; y < box.y1; y++) {
			const at = (y * got.width + box.x0) * 4;
			const end = (y * got.width + box.x1) * 4;
			expect(Buffer.compare(got.data.subarray(at, end), expected.data.subarray(at, end))).toBe(0);
		}
	}
}

function jpegOf(file: Uint8Array): JpegContainer {
	const image = probed(file);
	if (image.format !== "jpeg") throw new Error("not a JPEG");
	return image.jpeg;
}

function copy(raster: Raster): Raster {
	return { ...raster, data: raster.data.slice() };
}
