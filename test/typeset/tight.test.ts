import { describe, expect, it } from "vitest";
import type { Box, Overlay } from "../../src/pipeline/types";
import { typesetPage } from "../../src/pipeline/typeset";
import { block, options, planOne } from "./block";

/**
 * Balloons fitted tightly to the lettering: the balloon's inside is the text box itself, so any ink
 * the layout lets past it (a Devanagari matra, a Thai upper vowel, an Arabic dot) lands on the
 * balloon's outline. One-line boxes of every height from 18 to 33 px make the height bind at many
 * fractional sizes.
 */
const TIGHT: [string, string][] = [
	["hi", "एक पल रुको!"],
	["hi", "बहुत बहुत धन्यवाद"],
	["th", "รอสักครู่!"],
	["th", "ขอบคุณมาก"],
	["ar", "انتظر لحظة!"],
	["ar", "إلى أين تذهب؟"],
];
const HEIGHTS = Array.from({ length: 16 }, (_, i) => 18 + i);

/** The rows and columns the overlay's ink covers (alpha over 16, as the benchmark counts it), image px. */
function inkBox(overlay: Overlay): Box {
	const { width, height, data } = overlay.raster;
	const ink = { x0: Number.POSITIVE_INFINITY, y0: Number.POSITIVE_INFINITY, x1: 0, y1: 0 };
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			if ((data[(y * width + x) * 4 + 3] ?? 0) <= 16) continue;
			ink.x0 = Math.min(ink.x0, overlay.x + x);
			ink.y0 = Math.min(ink.y0, overlay.y + y);
			ink.x1 = Math.max(ink.x1, overlay.x + x + 1);
			ink.y1 = Math.max(ink.y1, overlay.y + y + 1);
		}
	}
	return ink;
}

describe("tight balloons", () => {
	for (const [language, text] of TIGHT) {
		it(`${language}: every ink pixel of "${text}" stays inside a box fitted to the text`, async () => {
			for (const rows of HEIGHTS) {
				const box = { x0: 74, y0: 403, x1: 74 + 20 * rows, y1: 403 + rows };
				const inside = new Uint8Array(20 * rows * rows).fill(1);
				const tight = block(text, { kind: "balloon", box, inside }, { sourceSize: rows * 0.8 });
				const { overlays, overflow } = await typesetPage(
					[tight],
					options(language, "general", { width: 720, height: 540 }, "en"),
				);
				expect(overflow).toEqual([]);
				const overlay = overlays[0];
				if (!overlay) throw new Error("nothing drawn");
				const ink = inkBox(overlay);
				expect(ink.x0, `${rows} px box`).toBeGreaterThanOrEqual(box.x0);
				expect(ink.y0, `${rows} px box`).toBeGreaterThanOrEqual(box.y0);
				expect(ink.x1, `${rows} px box`).toBeLessThanOrEqual(box.x1);
				expect(ink.y1, `${rows} px box`).toBeLessThanOrEqual(box.y1);
			}
		});
	}
});

describe("lettering that met the art", () => {
	it("keeps a gap from the container's edge on every side, and no more than it needs where it fits", async () => {
		const panel = { x0: 100, y0: 100, x1: 400, y1: 130 };
		const drawn = await planOne(block("बहुत बहुत धन्यवाद", panel, { align: "right", sourceSize: 26 }), "hi");
		const ink = drawn?.ink;
		if (!ink) throw new Error("nothing drawn");
		const gap = 0.08 * 26;
		expect(ink.x0).toBeGreaterThanOrEqual(panel.x0 + gap);
		expect(ink.y0).toBeGreaterThanOrEqual(panel.y0 + gap);
		expect(ink.x1).toBeLessThanOrEqual(panel.x1 - gap);
		expect(ink.y1).toBeLessThanOrEqual(panel.y1 - gap);
		// Right aligned on a label: the ink ends a small halo from the label's right edge.
		expect(ink.x1).toBeGreaterThan(panel.x1 - 8);
	});
});
