/** What the last pass writes into each band: the erased pixels, then the overlays over them. */
import { describe, expect, it } from "vitest";
import { type Band, drawOverlay, pasteErased } from "../../src/pipeline/compose";
import type { Raster } from "../../src/pipeline/types";

type Colour = [number, number, number, number];

function canvas(width: number, height: number, paint: (x: number, y: number) => Colour): Raster {
	const data = new Uint8Array(width * height * 4);
	for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set(paint(x, y), (y * width + x) * 4);
	return { width, height, data };
}

const whole = (raster: Raster): Band => ({ ...raster, top: 0 });
const at = (r: Raster, x: number, y: number) =>
	Array.from(r.data.subarray((y * r.width + x) * 4, (y * r.width + x) * 4 + 4));

/** The image written band by band, `rows` at a time, as the last pass does. */
function inBands(image: Raster, rows: number, write: (band: Band) => void): Raster {
	const out = new Uint8Array(image.data.length);
	for (let top = 0; top < image.height; top += rows) {
		const height = Math.min(rows, image.height - top);
		const data = image.data.slice(top * image.width * 4, (top + height) * image.width * 4);
		const band = { top, width: image.width, height, data };
		write(band);
		out.set(data, top * image.width * 4);
	}
	return { width: image.width, height: image.height, data: out };
}

describe("drawOverlay", () => {
	it("draws straight-alpha over, clipped to the image", () => {
		const image = canvas(4, 4, () => [0, 0, 255, 255]);
		const patch = canvas(3, 3, (x) => (x === 0 ? [255, 0, 0, 255] : x === 1 ? [255, 0, 0, 128] : [255, 0, 0, 0]));
		drawOverlay(whole(image), { x: 2, y: -1, raster: patch });
		expect(at(image, 2, 0)).toEqual([255, 0, 0, 255]);
		expect(at(image, 3, 1)).toEqual([128, 0, 127, 255]);
		expect(at(image, 1, 0)).toEqual([0, 0, 255, 255]);
		expect(at(image, 2, 2)).toEqual([0, 0, 255, 255]);
	});

	it("keeps the alpha of a transparent image under a translucent overlay", () => {
		const image = canvas(1, 1, () => [0, 0, 0, 0]);
		drawOverlay(whole(image), { x: 0, y: 0, raster: canvas(1, 1, () => [10, 20, 30, 100]) });
		expect(at(image, 0, 0)).toEqual([10, 20, 30, 100]);
	});

	it("gives the same pixels band by band as at once, whatever the band height", () => {
		const image = canvas(9, 11, (x, y) => [x * 20, y * 20, 100, 255]);
		const overlay = { x: 2, y: 3, raster: canvas(5, 6, (x, y) => [250, 10 * x, 10 * y, 40 * (x + y)]) };
		const once = { ...image, data: image.data.slice() };
		drawOverlay(whole(once), overlay);
		for (const rows of [1, 2, 4, 7]) {
			expect(inBands(image, rows, (band) => drawOverlay(band, overlay)).data).toEqual(once.data);
		}
	});
});

describe("pasteErased", () => {
	const erased = {
		box: { x0: 1, y0: 2, x1: 3, y1: 5 },
		// 2x3: the middle row unmasked.
		mask: Uint8Array.from([1, 1, 0, 0, 1, 0]),
		rgba: Uint8Array.from([1, 1, 1, 255, 2, 2, 2, 255, 9, 9, 9, 9, 9, 9, 9, 9, 5, 5, 5, 255, 9, 9, 9, 9]),
	};

	it("writes the masked pixels at their place, and nothing else", () => {
		const image = canvas(4, 6, () => [100, 100, 100, 255]);
		pasteErased(whole(image), erased);
		expect(at(image, 1, 2)).toEqual([1, 1, 1, 255]);
		expect(at(image, 2, 2)).toEqual([2, 2, 2, 255]);
		expect(at(image, 1, 3)).toEqual([100, 100, 100, 255]);
		expect(at(image, 1, 4)).toEqual([5, 5, 5, 255]);
		expect(at(image, 2, 4)).toEqual([100, 100, 100, 255]);
		expect(at(image, 0, 2)).toEqual([100, 100, 100, 255]);
	});

	it("gives the same pixels band by band as at once", () => {
		const image = canvas(4, 6, (x, y) => [x, y, 7, 255]);
		const once = { ...image, data: image.data.slice() };
		pasteErased(whole(once), erased);
		for (const rows of [1, 2, 3, 5])
			expect(inBands(image, rows, (band) => pasteErased(band, erased)).data).toEqual(once.data);
	});
});
