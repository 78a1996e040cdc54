/** The reader copy: small, made from the raster, tiles for strips, regions merged back to original pixels. */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { SentImage } from "../../src/models/model-ask";
import { readAndTranslate } from "../../src/pipeline/read";
import { ReaderCopier, type ReaderImage, readingWindows, Shrink, type Window } from "../../src/pipeline/read-copy";
import { mergeRegions, placeRegions } from "../../src/pipeline/read-regions";
import type { Raster } from "../../src/pipeline/types";
import { imageSize } from "../fakes/vendor.mjs";
import { decodeFile } from "../support/decode";
import { job, raster, readerImageOf, withFake } from "./helpers";

afterEach(() => vi.restoreAllMocks());

/** The RGB rows a window shrinks to. */
function shrunk(image: Raster, window: Window, longEdge: number): { width: number; height: number; rgb: number[] } {
	const rgb: number[] = [];
	const shrink = new Shrink(window, longEdge, (row) => rgb.push(...row));
	const words = new Int32Array(image.data.slice().buffer);
	for (let y = 0; y < image.height; y++) shrink.addSourceRow(y, words.subarray(y * image.width, (y + 1) * image.width));
	return { width: shrink.width, height: shrink.height, rgb };
}

/** The copy of a page read whole. */
function pageCopy(image: ReaderImage): SentImage {
	if (!("page" in image.view)) throw new Error("read in tiles");
	return image.view.page;
}

async function decoded(copy: SentImage): Promise<Raster> {
	return decodeFile(Uint8Array.from(atob(copy.base64), (c) => c.charCodeAt(0)));
}

describe("reader copy", () => {
	it("a 6000x4000 photo goes as a 1600x1067 JPEG of a few hundred kB", async () => {
		const copy = pageCopy(await readerImageOf(raster(6000, 4000)));
		expect([copy.width, copy.height]).toEqual([1600, 1067]);
		expect(imageSize(copy.base64)).toEqual({ width: 1600, height: 1067 });
		expect((copy.base64.length * 3) / 4).toBeLessThan(400_000);
	});

	it("a small image is not scaled up", async () => {
		const copy = pageCopy(await readerImageOf(raster(300, 200)));
		expect([copy.width, copy.height]).toEqual([300, 200]);
	});

	it("shows the image: the JPEG decodes to the page it was made from", async () => {
		const page = raster(640, 480);
		const image = await decoded(pageCopy(await readerImageOf(page)));
		expect([image.width, image.height]).toEqual([640, 480]);
		let error = 0;
		for (let i = 0; i < page.data.length; i += 4) error += Math.abs(image.data[i]! - page.data[i]!);
		// Flat grey with a dark band: only the band's edges ring a little.
		expect(error / (640 * 480)).toBeLessThan(1);
	});

	it("reads rows handed over as a view at an odd offset", async () => {
		const backing = new Uint8Array(1 + 16 * 16 * 4);
		for (let i = 0; i < 256; i++) backing.set([200, 40, 40, 255], 1 + i * 4);
		const copier = new ReaderCopier(16, [{ x: 0, y: 0, width: 16, height: 16 }]);
		copier.rows(0, 16, backing.subarray(1));
		const image = await decoded(copier.finish()[0]!);
		const [r, g, b] = image.data;
		expect(Math.abs(r! - 200) + Math.abs(g! - 40) + Math.abs(b! - 40)).toBeLessThan(12);
	});

	it("averages areas and puts transparent pixels on white, not black", () => {
		// 4x2: left half black opaque, right half fully transparent.
		const data = new Uint8Array(4 * 2 * 4);
		for (let y = 0; y < 2; y++) for (let x = 0; x < 2; x++) data[(y * 4 + x) * 4 + 3] = 255;
		const out = shrunk({ width: 4, height: 2, data }, { x: 0, y: 0, width: 4, height: 2 }, 2);
		expect([out.width, out.height]).toEqual([2, 1]);
		expect(out.rgb).toEqual([0, 0, 0, 255, 255, 255]);
	});

	it("averages uneven areas exactly: 5 columns into 2 take 3 and 2", () => {
		const data = new Uint8Array(5 * 4);
		for (const [x, v] of [10, 20, 30, 60, 90].entries()) data.set([v, v, v, 255], x * 4);
		const out = shrunk({ width: 5, height: 1, data }, { x: 0, y: 0, width: 5, height: 1 }, 2);
		expect(out.rgb).toEqual([20, 20, 20, 75, 75, 75]);
	});

	it("sums a tall window's rows without overflow: 1000 white rows into one stay white", () => {
		const data = new Uint8Array(2 * 1000 * 4).fill(255);
		const out = shrunk({ width: 2, height: 1000, data }, { x: 0, y: 0, width: 2, height: 1000 }, 1);
		expect(out.rgb).toEqual([255, 255, 255]);
	});

	it("reads only its window's columns and rows", () => {
		// 4x4, the right two columns of the bottom two rows red, the rest blue.
		const data = new Uint8Array(4 * 4 * 4);
		for (let i = 0; i < 16; i++) data.set(i >= 8 && i % 4 >= 2 ? [255, 0, 0, 255] : [0, 0, 255, 255], i * 4);
		const out = shrunk({ width: 4, height: 4, data }, { x: 2, y: 2, width: 2, height: 2 }, 1);
		expect(out.rgb).toEqual([255, 0, 0]);
	});
});

