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
