import { describe, expect, it } from "vitest";
import type { Box, Overlay } from "../../src/pipeline/types";
import { typesetRegions } from "../../src/pipeline/typeset";
import { loadFont } from "./fonts";
import { draw, region } from "./region";

/**
 * Balloons fitted tightly to the lettering: the erased area is the text box itself, so any ink the
 * layout lets past the box (a Devanagari matra, a Thai upper vowel, an Arabic dot) lands on the
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
				const { overlays, overflow } = await typesetRegions([region(text, box)], {
					mode: "general",
					targetLanguage: language,
					sourceLanguage: "en",
					imageWidth: 720,
					imageHeight: 540,
					loadFont,
				});
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
	it("keeps a gap from the sides where nothing was cleaned beyond the text, not from the others", async () => {
		const textBox = { x0: 100, y0: 100, x1: 400, y1: 130 };
		// Cleaned beyond the text on the left and below; flush (a balloon's outline) above and at the right.
		const erasedBox = { x0: 80, y0: 100, x1: 400, y1: 150 };
		const drawing = await draw(region("बहुत बहुत धन्यवाद", textBox, { erasedBox, align: "right" }), "hi");
		const box = drawing.box;
		if (!box || !drawing.fitted) throw new Error("nothing drawn");
		const ink = drawing.fitted.ink;
		expect(box.y0 + ink.y0).toBeGreaterThanOrEqual(textBox.y0 + 1);
		expect(box.x0 + ink.x1).toBeLessThanOrEqual(textBox.x1 - 1);
		// On the open sides the box stands: right-aligned text still reaches within a pixel of the gap.
		expect(box.x0 + ink.x1).toBeGreaterThan(textBox.x1 - 4);
	});
});
