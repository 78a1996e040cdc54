import { describe, expect, it } from "vitest";
import { decodeRows } from "../../src/pipeline/decode";
import { decodeFile, decodeFileByRows, everyFixture, probed } from "../support/decode";
import { storedPng } from "../support/png";
import * as webp from "./fixtures/webp";
import { DHT, DQT, greyBlocks, jpeg, sof, sos, zeros } from "./hostile/jpeg";

function bytes(base64: string): Uint8Array {
	return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
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
