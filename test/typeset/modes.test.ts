import { describe, expect, it } from "vitest";
import type { TextBlock } from "../../src/pipeline/types";
import { type BlockPlan, blockSvg, typesetPage } from "../../src/pipeline/typeset";
import type { Mode } from "../../src/request/options";
import { block, options, planOne } from "./block";

/** One block's plan, and the SVG it is drawn from. */
async function draw(b: TextBlock, language: string, mode: Mode = "general", image = { width: 1000, height: 1000 }) {
	const plan = await planOne(b, language, mode, image);
	if (!plan) throw new Error("nothing planned");
	return { ...plan, svg: blockSvg(plan) };
}
const outline = (plan: BlockPlan) => plan.style.outline;

const box = { x0: 20, y0: 20, x1: 320, y1: 140 };
const text = "Fresh bread every morning";

describe("style per mode", () => {
	it("general: the source colour, no outline, no panel", async () => {
		const svg =
			(await draw(block(text, box, { textColor: [200, 30, 40], backgroundColor: [250, 250, 250] }), "en")).svg ?? "";
		expect(svg).toContain('fill="#c81e28"');
		expect(svg).not.toContain("stroke");
		expect(svg).not.toContain("translate");
		expect(svg).not.toContain("<rect");
	});

	it("manga: an outline in the contrast colour, proportional to the font size", async () => {
		const dark = await draw(block(text, box, { textColor: [10, 10, 10] }), "en", "manga");
		expect(outline(dark)?.color).toEqual([255, 255, 255]);
		expect(dark.svg).toContain('fill="#0a0a0a"');
		const light = await draw(
			block(text, box, { textColor: [250, 250, 250], backgroundColor: [20, 20, 20] }),
			"en",
			"manga",
		);
		expect(outline(light)?.color).toEqual([0, 0, 0]);
		const large = await draw(
			block("Hi!", box, { textColor: [10, 10, 10], text: "やあ", sourceSize: 60 }),
			"en",
			"manga",
		);
		const ratio = (d: typeof dark) => (outline(d)?.radius ?? 0) / d.size;
		expect(large.size > dark.size).toBe(true);
		expect(ratio(large)).toBeCloseTo(ratio(dark), 3);
		// Drawn: the raster has outline-coloured pixels around the dark glyphs, inside the overlay.
		const { overlays } = await typesetPage(
			[block(text, box, { textColor: [10, 10, 10] })],
			options("en", "manga", { width: 400, height: 300 }),
		);
		const data = overlays[0]?.raster.data ?? new Uint8Array();
		let white = 0;
		let black = 0;
		for (let p = 0; p < data.length; p += 4) {
			if ((data[p + 3] ?? 0) < 250) continue;
			if ((data[p] ?? 0) > 240) white++;
			if ((data[p] ?? 255) < 30) black++;
		}
		expect(white).toBeGreaterThan(black * 0.5);
		expect(black).toBeGreaterThan(50);
	});

	it("e-commerce: bold labels stay bold, regular ones are struck once", async () => {
		const colours = { textColor: [255, 255, 255] as const, backgroundColor: [180, 0, 0] as const };
		const bold = await draw(block(text, box, { bold: true, ...colours }), "en", "e-commerce");
		const regular = await draw(block(text, box, { bold: false, ...colours }), "en", "e-commerce");
		const uses = (svg = "") => svg.match(/<use /g)?.length ?? 0;
		expect(uses(bold.svg)).toBe(3 * uses(regular.svg));
		expect(bold.svg).toMatch(/<g transform="translate\(-?[\d.]+ 0\)">/);
		expect(regular.svg).not.toContain("translate");
		for (const d of [bold, regular]) {
			expect(d.svg).toContain('fill="#ffffff"');
			expect(d.svg).not.toContain("stroke");
			expect(outline(d)).toBeUndefined();
		}
	});

	it("light-novel: a translucent panel of the background colour over the source block", async () => {
		const drawing = await draw(block(text, box, { backgroundColor: [240, 230, 200] }), "en", "light-novel");
		expect(drawing.svg).toMatch(/<rect [^>]*fill="#f0e6c8" fill-opacity="0\.9"/);
		expect(drawing.area.x0).toBeLessThanOrEqual(box.x0);
		expect(drawing.area.y0).toBeLessThanOrEqual(box.y0);
	});

	it("falls back to black or white when the source colour would not read on its background", async () => {
		const svg = (await draw(block(text, box, { textColor: [250, 250, 250], backgroundColor: [255, 255, 255] }), "en"))
			.svg;
		expect(svg).toContain('fill="#000000"');
	});
});

describe("overlays", () => {
	it("are straight-alpha RGBA patches of the block's area", async () => {
		const { overlays } = await typesetPage(
			[block(text, box, { backgroundColor: [240, 230, 200] })],
			options("en", "light-novel", { width: 400, height: 300 }),
		);
		const overlay = overlays[0];
		if (!overlay) throw new Error("no overlay");
		const { width, height, data } = overlay.raster;
		expect(data.length).toBe(width * height * 4);
		expect(width).toBeLessThan(400);
		// A pixel of the panel away from the text: the panel colour at 90% opacity, not premultiplied.
		const i = (Math.floor(height / 2) * width + 2) * 4;
		// (premultiplied, it would read about 216, 207, 180)
		for (const [c, want] of [240, 230, 200].entries())
			expect(Math.abs((data[i + c] ?? 0) - want)).toBeLessThanOrEqual(2);
		expect(data[i + 3]).toBeGreaterThan(220);
		expect(data[i + 3]).toBeLessThan(235);
		// Some pixels carry the text colour.
		let dark = 0;
		for (let p = 0; p < data.length; p += 4) if ((data[p] ?? 255) < 60 && (data[p + 3] ?? 0) > 200) dark++;
		expect(dark).toBeGreaterThan(50);
	});

	it("draw the ink where the layout measured it, at any size", async () => {
		// Line boxes chosen so the glyph scales (size / units per em) are not round numbers.
		for (const height of [16, 29, 41, 70]) {
			const b = block("Thank you, Jiggly!", { x0: 10, y0: 10, x1: 400, y1: 10 + height }, { sourceSize: height * 0.8 });
			const drawing = await draw(b, "en", "general", { width: 420, height: 200 });
			const overlay = (await typesetPage([b], options("en", "general", { width: 420, height: 200 }))).overlays[0];
			if (!overlay || !drawing.ink) throw new Error("nothing drawn");
			const { width, height: rows, data } = overlay.raster;
			const ink = { x0: width, y0: rows, x1: 0, y1: 0 };
			for (let y = 0; y < rows; y++) {
				for (let x = 0; x < width; x++) {
					if ((data[(y * width + x) * 4 + 3] ?? 0) < 128) continue;
					ink.x0 = Math.min(ink.x0, x);
					ink.y0 = Math.min(ink.y0, y);
					ink.x1 = Math.max(ink.x1, x + 1);
					ink.y1 = Math.max(ink.y1, y + 1);
				}
			}
			const laid = drawing.ink;
			expect(Math.abs(ink.x1 - ink.x0 - (laid.x1 - laid.x0)), `width at ${drawing.size}px`).toBeLessThanOrEqual(1.5);
			expect(Math.abs(ink.y1 - ink.y0 - (laid.y1 - laid.y0)), `height at ${drawing.size}px`).toBeLessThanOrEqual(1.5);
		}
	});
});
