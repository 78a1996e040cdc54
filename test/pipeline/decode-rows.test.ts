import { describe, expect, it } from "vitest";
import { decodeRows } from "../../src/pipeline/decode";
import { encodePng } from "../../src/pipeline/encode";
import type { Box } from "../../src/pipeline/types";
import { decodeFile, decodeFileByRows, everyFixture, probed } from "../support/decode";
import { concat, storedPng } from "../support/png";
import * as webp from "./fixtures/webp";
import { DHT, DQT, greyBlocks, jpeg, sof, sos, zeros } from "./hostile/jpeg";

function bytes(base64: string): Uint8Array {
	return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

/** Grey bytes as opaque RGBA. */
function greyToRgba(grey: Uint8Array): Uint8Array {
	const rgba = new Uint8Array(grey.length * 4);
	for (let i = 0; i < grey.length; i++) rgba.set([grey[i]!, grey[i]!, grey[i]!, 255], i * 4);
	return rgba;
}

/** Row counts of each call to the sink. */
function bands(file: Uint8Array): number[] {
	const counts: number[] = [];
	decodeRows(probed(file), { rows: (_, count) => counts.push(count) });
	return counts;
}

describe("decodeRows", () => {
	it.each(everyFixture())(
		"hands out %s's pixels exactly as the whole-image decode, in order, each row once",
		(_, file) => {
			const rows = decodeFileByRows(file);
			const whole = decodeFile(file);
			expect([rows.width, rows.height]).toEqual([whole.width, whole.height]);
			expect(rows.data.every((v, i) => v === whole.data[i])).toBe(true);
		},
	);

	it.each(everyFixture())(
		"hands out %s's pixels inside the wanted boxes exactly as the whole-image decode",
		(_, file) => {
			const image = probed(file);
			const { width: w, height: h } = image;
			// Two areas at odd places, as pass 2's crops are, one of them touching the right edge.
			const wanted: Box[] = [
				{ x0: Math.floor(w * 0.1) + 1, y0: Math.floor(h * 0.3) + 3, x1: Math.ceil(w * 0.35), y1: Math.ceil(h * 0.55) },
				{ x0: Math.floor(w * 0.6) + 5, y0: Math.floor(h * 0.5), x1: w, y1: h - 1 },
			];
			const whole = decodeFile(file);
			const seen = new Uint8Array(w * h * 4);
			decodeRows(image, { rows: (y, _count, rgba) => seen.set(rgba, y * w * 4) }, wanted);
			for (const box of wanted) {
				for (let y = box.y0; y < box.y1; y++) {
					const row = (y * w + box.x0) * 4;
					const end = (y * w + box.x1) * 4;
					expect(seen.subarray(row, end)).toEqual(whole.data.subarray(row, end));
				}
			}
		},
	);

	it.each(everyFixture())(
		"hands out %s's pixels exactly as the whole-image decode to a sink that also takes grey rows",
		(_, file) => {
			const image = probed(file);
			const { width, height } = image;
			const seen = new Uint8Array(width * height * 4);
			decodeRows(image, {
				rows: (y, _count, rgba) => seen.set(rgba, y * width * 4),
				greyRows: (y, count, grey) => seen.set(greyToRgba(grey.subarray(0, count * width)), y * width * 4),
			});
			expect(Buffer.compare(seen, decodeFile(file).data)).toBe(0);
		},
	);

	it("hands a grey PNG's rows over a byte a pixel, as stored, to a sink that takes grey rows", () => {
		// 300 px wide: a 64 KB band holds 54 rows, so the 120 rows come in three calls.
		const page = { width: 300, height: 120, data: new Uint8Array(300 * 120 * 4) };
		for (let i = 0; i < 300 * 120; i++) page.data.set([i % 251, i % 251, i % 251, 255], i * 4);
		const file = concat(encodePng(page));
		expect(file[25]).toBe(0); // colour type: grey
		const grey = new Uint8Array(300 * 120);
		const calls: number[] = [];
		decodeRows(probed(file), {
			rows: () => {
				throw new Error("RGBA rows of a grey PNG");
			},
			greyRows: (y, count, rows) => {
				calls.push(count);
				grey.set(rows.subarray(0, count * 300), y * 300);
			},
		});
		expect(calls).toEqual([54, 54, 12]);
		expect(Buffer.compare(greyToRgba(grey), page.data)).toBe(0);
	});

	it("turns into pixels only the MCUs around the wanted boxes of a JPEG", () => {
		// 4:2:0, 64x100 of mid grey: pixels turned into pixels are grey, the others stay zero.
		const file = jpeg(
			[...DQT, ...DHT, ...sof(0xc0, 64, 100, [0x22, 0x11, 0x11])],
			[[sos([1, 2, 3]), zeros(greyBlocks(64, 112))]],
		);
		const seen = new Uint8Array(64 * 100 * 4);
		let last = 0;
		const wanted = [{ x0: 40, y0: 50, x1: 44, y1: 52 }];
		decodeRows(
			probed(file),
			{
				rows(y, count, rgba) {
					seen.set(rgba, y * 64 * 4);
					last = y + count;
				},
			},
			wanted,
		);
		const decoded = (x: number, y: number) => seen[(y * 64 + x) * 4 + 3] === 255;
		expect(decoded(42, 51)).toBe(true);
		// One MCU (16 px) either side and the MCU row above are decoded too; beyond them, nothing.
		expect([decoded(16, 40), decoded(63, 63)]).toEqual([true, true]);
		expect([decoded(10, 51), decoded(42, 10), decoded(42, 70)]).toEqual([false, false, false]);
		// The decode stops after the MCU row holding the box's last row.
		expect(last).toBe(64);
	});

	it("streams a plain PNG in bands of at most 64 KB", () => {
		const counts = bands(storedPng(100, 2000, (x, y) => [x, y & 255, 0, 255]));
		expect(counts.reduce((a, b) => a + b, 0)).toBe(2000);
		expect(Math.max(...counts) * 100 * 4).toBeLessThanOrEqual(64 * 1024);
	});

	it("streams a baseline JPEG an MCU row at a time", () => {
		const file = jpeg(
			[...DQT, ...DHT, ...sof(0xc0, 64, 100, [0x22, 0x11, 0x11])],
			[[sos([1, 2, 3]), zeros(greyBlocks(64, 112))]],
		);
		expect(bands(file)).toEqual([16, 16, 16, 16, 16, 16, 4]);
	});

	it("streams a lossy WebP a macroblock row at a time", () => {
		const counts = bands(bytes(webp.lossy_webp));
		expect(Math.max(...counts)).toBeLessThanOrEqual(24);
		expect(counts.length).toBeGreaterThan(1);
	});

	it("stops when the sink throws, with the sink's own error", () => {
		const failure = new Error("enough");
		expect(() =>
			decodeRows(probed(storedPng(10, 10)), {
				rows() {
					throw failure;
				},
			}),
		).toThrow(failure);
	});
});
