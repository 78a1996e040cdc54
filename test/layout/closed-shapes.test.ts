import { describe, expect, it } from "vitest";
import { closedShapes } from "../../src/pipeline/layout/container";
import type { Patch } from "../../src/pipeline/types";

const SIZE = 700;
/** The white panel: x and y from MARGIN to SIZE - MARGIN, inside a black page. */
const MARGIN = 50;
const PANEL = SIZE - 2 * MARGIN;

/**
 * A white panel on black, speckled with single black pixels two apart (none on its rim) on every
 * other row of the `speckledRows` about its middle: each such row of the panel's flood breaks into
 * some 300 runs.
 */
function speckledPanel(speckledRows: number): { patch: Patch; specks: number } {
	const data = new Uint8Array(SIZE * SIZE * 4);
	let specks = 0;
	for (let y = 0; y < SIZE; y++) {
		for (let x = 0; x < SIZE; x++) {
			const i = (y * SIZE + x) * 4;
			const inPanel = x >= MARGIN && x < SIZE - MARGIN && y >= MARGIN && y < SIZE - MARGIN;
			const [px, py] = [x - MARGIN, y - MARGIN];
			const speck =
				inPanel &&
				Math.abs(py - PANEL / 2) < speckledRows / 2 &&
				py % 2 === 1 &&
				px % 2 === 1 &&
				px < PANEL - 1 &&
				py < PANEL - 1;
			if (speck) specks++;
			const v = inPanel && !speck ? 255 : 0;
			data.set([v, v, v, 255], i);
		}
	}
	return { patch: { box: { x0: 0, y0: 0, x1: SIZE, y1: SIZE }, width: SIZE, height: SIZE, data }, specks };
}

function shapeOf(patch: Patch) {
	const reader = { x0: MARGIN + 100, y0: MARGIN + 100, x1: SIZE - MARGIN - 100, y1: SIZE - MARGIN - 100 };
	return closedShapes(patch, patch.box, reader, [255, 255, 255, 255], 16);
}

const count = (mask: Uint8Array) => mask.reduce((n, v) => n + v, 0);

describe("closedShapes", () => {
	// A flood keeps its row runs to fill its interior from, up to a cap (a flood through noise has
	// too many to be worth keeping); past it, the interior is read from the flood's labels. The two
	// ways must give the same shape.
	it.each([
		["a few thousand row runs (kept)", 20],
		["some 90,000 row runs (past the cap)", PANEL],
	])("finds the whole panel and its specks as ink, with %s", (_, speckledRows) => {
		const { patch, specks } = speckledPanel(speckledRows);
		const shapes = shapeOf(patch);
		expect(shapes).toHaveLength(1);
		const [shape] = shapes;
		expect(shape!.box).toEqual({ x0: MARGIN, y0: MARGIN, x1: SIZE - MARGIN, y1: SIZE - MARGIN });
		expect(shape!.insideArea).toBe(PANEL * PANEL);
		expect(count(shape!.inside)).toBe(PANEL * PANEL);
		expect(count(shape!.interior)).toBe(PANEL * PANEL - specks);
		expect(shape!.ink).toBe(specks);
	});
});

describe("a panel whose lettering stands on its border", () => {
	// Two lines of glyphs (solid strokes) fitted tight to a white panel: the first hangs from its top
	// border, the second stands on its bottom one, so the panel's paper encloses none of them. A
	// reader's box over the second line alone still meets the panel, and holds its lettering.
	it("is found from a box over the last line only, holding that line", () => {
		const w = 200;
		const h = 120;
		const data = new Uint8Array(w * h * 4).fill(255);
		const ink = (x0: number, y0: number, x1: number, y1: number) => {
			for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) data.set([10, 10, 10, 255], (y * w + x) * 4);
		};
		const inner = { x0: 40, y0: 30, x1: 160, y1: 90 };
		ink(inner.x0 - 3, inner.y0 - 3, inner.x1 + 3, inner.y0);
		ink(inner.x0 - 3, inner.y1, inner.x1 + 3, inner.y1 + 3);
		ink(inner.x0 - 3, inner.y0, inner.x0, inner.y1);
		ink(inner.x1, inner.y0, inner.x1 + 3, inner.y1);
		for (let x = inner.x0 + 6; x + 10 <= inner.x1 - 6; x += 16) {
			ink(x, inner.y0, x + 10, inner.y0 + 24);
			ink(x, inner.y1 - 24, x + 10, inner.y1);
		}
		const crop: Patch = { box: { x0: 0, y0: 0, x1: w, y1: h }, width: w, height: h, data };
		const lastLine = { x0: inner.x0 + 4, y0: inner.y1 - 26, x1: inner.x1 - 4, y1: inner.y1 + 6 };
		const shapes = closedShapes(crop, crop.box, lastLine, [255, 255, 255, 255], 16);
		expect(shapes.map((s) => s.box)).toEqual([inner]);
		expect(shapes[0]!.inkInBox).toBeGreaterThan(0);
	});
});
