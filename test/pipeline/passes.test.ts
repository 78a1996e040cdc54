/**
 * The pipeline by passes gives the picture the one-raster pipeline gave, without holding the
 * image: layout and erase in crops change what they change on the whole image, the PNG written band by
 * band is that image, and the model's answer does not size the work.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type Band, drawOverlay, pasteErased } from "../../src/pipeline/compose";
import { encodePng } from "../../src/pipeline/encode";
import { HOLD_BUDGET, type ImageRows, imageRows } from "../../src/pipeline/image-rows";
import { bandsToPng } from "../../src/pipeline/pass-bands";
import { layOutInCrops } from "../../src/pipeline/pass-crops";
import { MAX_REGIONS_PER_CALL, runPipeline } from "../../src/pipeline/run";
import type { Box, Raster, TranslatedRegion, TranslateJob } from "../../src/pipeline/types";
import type { Mode } from "../../src/request/options";
import { ALL_KEYS, job } from "../models/helpers";
import { decodeFile, probed } from "../support/decode";
import { layOut } from "../support/lay-out";
import { concat } from "../support/png";

afterEach(() => vi.restoreAllMocks());

type Colour = [number, number, number, number];
const WHITE: Colour = [255, 255, 255, 255];
const INK: Colour = [30, 30, 30, 255];

/** A white page with letter-like bars inside each box (an "H" and an "I" scaled to it). */
function page(width: number, height: number, boxes: Box[], paper: Colour = WHITE): Raster {
	const data = new Uint8Array(width * height * 4);
	for (let i = 0; i < width * height; i++) data.set(paper, i * 4);
	for (const b of boxes) {
		const w = b.x1 - b.x0;
		const h = b.y1 - b.y0;
		for (let y = b.y0 + Math.round(h * 0.2); y < b.y1 - Math.round(h * 0.2); y++) {
			for (let x = b.x0 + Math.round(w * 0.1); x < b.x1 - Math.round(w * 0.1); x++) {
				const u = (x - b.x0) / w;
				const v = (y - b.y0) / h;
				const stroke = (u > 0.1 && u < 0.18) || (u > 0.4 && u < 0.48) || (v > 0.47 && v < 0.55 && u < 0.48);
				if (stroke || (u > 0.75 && u < 0.83)) data.set(INK, (y * width + x) * 4);
			}
		}
	}
	return { width, height, data };
}

function jobFor(raster: Raster, overrides: Partial<TranslateJob> = {}): TranslateJob {
	return job({ image: probed(concat(encodePng(raster))), ...overrides });
}

/**
 * The image's rows after the model, held once decoded (small images) or decoded for each pass
 * (large ones: a budget of 0 makes these small ones take that way). Every test page is grey.
 */
function rowsOf(raster: Raster, budget: number): ImageRows {
	return imageRows(jobFor(raster).image, 1, budget);
}

/** layOutInCrops over the page's rows, let go after (as run.ts does when pass 3 ends). */
async function layOutRows(original: Raster, budget: number, regions: TranslatedRegion[], mode: Mode) {
	const rows = rowsOf(original, budget);
	try {
		return await layOutInCrops(rows, regions, mode);
	} finally {
		rows.release();
	}
}

const ROWS = [
	{ rows: "held once decoded", budget: HOLD_BUDGET },
	{ rows: "decoded for each pass", budget: 0 },
];

function regionsAt(boxes: Box[]): TranslatedRegion[] {
	return boxes.map((box, id) => ({ id, text: "HI", box, vertical: false, translation: "Hello" }));
}

function differing(a: Uint8Array, b: Uint8Array): number {
	let n = Math.abs(a.length - b.length);
	for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) n++;
	return n;
}