describe("tiles", () => {
	it("an image up to 3:1 is read whole", () => {
		expect(readingWindows(3000, 1000)).toEqual([{ x: 0, y: 0, width: 3000, height: 1000 }]);
	});

	it("a webtoon strip is cut into overlapping tiles that cover it end to end", () => {
		const windows = readingWindows(800, 12000);
		expect(windows.length).toBeGreaterThan(1);
		expect(windows.length).toBeLessThanOrEqual(12);
		expect(windows[0]?.y).toBe(0);
		const last = windows.at(-1)!;
		expect(last.y + last.height).toBe(12000);
		for (let i = 1; i < windows.length; i++) {
			const overlap = windows[i - 1]!.y + windows[i - 1]!.height - windows[i]!.y;
			expect(overlap).toBeGreaterThanOrEqual(400);
		}
		for (const w of windows) expect(w.height).toBeLessThanOrEqual(1600);
	});

	it("a very long strip gets longer tiles, never more than 12", () => {
		const windows = readingWindows(500, 40000);
		expect(windows).toHaveLength(12);
		expect(windows.at(-1)!.y + windows.at(-1)!.height).toBe(40000);
	});

	it("tiles are read in parallel and their regions placed in the strip, in tile order", async () => {
		const { ctx, fake } = withFake({}, { latencyMs: 20 });
		let inFlight = 0;
		let mostInFlight = 0;
		vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
			mostInFlight = Math.max(mostInFlight, ++inFlight);
			try {
				return await fake.fetch(input, init);
			} finally {
				inFlight--;
			}
		});
		const { regions, roundTrips } = await readAndTranslate(
			await readerImageOf(raster(600, 4000)),
			job({ translator: "grok" }),
			ctx,
		);
		const tiles = readingWindows(600, 4000);
		expect(fake.calls).toHaveLength(tiles.length);
		expect(mostInFlight).toBe(tiles.length);
		expect(roundTrips).toBe(1);
		expect(regions.map((r) => r.id)).toEqual(regions.map((_, i) => i));
		// The fixture's first block of each tile sits lower in the strip than the previous tile's.
		const firsts = regions.filter((r) => r.text.startsWith("こんにちは"));
		expect(firsts).toHaveLength(tiles.length);
		for (let i = 1; i < firsts.length; i++) expect(firsts[i]!.box.y0).toBeGreaterThan(firsts[i - 1]!.box.y0);
		for (const r of regions) expect(r.box.y1).toBeLessThanOrEqual(4000);
	});
});

describe("placing and merging", () => {
	const window = { x: 0, y: 1000, width: 800, height: 1600 };
	const size = { width: 800, height: 4000 };

	it("maps a tile's fractions to original pixels and clips to the image", () => {
		const [placed] = placeRegions([{ text: "a", box: [0.5, 0.5, 1.2, 1], vertical: false }], window, size);
		expect(placed?.box).toEqual({ x0: 400, y0: 1800, x1: 800, y1: 2600 });
	});

	it("drops degenerate boxes and empty text", () => {
		const placed = placeRegions(
			[
				{ text: "line", box: [0.1, 0.1, 0.1005, 0.5], vertical: false },
				{ text: "  ", box: [0.1, 0.1, 0.5, 0.5], vertical: false },
			],
			window,
			size,
		);
		expect(placed).toEqual([]);
	});

	it("keeps the whole balloon when a tile edge cut its copy in the neighbouring tile", () => {
		const cut = { text: "また明日", box: { x0: 100, y0: 2500, x1: 300, y1: 2600 }, vertical: false };
		const whole = { text: "また明日ね！", box: { x0: 100, y0: 2500, x1: 300, y1: 2680 }, vertical: false };
		const other = { text: "うん", box: { x0: 500, y0: 2700, x1: 600, y1: 2800 }, vertical: false };
		expect(mergeRegions([[cut], [whole, other]])).toEqual([whole, other]);
	});

	it("keeps the fuller reading of one balloon read twice, though the cut copy's box is the larger", () => {
		const cut = { text: "また明日", box: { x0: 98, y0: 2496, x1: 304, y1: 2684 }, vertical: false };
		const whole = { text: "また明日ね！", box: { x0: 100, y0: 2500, x1: 300, y1: 2680 }, vertical: false };
		expect(mergeRegions([[cut], [whole]])).toEqual([whole]);
		expect(mergeRegions([[whole], [cut]])).toEqual([whole]);
	});

	it("keeps both readings when two different texts were read from nearly the same box", () => {
		// The lower tile's edge cut the balloon's first line off and read its last.
		const first = { text: "また明日", box: { x0: 100, y0: 2500, x1: 300, y1: 2680 }, vertical: false };
		const last = { text: "うん、さよなら", box: { x0: 102, y0: 2504, x1: 300, y1: 2690 }, vertical: false };
		expect(mergeRegions([[first], [last]])).toEqual([first, last]);
	});

	it("keeps two balloons one tile read apart when the other read them as one", () => {
		const left = { text: "IT'S ONLY ME, SARGE!", box: { x0: 118, y0: 676, x1: 281, y1: 722 }, vertical: false };
		const right = { text: "THE MAP IS GONE!", box: { x0: 542, y0: 681, x1: 759, y1: 757 }, vertical: false };
		// The upper tile cut the right balloon short and read across the gap between the two.
		const across = {
			text: "IT'SONLY ME, Nii THE MAP IS SARGE!",
			box: { x0: 118, y0: 672, x1: 759, y1: 728 },
			vertical: false,
		};
		expect(mergeRegions([[across], [left, right]])).toEqual([left, right]);
		expect(mergeRegions([[left, right], [across]])).toEqual([left, right]);
	});

	it("keeps neighbouring balloons with different text apart", () => {
		const a = { text: "はい", box: { x0: 100, y0: 100, x1: 200, y1: 200 }, vertical: false };
		const b = { text: "いいえ", box: { x0: 150, y0: 150, x1: 260, y1: 260 }, vertical: false };
		expect(mergeRegions([[a, b]])).toHaveLength(2);
	});
});
