import { describe, expect, it } from "vitest";
import { blockSvg, MAX_BLOCKS, MAX_OVERLAY_PIXELS, typesetPage } from "../../src/pipeline/typeset";
import { cleanTranslation, MAX_TEXT_LENGTH } from "../../src/pipeline/typeset/sanitize";
import { block, box, options, planOne } from "./block";

const ALLOWED_TAGS = new Set(["svg", "rect", "defs", "path", "g", "use"]);
const ALLOWED_ATTRIBUTES = new Set([
	"xmlns",
	"width",
	"height",
	"viewBox",
	"x",
	"y",
	"rx",
	"fill",
	"fill-opacity",
	"stroke",
	"stroke-width",
	"stroke-linejoin",
	"id",
	"d",
	"href",
	"transform",
]);

/** Every tag and attribute of the SVG is one we write, and every reference points inside it. */
function expectOnlyOurMarkup(svg: string): void {
	for (const [, tag] of svg.matchAll(/<\/?([^\s>/]+)/g)) expect(ALLOWED_TAGS.has(tag ?? "")).toBe(true);
	for (const [, name, value] of svg.matchAll(/\s([^\s=<>]+)="([^"]*)"/g)) {
		expect(ALLOWED_ATTRIBUTES.has(name ?? ""), name).toBe(true);
		if (name === "href") expect(value).toMatch(/^#g\d+$/);
		if (name === "d") expect(value).toMatch(/^[MLQCZ0-9 .-]*$/);
		if (name === "xmlns") expect(value).toBe("http://www.w3.org/2000/svg");
	}
	expect(svg.match(/https?:/g)?.length).toBe(1);
}

describe("safe SVG", () => {
	it("draws markup-looking translations as glyphs, never as markup", async () => {
		const hostile = `</svg><script>alert(1)</script><image href="https://evil.example/x.png"/><text>&amp;"'</text>`;
		for (const mode of ["general", "manga", "e-commerce", "light-novel"] as const) {
			const drawn = await planOne(block(hostile, box(10, 10, 400, 200)), "en", mode);
			const svg = drawn ? blockSvg(drawn) : "";
			expect(svg.length).toBeGreaterThan(0);
			expectOnlyOurMarkup(svg);
			expect(svg).not.toContain("script");
			expect(svg).not.toContain("evil");
		}
	});

	it("drops control characters and bidi overrides before layout", () => {
		expect(cleanTranslation("a\u0000b\u0007c\u202ede\u202c\u2066f\u2069\ufeff")).toEqual(["abcdef"]);
		expect(cleanTranslation("one\r\ntwo\u2028three\n\n\n")).toEqual(["one", "two", "three"]);
		expect(cleanTranslation("\u0000\u0001  \t ")).toEqual([]);
		expect(cleanTranslation("broken \ud800 surrogate")).toEqual(["broken surrogate"]);
	});

	it("bounds very long translations", async () => {
		const long = "word ".repeat(40_000);
		const cleaned = cleanTranslation(long);
		expect(cleaned.join("").length).toBeLessThanOrEqual(MAX_TEXT_LENGTH);
		expect(cleaned.join("").endsWith("…")).toBe(true);
		const drawn = await planOne(block(long, box(0, 0, 300, 200)), "en");
		expect(drawn?.overflowed).toBe(true);
		expect(drawn?.glyphs.length).toBeLessThanOrEqual(MAX_TEXT_LENGTH);
		const lines = "x\n".repeat(5000);
		expect(cleanTranslation(lines).length).toBeLessThanOrEqual(30);
	});

	it("draws nothing, and reports no overflow, for text no face has", async () => {
		const { overlays, overflow } = await typesetPage([block("😀🎉", box(0, 0, 200, 60))], options("en"));
		expect(overlays).toEqual([]);
		expect(overflow).toEqual([]);
		const mixed = await planOne(block("Yay 🎉", box(0, 0, 200, 60)), "en");
		expect(mixed?.glyphs.length).toBe(3);
	});

	it("ignores empty, inverted and non-finite boxes without throwing", async () => {
		for (const b of [box(10, 10, 0, 50), box(10, 10, -40, 50), { x0: Number.NaN, y0: 0, x1: 10, y1: 10 }]) {
			expect(await planOne(block("Hello", b), "en")).toBeUndefined();
			expect(await planOne(block("Hello", { kind: "balloon", box: b }, { textBox: b }), "en")).toBeUndefined();
		}
	});

	it("typesets at most MAX_BLOCKS blocks and reports the rest", async () => {
		const blocks = Array.from({ length: MAX_BLOCKS + 25 }, (_, id) => ({
			...block("ok", box((id % 50) * 20, Math.floor(id / 50) * 20, 18, 18), { sourceSize: 14 }),
			id,
			regionIds: [id],
		}));
		const result = await typesetPage(blocks, options("en", "general", { width: 1000, height: 1100 }, "ja"));
		expect(result.overlays.length).toBeLessThanOrEqual(MAX_BLOCKS);
		expect(result.overflow).toEqual(expect.arrayContaining([MAX_BLOCKS, MAX_BLOCKS + 24]));
		for (const overlay of result.overlays) {
			expect(overlay.raster.width * overlay.raster.height * 4).toBe(overlay.raster.data.length);
			expect(overlay.raster.width).toBeLessThanOrEqual(40);
		}
	});

	it("bounds each overlay's pixels, for huge regions and long text alike", async () => {
		const huge = box(50, 50, 3000, 2400);
		const long = "A long page of text that goes on and on. ".repeat(20);
		for (const [mode, text, treatment] of [
			["light-novel", "Short line", "replace"],
			["general", long, "replace"],
			["general", "Short line", "cover"],
		] as const) {
			const b = block(text, huge, { text: "x", sourceSize: 340, treatment });
			const { overlays } = await typesetPage([b], options("en", mode, { width: 3200, height: 2600 }, "en"));
			expect(overlays.length).toBe(1);
			for (const o of overlays) expect(o.raster.width * o.raster.height, mode).toBeLessThanOrEqual(MAX_OVERLAY_PIXELS);
		}
	});
});
