/**
 * A page whose reading would take a model more than a few seconds of output is read in parts, in
 * parallel; the amount of lettering is estimated from the pixels before any model is asked.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { readAndTranslate } from "../../src/pipeline/read";
import { gridParts, halves, MAX_PARTS, planReading } from "../../src/pipeline/read-plan";
import { estimateCharacters } from "../../src/pipeline/text-density";
import type { Raster } from "../../src/pipeline/types";
import { imageSize } from "../fakes/vendor.mjs";
import { job, readerImageOf, withFake } from "./helpers";

afterEach(() => vi.restoreAllMocks());

/** A white page with `count` glyph-like marks (20 px, a framed cross) in rows, like lines of small print. */
function lettered(width: number, height: number, count: number): Raster {
	const data = new Uint8Array(width * height * 4).fill(255);
	const ink = (x: number, y: number) => data.fill(10, (y * width + x) * 4, (y * width + x) * 4 + 3);
	let placed = 0;
	for (let y = 40; y + 20 < height && placed < count; y += 34) {
		for (let x = 40; x + 20 < width && placed < count; x += 28, placed++) {
			for (let dy = 0; dy < 20; dy++) {
				for (let dx = 0; dx < 20; dx++) {
					const frame = dx < 3 || dy < 3 || dx > 16 || dy > 16;
					const cross = Math.abs(dx - 10) < 2 || Math.abs(dy - 10) < 2;
					if (frame || cross) ink(x + dx, y + dy);
				}
			}
		}
	}
	return { width, height, data };
}

describe("estimating the lettering", () => {
	it("counts glyph-like marks, and nothing on a blank page or a page of large flat shapes", () => {
		const page = lettered(800, 1000, 120);
		expect(estimateCharacters(page.data, page.width, page.height)).toBeCloseTo(120, -1);
		const blank = lettered(800, 1000, 0);
		expect(estimateCharacters(blank.data, blank.width, blank.height)).toBe(0);
		const shapes = new Uint8Array(800 * 1000 * 4).fill(255);
		for (let y = 100; y < 600; y++) shapes.fill(0, (y * 800 + 100) * 4, (y * 800 + 500) * 4);
		expect(estimateCharacters(shapes, 800, 1000)).toBe(0);
	});
});

describe("planning the parts", () => {
	it("a page with little lettering is one read, asking for lines and colours", () => {
		const plan = planReading({ width: 1000, height: 1500 }, 10, { translate: true, rightToLeft: false });
		expect(plan.parts).toEqual([{ x: 0, y: 0, width: 1000, height: 1500 }]);
		expect(plan.withDetail).toBe(true);
	});

	it("more lettering, more parts, up to the cap, without lines", () => {
		const counts = [50, 150, 350, 5000].map(
			(chars) =>
				planReading({ width: 1000, height: 1500 }, chars, { translate: true, rightToLeft: false }).parts.length,
		);
		expect(counts).toEqual([1, 3, 6, MAX_PARTS]);
		expect(planReading({ width: 1000, height: 1500 }, 400, { translate: true, rightToLeft: false }).withDetail).toBe(
			false,
		);
	});

	it("a read followed by a translation is split finer: the client waits for both", () => {
		const oneCall = planReading({ width: 1000, height: 1500 }, 150, { translate: true, rightToLeft: false });
		const readOnly = planReading({ width: 1000, height: 1500 }, 150, { translate: false, rightToLeft: false });
		expect(readOnly.parts.length).toBeGreaterThan(oneCall.parts.length);
	});

	it("parts cover the page, overlap their neighbours, and go right to left for a Japanese comic", () => {
		const parts = gridParts({ width: 1000, height: 1500 }, 4, true);
		expect(parts).toHaveLength(4);
		// Top row first, its right part first.
		expect(parts[0]!.x).toBeGreaterThan(parts[1]!.x);
		expect(parts[0]!.y).toBe(0);
		expect(parts[2]!.y).toBeGreaterThan(0);
		// Neighbours share a margin, so a balloon cut by one edge is whole in the other part.
		expect(parts[1]!.x + parts[1]!.width).toBeGreaterThan(parts[0]!.x + 50);
		expect(parts[0]!.y + parts[0]!.height).toBeGreaterThan(parts[2]!.y + 50);
		for (const x of [0, 499, 999])
			for (const y of [0, 749, 1499])
				expect(parts.some((p) => x >= p.x && x < p.x + p.width && y >= p.y && y < p.y + p.height)).toBe(true);
	});

	it("a part cut off at the token limit splits in two along its longer side", () => {
		const [a, b] = halves({ x: 100, y: 0, width: 400, height: 900 });
		expect(a).toMatchObject({ x: 100, y: 0, width: 400 });
		expect(b!.y + b!.height).toBe(900);
		expect(a!.height).toBeLessThan(900);
	});
});

describe("reading a dense page", () => {
	it("sends its parts at once, each a crop of the page, and merges what they read", async () => {
		const page = lettered(1000, 1500, 700);
		const { ctx, fake } = withFake({}, { latencyMs: 50 });
		let inFlight = 0;
		let most = 0;
		vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
			most = Math.max(most, ++inFlight);
			try {
				return await fake.fetch(input, init);
			} finally {
				inFlight--;
			}
		});
		const result = await readAndTranslate(await readerImageOf(page), job({ translator: "grok" }), ctx);
		const parts = fake.calls.length;
		expect(parts).toBeGreaterThan(1);
		expect(most).toBe(parts);
		const sizes = fake.calls.map((c) => imageSize(c.body.messages[1].content[1].image_url.url.split(",")[1])!);
		for (const size of sizes) expect(size.width * size.height).toBeLessThan(1000 * 1500);
		expect(sizes.reduce((sum, s) => sum + s.width * s.height, 0)).toBeGreaterThanOrEqual(1000 * 1500);
		expect(result.roundTrips).toBe(1);
		// The fixture answers its three blocks in every part: each placed in its own part of the page.
		expect(result.regions.length).toBeGreaterThan(3);
	});
});
