/**
 * Pass 1 reads a large JPEG at half its size (libjpeg's scaled IDCT): the readers' copies come out
 * as they did from the whole decode, and the PNG's colour type is still chosen from every pixel.
 */
import { describe, expect, it } from "vitest";
import { decodeRows, halfSizeDecode } from "../../src/pipeline/decode";
import { copyForReaders } from "../../src/pipeline/pass-copies";
import { JpegEncoder } from "../../src/pipeline/pixels/jpeg-encode";
import { readerImage } from "../../src/pipeline/read-copy";
import { planReading } from "../../src/pipeline/read-plan";
import type { Raster } from "../../src/pipeline/types";
import { job } from "../models/helpers";
import { decodeFile, everyFixture, probed } from "../support/decode";
import { DHT, DQT, greyBlocks, jpeg, sof, sos, zeros } from "./hostile/jpeg";

/** The half-size decode of `file`, gathered. */
function halfDecode(file: Uint8Array): { raster: Raster; colour: boolean } {
	const image = probed(file);
	const width = Math.ceil(image.width / 2);
	const height = Math.ceil(image.height / 2);
	const data = new Uint8Array(width * height * 4);
	const { colour } = halfSizeDecode(image)!({ rows: (y, _count, rgba) => data.set(rgba, y * width * 4) });
	return { raster: { width, height, data }, colour };
}

/** `whole` averaged over 2×2 pixels, to half its size (rounded up). */
function halved(whole: Raster): Raster {
	const width = Math.ceil(whole.width / 2);
	const height = Math.ceil(whole.height / 2);
	const data = new Uint8Array(width * height * 4);
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			for (let c = 0; c < 4; c++) {
				let sum = 0;
				let n = 0;
				for (const [dx, dy] of [
					[0, 0],
					[1, 0],
					[0, 1],
					[1, 1],
				] as const) {
					const sx = 2 * x + dx;
					const sy = 2 * y + dy;
					if (sx < whole.width && sy < whole.height) {
						sum += whole.data[(sy * whole.width + sx) * 4 + c]!;
						n++;
					}
				}
				data[(y * width + x) * 4 + c] = Math.round(sum / n);
			}
		}
	}
	return { width, height, data };
}

function psnr(a: Uint8Array, b: Uint8Array): number {
	let squares = 0;
	for (let i = 0; i < a.length; i++) squares += (a[i]! - b[i]!) ** 2;
	return 10 * Math.log10((255 * 255 * a.length) / Math.max(squares, 1e-9));
}

/** A JPEG (ours, 4:2:0) of `width`×`height` whose pixel at (x, y) is `rgb(x, y)`. */
function encodedJpeg(width: number, height: number, rgb: (x: number, y: number) => number[]): Uint8Array {
	const encoder = new JpegEncoder(width, height, 90);
	const row = new Uint8Array(width * 3);
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) row.set(rgb(x, y), x * 3);
		encoder.addRow(row);
	}
	return encoder.finish();
}

/** Dark strokes on paper, like lettering: 3 px bars every 11 px within some 40 px tall bands. */
const lettering = (x: number, y: number) => (y % 97 < 40 && x % 11 < 3 ? 20 : 235);

/** A grid of "H"s, 29×37 px each, with 2 px strokes: lettering as a scan of a page holds it. */
function glyphs(x: number, y: number): number {
	const cx = x % 29;
	const cy = y % 37;
	const stem = cx === 4 || cx === 5 || cx === 14 || cx === 15;
	const bar = cy >= 16 && cy <= 18 && cx > 4 && cx < 15;
	return cy > 5 && cy < 30 && (stem || bar) ? 30 : 240;
}

/** `value` over a width×height image averaged over each of out-width×out-height equal areas. */
function areaAverage(value: (x: number, y: number) => number, w: number, h: number, outW: number, outH: number) {
	const cut = (n: number, m: number) =>
		Array.from({ length: m }, (_, o) => {
			const [a, b] = [(o * n) / m, ((o + 1) * n) / m];
			const parts: [number, number][] = [];
			for (let i = Math.floor(a); i < Math.ceil(b); i++) parts.push([i, Math.min(b, i + 1) - Math.max(a, i)]);
			return parts;
		});
	const [across, down] = [cut(w, outW), cut(h, outH)];
	const out = new Float64Array(outW * outH);
	for (let oy = 0; oy < outH; oy++) {
		for (let ox = 0; ox < outW; ox++) {
			let sum = 0;
			for (const [y, wy] of down[oy]!) for (const [x, wx] of across[ox]!) sum += value(x, y) * wx * wy;
			out[oy * outW + ox] = sum / ((w / outW) * (h / outH));
		}
	}
	return out;
}

function decodeCopy(base64: string): Uint8Array {
	return decodeFile(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))).data;
}

