import { afterEach, describe, expect, it, vi } from "vitest";
import { readAndTranslate } from "../../src/pipeline/read";
import { job, raster, readerImageOf, withFake } from "./helpers";

afterEach(() => vi.restoreAllMocks());

describe("readAndTranslate", () => {
	it("reads and translates in one call when the reader is the requested translator", async () => {
		const { ctx, fake } = withFake();
		const result = await readAndTranslate(await readerImageOf(raster(1200, 900)), job({ translator: "grok" }), ctx);
		expect(result.roundTrips).toBe(1);
		expect(fake.calls).toHaveLength(1);
		expect(fake.calls[0]?.task?.kind).toBe("read-translate");
		expect(result.regions.map((r) => r.id)).toEqual([0, 1, 2]);
		expect(result.regions[0]?.translation).toBe("[en] Hello, world");
		// 0..1000 of the 1200x900 image: [80, 60, 420, 200]
		expect(result.regions[0]?.box).toEqual({ x0: 96, y0: 54, x1: 504, y1: 180 });
		expect(result.regions[1]?.vertical).toBe(true);
		expect(result.regions[0]?.color).toEqual([17, 17, 17]);
		expect(result.regions[0]?.lines).toHaveLength(2);
		expect(ctx.timings.read).toBeTypeOf("number");
	});

	it("lets another vendor read for DeepSeek, which cannot see, and translates in a second call", async () => {
		const { ctx, fake } = withFake();
		const result = await readAndTranslate(await readerImageOf(raster(1200, 900)), job({ translator: "deepseek" }), ctx);
		expect(result.roundTrips).toBe(2);
		expect(fake.calls.map((c) => [c.vendor, c.task?.kind])).toEqual([
			["gemini", "read"],
			["deepseek", "translate"],
		]);
		expect(fake.calls[0]?.body.systemInstruction.parts[0].text).toContain("mostly in Japanese");
		expect(ctx.timings.translate).toBeTypeOf("number");
		expect(result.regions.map((r) => r.translation)).toEqual([
			"[en] Hello, world",
			"[en] Lines set vertically",
			"[en] SALE 50% OFF ¥1,980",
		]);
	});
});
