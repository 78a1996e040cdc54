import { describe, expect, it } from "vitest";
import { addOutline, dilate } from "../../src/pipeline/typeset/outline";

/** The definition: each pixel takes the max of the pixels within `radius` of it. */
function bruteDilate(alpha: Uint8Array, width: number, height: number, radius: number): Uint8Array {
	const out = new Uint8Array(width * height);
	const r = Math.floor(radius);
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			let max = 0;
			for (let dy = -r; dy <= r; dy++) {
				const w = Math.floor(Math.sqrt(Math.max(0, radius * radius - dy * dy)));
				for (let dx = -w; dx <= w; dx++) {
					const sx = x + dx;
					const sy = y + dy;
					if (sx < 0 || sy < 0 || sx >= width || sy >= height) continue;
					max = Math.max(max, alpha[sy * width + sx] ?? 0);
				}
			}
			out[y * width + x] = max;
		}
	}
	return out;
}

describe("outline", () => {
	it("grows a dot into a disc", () => {
		const alpha = new Uint8Array(11 * 11);
		alpha[5 * 11 + 5] = 255;
		const grown = dilate(alpha, 11, 11, 2);
		expect(grown.filter((v) => v === 255).length).toBe(13);
		expect(grown[5 * 11 + 7]).toBe(255);
		expect(grown[7 * 11 + 7]).toBe(0);
	});

	it("matches the definition on random coverage, for any radius", () => {
		let seed = 7;
		const next = () => {
			seed = (seed * 1103515245 + 12345) & 0x7fffffff;
			return seed;
		};
		for (const [width, height, radius] of [
			[23, 17, 1.5],
			[40, 9, 3.2],
			[7, 30, 6],
			[16, 16, 0.4],
		] as const) {
			const alpha = Uint8Array.from({ length: width * height }, () => (next() % 9 === 0 ? next() % 256 : 0));
			expect(dilate(alpha, width, height, radius)).toEqual(bruteDilate(alpha, width, height, radius));
		}
	});

	it("paints the ring under the glyph in straight alpha", () => {
		const raster = { width: 9, height: 1, data: new Uint8Array(9 * 4) };
		raster.data.set([10, 10, 10, 255], 4 * 4);
		raster.data.set([10, 10, 10, 128], 5 * 4);
		addOutline(raster, [255, 255, 255], 2);
		expect([...raster.data.subarray(4 * 4, 4 * 4 + 4)]).toEqual([10, 10, 10, 255]);
		expect([...raster.data.subarray(2 * 4, 2 * 4 + 4)]).toEqual([255, 255, 255, 255]);
		// Half-covered glyph edge over a full ring: colour between the two, fully opaque.
		const edge = [...raster.data.subarray(5 * 4, 5 * 4 + 4)];
		expect(edge[3]).toBe(255);
		expect(edge[0]).toBeGreaterThan(100);
		expect(edge[0]).toBeLessThan(160);
		expect([...raster.data.subarray(0, 4)]).toEqual([0, 0, 0, 0]);
	});
});