/** PSNR of an RGBA image's green channel against grey values. */
function psnrGreen(rgba: Uint8Array, truth: Float64Array): number {
	let squares = 0;
	for (let i = 0; i < truth.length; i++) squares += (rgba[i * 4 + 1]! - truth[i]!) ** 2;
	return 10 * Math.log10((255 * 255 * truth.length) / squares);
}

const jpegFixtures = everyFixture().filter(([name, file]) => name.endsWith("_jpg") && halfSizeDecode(probed(file)));

describe("a JPEG decoded at half size", () => {
	it.each(jpegFixtures)("%s: is the whole decode averaged over 2×2 pixels, near enough to read", (_, file) => {
		const { raster } = halfDecode(file);
		const expected = halved(decodeFile(file));
		expect([raster.width, raster.height]).toEqual([expected.width, expected.height]);
		expect(psnr(raster.data, expected.data)).toBeGreaterThan(30);
	});

	it("says a YCbCr JPEG whose chroma is all zero is grey, and one with colour is not", () => {
		const grey = jpeg(
			[...DQT, ...DHT, ...sof(0xc0, 64, 100, [0x22, 0x11, 0x11])],
			[[sos([1, 2, 3]), zeros(greyBlocks(64, 112))]],
		);
		expect(halfDecode(grey).colour).toBe(false);
		expect(halfDecode(encodedJpeg(64, 48, (x, y) => [lettering(x, y), lettering(x, y), lettering(x, y)])).colour).toBe(
			false,
		);
		const oneRedDot = encodedJpeg(64, 48, (x, y) => (x === 40 && y === 30 ? [255, 0, 0] : [200, 200, 200]));
		expect(halfDecode(oneRedDot).colour).toBe(true);
	});
});

describe("pass 1 on a JPEG strip whose tiles are 3200 px or more", () => {
	// Read in tiles of 3200×1600: each copy 1600×800, which the image at half size still holds.
	const width = 5000;
	const height = 1600;

	it("makes the readers' copies the same size as from the whole decode, and as close to the image", async () => {
		const source = encodedJpeg(width, height, (x, y) => Array(3).fill(glyphs(x, y)));
		const image = probed(source);
		const fromWhole = await readerImage(width, height, (sink) => decodeRows(image, sink));
		const { reader } = await copyForReaders(job({ image }));
		if (!("tiles" in reader.view) || !("tiles" in fromWhole.view)) throw new Error("expected tiles");
		const { window, copy: made } = reader.view.tiles[0]!;
		const before = fromWhole.view.tiles[0]!.copy;
		expect([made.width, made.height]).toEqual([before.width, before.height]);
		// Each against the true average of the lettering over the area each copy pixel covers.
		const tile = (x: number, y: number) => glyphs(window.x + x, window.y + y);
		const truth = areaAverage(tile, window.width, window.height, made.width, made.height);
		expect(psnrGreen(decodeCopy(made.base64), truth)).toBeGreaterThanOrEqual(
			psnrGreen(decodeCopy(before.base64), truth),
		);
	});

	it("chooses a grey PNG for grey pixels and RGB once one pixel has colour", async () => {
		const grey = probed(encodedJpeg(width, height, (x, y) => [lettering(x, y), lettering(x, y), lettering(x, y)]));
		expect((await copyForReaders(job({ image: grey }))).colours.channels).toBe(1);
		const dot = probed(
			encodedJpeg(width, height, (x, y) => (x === 3000 && y === 1000 ? [250, 0, 0] : [240, 240, 240])),
		);
		expect((await copyForReaders(job({ image: dot }))).colours.channels).toBe(3);
	});
});

describe("pass 1 on a JPEG page of 3200 px or more", () => {
	/** Small print: "H"s of 2 px strokes in 20×24 px cells, as a dense page letters its balloons. */
	function smallPrint(x: number, y: number): number {
		const cx = x % 20;
		const cy = y % 24;
		const stem = cx === 2 || cx === 3 || cx === 14 || cx === 15;
		const bar = cy === 11 || cy === 12;
		return cy > 2 && cy < 21 && (stem || (bar && cx > 2 && cx < 16)) ? 30 : 240;
	}

	it("is planned as the same page decoded whole (a PNG of it) would be", async () => {
		const [width, height] = [3400, 2400];
		const image = probed(encodedJpeg(width, height, (x, y) => Array(3).fill(smallPrint(x, y))));
		const whole = await readerImage(width, height, (sink) => decodeRows(image, sink));
		const { reader } = await copyForReaders(job({ image }));
		if (!("page" in reader.view) || !("page" in whole.view)) throw new Error("expected a page");
		const options = { translate: true, rightToLeft: true };
		expect(whole.view.characters).toBeGreaterThan(1000);
		expect(reader.view.characters).toBe(whole.view.characters);
		expect(planReading(reader, reader.view.characters, options).parts).toEqual(
			planReading(whole, whole.view.characters, options).parts,
		);
	});
});
