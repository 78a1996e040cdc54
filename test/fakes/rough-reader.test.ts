/**
 * The rough reader (test/fakes/rough.mjs): the fake vendor's setting that answers with boxes as rough
 * as a real vision model's, so that tests and benchmarks see what the pipeline does with them.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { readAndTranslate } from "../../src/pipeline/read";
import { job, raster, readerImageOf, withFake } from "../models/helpers";
import { type RoughBox, roughen } from "./rough.mjs";

afterEach(() => vi.restoreAllMocks());

/** A page of `n` balloons in rows of four, each 60 x 120 with two vertical columns. */
function page(n: number) {
	return Array.from({ length: n }, (_, i) => {
		const x0 = 40 + (i % 4) * 140;
		const y0 = 40 + Math.floor(i / 4) * 220;
		return {
			text: `台詞${i}の一\n台詞${i}の二`,
			translation: `Line ${i} one, line ${i} two`,
			vertical: true,
			box: { x0, y0, x1: x0 + 60, y1: y0 + 120 },
			lines: [
				{ text: `台詞${i}の一`, box: { x0: x0 + 32, y0, x1: x0 + 60, y1: y0 + 120 } },
				{ text: `台詞${i}の二`, box: { x0, y0, x1: x0 + 28, y1: y0 + 100 } },
			],
		};
	});
}

/** The page's extent: ten rows of balloons. */
const bounds = { width: 1000, height: 2400 };
const only = { cut: 0, merge: 0, split: 0, duplicate: 0 };
const size = (b: RoughBox) => [b.x1 - b.x0, b.y1 - b.y0] as const;
const centre = (b: RoughBox) => [(b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2] as const;

describe("the rough reader", () => {
	it("moves each box by up to 12% of its size and scales it by -20% to +30%, every box differently", () => {
		const exact = page(40);
		const rough = roughen(exact, { seed: 5, ...bounds, ...only });
		expect(rough).toHaveLength(exact.length);
		const moved = new Set<string>();
		for (const [i, r] of rough.entries()) {
			const e = (exact[i] as (typeof exact)[number]).box;
			const [w, h] = size(e);
			const [rw, rh] = size(r.box);
			expect(Math.abs(centre(r.box)[0] - centre(e)[0])).toBeLessThanOrEqual(0.12 * w + 1e-9);
			expect(Math.abs(centre(r.box)[1] - centre(e)[1])).toBeLessThanOrEqual(0.12 * h + 1e-9);
			for (const ratio of [rw / w, rh / h]) {
				expect(ratio).toBeGreaterThanOrEqual(0.8 - 1e-9);
				expect(ratio).toBeLessThanOrEqual(1.3 + 1e-9);
			}
			moved.add(`${(centre(r.box)[0] - centre(e)[0]).toFixed(3)},${(rw / w).toFixed(4)}`);
		}
		expect(moved.size).toBe(exact.length);
	});

	it("gives the same boxes for the same seed, and other boxes for another", () => {
		expect(roughen(page(12), { seed: 9, ...bounds })).toEqual(roughen(page(12), { seed: 9, ...bounds }));
		expect(roughen(page(12), { seed: 10, ...bounds })).not.toEqual(roughen(page(12), { seed: 9, ...bounds }));
	});

	it("cuts boxes short so that they hold only some of a vertical balloon's columns", () => {
		const exact = page(20);
		const rough = roughen(exact, { seed: 2, ...bounds, ...only, cut: 1, shift: 0, shrink: 0, grow: 0 });
		for (const [i, r] of rough.entries()) {
			const e = (exact[i] as (typeof exact)[number]).box;
			const kept = (r.box.x1 - r.box.x0) / (e.x1 - e.x0);
			expect(kept).toBeGreaterThanOrEqual(0.4 - 1e-9);
			expect(kept).toBeLessThanOrEqual(0.75 + 1e-9);
			expect([r.box.y0, r.box.y1]).toEqual([e.y0, e.y1]);
			expect(r.text).toBe((exact[i] as (typeof exact)[number]).text);
		}
	});

	it("merges neighbours, splits balloons and repeats regions, keeping each text with its translation", () => {
		const exact = page(40);
		const rough = roughen(exact, { seed: 1, ...bounds });
		const merged = rough.filter((r) => r.text.split("\n").length === 4);
		const halves = rough.filter((r) => r.text.split("\n").length === 1);
		const repeated = rough.filter((r, i) => rough.findIndex((s) => s.text === r.text) !== i);
		expect(merged.length).toBeGreaterThan(0);
		expect(halves.length).toBeGreaterThan(0);
		expect(repeated.length).toBeGreaterThan(0);
		for (const m of merged) {
			const [a, b] = [m.text.split("\n").slice(0, 2).join("\n"), m.text.split("\n").slice(2).join("\n")];
			const [ta, tb] = [exact.find((e) => e.text === a), exact.find((e) => e.text === b)];
			expect(m.translation).toBe(`${ta?.translation} ${tb?.translation}`);
		}
		for (const half of halves) expect(half.translation).toMatch(/^(Line \d+ one,|line \d+ two)$/);
	});

	it("never cuts a one-word translation in two: a real reader's halves are translated apart", () => {
		const signs = page(40).map((r) => ({ ...r, translation: "Exit" }));
		const rough = roughen(signs, { seed: 1, ...bounds, ...only, split: 1 });
		expect(rough).toHaveLength(signs.length);
		for (const r of rough) expect(r.translation).toBe("Exit");
		const japanese = page(40).map((r) => ({ ...r, translation: "出口です" }));
		expect(roughen(japanese, { seed: 1, ...bounds, ...only, split: 1 }).length).toBe(2 * japanese.length);
	});

	it("is a setting of the fake vendor: the read stage gets rough boxes in the contract's units", async () => {
		const exactRead = await readAndTranslate(await readerImageOf(raster(1200, 900)), job(), withFake().ctx);
		vi.restoreAllMocks();
		const { ctx } = withFake({}, { rough: { seed: 4, ...only } });
		const roughRead = await readAndTranslate(await readerImageOf(raster(1200, 900)), job(), ctx);
		expect(roughRead.regions.map((r) => [r.text, r.translation])).toEqual(
			exactRead.regions.map((r) => [r.text, r.translation]),
		);
		for (const [i, r] of roughRead.regions.entries()) {
			const e = exactRead.regions[i]?.box as RoughBox;
			expect(r.box).not.toEqual(e);
			expect(Math.abs(centre(r.box)[0] - centre(e)[0])).toBeLessThanOrEqual(0.12 * size(e)[0] + 2);
			expect(Math.abs(centre(r.box)[1] - centre(e)[1])).toBeLessThanOrEqual(0.12 * size(e)[1] + 2);
		}
	});
});
