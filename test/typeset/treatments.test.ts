import { describe, expect, it } from "vitest";
import type { Overlay } from "../../src/pipeline/types";
import { drawBlock, MAX_OVERLAY_PIXELS, planPage, typesetPage } from "../../src/pipeline/typeset";
import { block, box, options, plan } from "./block";

/** The overlay's pixel at image (x, y), or undefined when the overlay doesn't cover it. */
function pixelAt({ x, y, raster }: Overlay, px: number, py: number): number[] | undefined {
	const i = px - x;
	const j = py - y;
	if (i < 0 || j < 0 || i >= raster.width || j >= raster.height) return undefined;
	const o = (j * raster.width + i) * 4;
	return [...raster.data.subarray(o, o + 4)];
}

const panelColour = [200, 180, 120] as const;

describe("treatments", () => {
	it("keep: a block whose translation is its source draws nothing", async () => {
		const { overlays, overflow } = await typesetPage(
			[block("SONY", box(10, 10, 200, 60), { text: "SONY", treatment: "keep" })],
			options("en"),
		);
		expect(overlays).toEqual([]);
		expect(overflow).toEqual([]);
	});

	it("cover: an opaque panel of the background colour hides all of the lettering, the translation on it", async () => {
		const art = { kind: "free", box: box(100, 100, 300, 120) } as const;
		const lettering = box(150, 130, 120, 40);
		const covered = block("Danger: keep out", art, {
			textBox: lettering,
			treatment: "cover",
			backgroundColor: [...panelColour],
			textColor: [10, 10, 10],
		});
		const { overlays } = await typesetPage([covered], options("en"));
		const overlay = overlays[0];
		if (!overlay) throw new Error("nothing drawn");
		// Every pixel of the lettering's box (and a margin) is covered, opaque: panel colour or text.
		let panel = 0;
		for (let y = lettering.y0 - 2; y < lettering.y1 + 2; y++) {
			for (let x = lettering.x0 - 2; x < lettering.x1 + 2; x++) {
				const p = pixelAt(overlay, x, y);
				expect(p?.[3], `${x},${y}`).toBe(255);
				if (p && p[0] === panelColour[0] && p[1] === panelColour[1] && p[2] === panelColour[2]) panel++;
			}
		}
		expect(panel).toBeGreaterThan(100);
		// And the text is on it: dark pixels inside the overlay.
		let dark = 0;
		for (let k = 0; k < overlay.raster.data.length; k += 4) if ((overlay.raster.data[k] ?? 255) < 60) dark++;
		expect(dark).toBeGreaterThan(50);
	});

	it("cover: stays inside its container, and still hides the lettering when there is no translation", async () => {
		const label = { kind: "panel", box: box(100, 100, 200, 60) } as const;
		const [withText, empty] = await plan(
			[
				block("A translation far too long for the lettering it covers", label, {
					textBox: box(120, 110, 160, 40),
					treatment: "cover",
				}),
				block("", label, { id: 2, regionIds: [2], textBox: box(120, 110, 160, 40), treatment: "cover" }),
			],
			options("en"),
		);
		for (const p of [withText, empty]) {
			expect(p?.area.x0).toBeGreaterThanOrEqual(label.box.x0);
			expect(p?.area.y0).toBeGreaterThanOrEqual(label.box.y0);
			expect(p?.area.x1).toBeLessThanOrEqual(label.box.x1);
			expect(p?.area.y1).toBeLessThanOrEqual(label.box.y1);
			expect(p?.style.panel?.opacity).toBe(1);
		}
		expect(empty?.glyphs).toEqual([]);
		// The lettering's box and 0.15 em of the source (3.6 px) around it, in whole pixels.
		expect(empty?.area).toEqual(box(116, 106, 168, 48));
	});

	it("light-novel: the columns of one vertical block under one panel, the translation set across them", async () => {
		// Four columns of a vertical page, one block.
		const columns = box(200, 100, 160, 400);
		const novel = block("The wind had changed by morning, and with it the mood of the whole village.", columns, {
			vertical: true,
			text: "朝には風が変わり、それとともに村全体の空気も変わっていた。",
			sourceSize: 28,
		});
		const { overlays } = await typesetPage([novel], options("en", "light-novel"));
		expect(overlays.length).toBe(1);
		const overlay = overlays[0] as Overlay;
		// One panel over every column: translucent everywhere over the block's box.
		for (const [x, y] of [
			[columns.x0 + 2, columns.y0 + 2],
			[columns.x1 - 3, columns.y0 + 2],
			[columns.x0 + 2, columns.y1 - 3],
			[columns.x1 - 3, columns.y1 - 3],
		] as const)
			expect(pixelAt(overlay, x, y)?.[3]).toBeGreaterThan(200);
	});
});

describe("the plan and the drawing", () => {
	it("plans the whole page before drawing anything, then draws each block into exactly its planned area", async () => {
		const blocks = [0, 1, 2].map((id) =>
			block(["Hello there!", "Where are you going?", "Wait for me!"][id] ?? "", box(20, 20 + id * 300, 400, 200), {
				id,
				regionIds: [id],
				role: "dialogue",
			}),
		);
		const page = await planPage(blocks, options("en", "manga", { width: 500, height: 1000 }));
		try {
			expect(page.blocks.map((b) => b.blockId)).toEqual([0, 1, 2]);
			// Drawn in any order (the pipeline draws a block when its rows come), each overlay is its area.
			for (const planned of [...page.blocks].reverse()) {
				const overlay = await drawBlock(planned);
				expect({ x: overlay.x, y: overlay.y }).toEqual({ x: planned.area.x0, y: planned.area.y0 });
				expect(overlay.raster.width).toBe(planned.area.x1 - planned.area.x0);
				expect(overlay.raster.height).toBe(planned.area.y1 - planned.area.y0);
				expect(overlay.raster.width * overlay.raster.height).toBeLessThanOrEqual(MAX_OVERLAY_PIXELS);
			}
		} finally {
			page.release();
		}
	});
});