async function collect(pieces: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<Uint8Array> {
	const all: Uint8Array[] = [];
	// A piece is valid only until the next is pulled.
	for await (const piece of pieces) all.push(piece.slice());
	return concat(all);
}

const BOXES: Box[] = [
	{ x0: 20, y0: 20, x1: 120, y1: 60 },
	// Two regions of one balloon: their crops join.
	{ x0: 200, y0: 40, x1: 300, y1: 80 },
	{ x0: 200, y0: 85, x1: 300, y1: 125 },
	{ x0: 60, y0: 220, x1: 260, y1: 280 },
];

describe.each(ROWS)("layout and erase in crops, the image's rows $rows", ({ budget }) => {
	it("change exactly the pixels that they change on the whole image, and find the same blocks", async () => {
		const original = page(360, 300, BOXES);
		const whole = { ...original, data: original.data.slice() };
		const expected = layOut(whole, regionsAt(BOXES), "general").blocks;

		const second = await layOutRows(original, budget, regionsAt(BOXES), "general");
		const band: Band = { ...original, data: original.data.slice(), top: 0 };
		for (const pixels of second.erased) pasteErased(band, pixels);
		expect(differing(band.data, whole.data)).toBe(0);
		expect(second.blocks).toEqual(expected);
		expect(second.left).toEqual([]);
	});

	it("erases a headline larger than a crop whole, in tiles, and makes it one block", async () => {
		// Twelve letters across 2600 px: the region's search area is twice a crop's.
		const headline = { x0: 100, y0: 100, x1: 2700, y1: 800 };
		const letters = Array.from({ length: 12 }, (_, i) => ({ x0: 150 + i * 210, y0: 200, x1: 340 + i * 210, y1: 700 }));
		const original = page(2800, 900, letters);
		const second = await layOutRows(original, budget, regionsAt([headline]), "general");
		const band: Band = { ...original, data: original.data.slice(), top: 0 };
		for (const pixels of second.erased) pasteErased(band, pixels);
		let ink = 0;
		for (let i = 0; i < band.data.length; i += 4) if (band.data[i]! < 128) ink++;
		expect(ink).toBe(0);
		expect(second.blocks).toHaveLength(1);
		const { textBox } = second.blocks[0]!;
		expect(textBox.x0).toBeLessThan(200);
		expect(textBox.x1).toBeGreaterThan(2500);
	});

	it("changes nothing in light-novel mode, and still finds every block", async () => {
		const original = page(360, 300, BOXES);
		const second = await layOutRows(original, budget, regionsAt(BOXES), "light-novel");
		expect(second.erased).toEqual([]);
		expect(second.blocks.flatMap((b) => b.regionIds).sort()).toEqual([0, 1, 2, 3]);
	});
});

describe.each(ROWS)("the PNG written band by band, the image's rows $rows", ({ budget }) => {
	it("is the image with the erased pixels pasted and the overlays drawn over them, across band edges", async () => {
		// 300 px wide: a band holds 873 rows, so the 2000 rows make three bands.
		const original = page(300, 2000, [{ x0: 40, y0: 840, x1: 260, y1: 920 }], [200, 200, 200, 255]);
		const erased = {
			box: { x0: 50, y0: 850, x1: 250, y1: 900 },
			mask: new Uint8Array(200 * 50).fill(1),
			rgba: new Uint8Array(200 * 50 * 4),
		};
		for (let i = 0; i < 200 * 50; i++) erased.rgba.set([90, 90, 90, 255], i * 4);
		const glyph = { width: 100, height: 30, data: new Uint8Array(100 * 30 * 4) };
		for (let i = 0; i < 100 * 30; i++) glyph.data.set([10, 10, 10, i % 3 === 0 ? 255 : 128], i * 4);
		const overlay = { x: 70, y: 860, raster: glyph };

		let finished = 0;
		const png = await collect(
			bandsToPng({
				image: rowsOf(original, budget),
				erased: [erased],
				overlays: [{ top: overlay.y, colours: [[10, 10, 10]], draw: () => overlay }],
				overlaysReady: Promise.resolve(),
				channels: 1,
				finished: () => finished++,
			}),
		);
		expect(finished).toBe(1);
		const expected: Band = { ...original, data: original.data.slice(), top: 0 };
		pasteErased(expected, erased);
		drawOverlay(expected, overlay);
		const out = decodeFile(png);
		expect([out.width, out.height]).toEqual([300, 2000]);
		expect(differing(out.data, expected.data)).toBe(0);
		expect(png[25]).toBe(0); // colour type: grey, as every pixel and the overlay's colour are
		// Worked a byte a pixel (pass 3's grey band), byte for byte the file the whole RGBA raster makes.
		expect(differing(png, concat(encodePng(expected)))).toBe(0);
	});

	it("writes the same file when it stops decoding to let the response catch up, and decodes again", async () => {
		const original = page(300, 2000, [{ x0: 40, y0: 840, x1: 260, y1: 920 }], [200, 200, 200, 255]);
		const glyph = { width: 100, height: 900, data: new Uint8Array(100 * 900 * 4).fill(180) };
		const inputs = {
			image: rowsOf(original, budget),
			erased: [],
			overlays: [{ top: 500, colours: [], draw: () => ({ x: 70, y: 500, raster: glyph }) }],
			overlaysReady: Promise.resolve(),
			channels: 1 as const,
			finished: () => {},
		};
		const once = await collect(bandsToPng(inputs));
		// A byte held is too much: every band that completes a compressed piece ends a segment, the
		// overlay drawn across two of them.
		const inSegments = await collect(bandsToPng(inputs, 1));
		expect(differing(inSegments, once)).toBe(0);
	});

	it("lets the page go (its fonts) when the response stops reading, even before the first piece", async () => {
		const original = page(40, 30, []);
		const inputs = (finished: () => void) => ({
			image: rowsOf(original, budget),
			erased: [],
			overlays: [],
			overlaysReady: Promise.resolve(),
			channels: 1 as const,
			finished,
		});
		let finished = 0;
		const unread = bandsToPng(inputs(() => finished++))[Symbol.asyncIterator]();
		await unread.return?.();
		expect(finished).toBe(1);
		const started = bandsToPng(inputs(() => finished++))[Symbol.asyncIterator]();
		await started.next();
		await started.return?.();
		expect(finished).toBe(2);
	});
});

describe("the PNG of a grey image whose decoder hands out RGBA rows (a grey JPEG or GIF)", () => {
	it("is byte for byte the file the whole RGBA raster makes", async () => {
		const original = page(301, 1200, [{ x0: 40, y0: 600, x1: 260, y1: 680 }], [200, 200, 200, 255]);
		const glyph = { width: 120, height: 40, data: new Uint8Array(120 * 40 * 4) };
		for (let i = 0; i < 120 * 40; i++) glyph.data.set([20, 20, 20, [0, 77, 255][i % 3]!], i * 4);
		const overlay = { x: 50, y: 610, raster: glyph };
		const image: ImageRows = {
			width: original.width,
			height: original.height,
			crops: async () => {},
			// Every row from the top as RGBA, in bands of 7 rows, a copy each (the decoder reuses its own).
			resumable: () => (sink) => {
				for (let y = 0; y < original.height; y += 7) {
					const count = Math.min(7, original.height - y);
					sink.rows(y, count, original.data.slice(y * 301 * 4, (y + count) * 301 * 4));
				}
			},
			resumesNear: false,
			release: () => {},
		};
		const png = await collect(
			bandsToPng({
				image,
				erased: [],
				overlays: [{ top: overlay.y, colours: [[20, 20, 20]], draw: () => overlay }],
				overlaysReady: Promise.resolve(),
				channels: 1,
				finished: () => {},
			}),
		);
		const expected: Band = { ...original, data: original.data.slice(), top: 0 };
		drawOverlay(expected, overlay);
		expect(png[25]).toBe(0);
		expect(differing(png, concat(encodePng(expected)))).toBe(0);
	});
});

describe("runPipeline", () => {
	it(`works on the first ${MAX_REGIONS_PER_CALL} regions a model returns, leaves the rest as drawn and reports them`, async () => {
		// 300 small labels in a grid, each read as a region.
		const boxes: Box[] = Array.from({ length: 300 }, (_, i) => {
			const x = (i % 20) * 50 + 5;
			const y = Math.floor(i / 20) * 40 + 5;
			return { x0: x, y0: y, x1: x + 40, y1: y + 30 };
		});
		// Two long strokes in each: lettering to erase, but nothing the reading plan counts as glyphs
		// (it would read such a dense page in parts, each answered here with every region).
		const original = page(1000, 600, []);
		for (const b of boxes) {
			for (const y of [b.y0 + 10, b.y0 + 18]) {
				for (let x = b.x0 + 5; x < b.x1 - 5; x++) original.data.set(INK, (y * 1000 + x) * 4);
				for (let x = b.x0 + 5; x < b.x1 - 5; x++) original.data.set(INK, ((y + 1) * 1000 + x) * 4);
			}
		}
		const regions = boxes.map((b, i) => ({
			text: `label ${i}`,
			box: [b.x0, b.y0, b.x1, b.y1].map((v, k) => Math.round((v * 1000) / (k % 2 === 0 ? 1000 : 600))),
			vertical: false,
			translation: "",
		}));
		// grok reads and translates in one call: an OpenAI-style completion carrying the regions.
		const completion = {
			choices: [{ index: 0, message: { role: "assistant", content: JSON.stringify({ regions }) } }],
		};
		vi.spyOn(globalThis, "fetch").mockImplementation(async () => Response.json(completion));
		const ctx = { env: { ...env, ...ALL_KEYS }, signal: new AbortController().signal, timings: {} };

		const result = await runPipeline(jobFor(original, { mode: "general" }), ctx);
		const png = await collect(result.png);
		// A grey page, nothing drawn in colour: a grey PNG, a third of RGB's bytes to encode and send.
		expect(png[25]).toBe(0);
		const out = decodeFile(png);
		const inked = (b: Box) => {
			let n = 0;
			for (let y = b.y0; y < b.y1; y++) for (let x = b.x0; x < b.x1; x++) if (out.data[(y * 1000 + x) * 4]! < 100) n++;
			return n;
		};
		expect(inked(boxes[0]!)).toBe(0);
		expect(inked(boxes[MAX_REGIONS_PER_CALL - 1]!)).toBe(0);
		expect(inked(boxes[MAX_REGIONS_PER_CALL]!)).toBeGreaterThan(50);
		expect(inked(boxes[299]!)).toBeGreaterThan(50);
		expect(result.overflow).toEqual(boxes.slice(MAX_REGIONS_PER_CALL).map((_, i) => MAX_REGIONS_PER_CALL + i));
	});
});
