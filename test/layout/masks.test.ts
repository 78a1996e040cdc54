import { describe, expect, it } from "vitest";
import { labelComponents } from "../../src/pipeline/layout/components";
import { boundingBox, dilate, fillHoles, inverted, markJoined, without } from "../../src/pipeline/layout/masks";

/** A mask from rows of "#" (set) and "." (unset), with its width and height. */
function mask(...rows: string[]): { bits: Uint8Array; w: number; h: number } {
	const w = rows[0]!.length;
	const bits = Uint8Array.from(rows.join("").split(""), (c) => (c === "#" ? 1 : 0));
	return { bits, w, h: rows.length };
}

function drawn(bits: ArrayLike<number>, w: number): string[] {
	const rows: string[] = [];
	for (let y = 0; y * w < bits.length; y++)
		rows.push(Array.from({ length: w }, (_, x) => (bits[y * w + x] ? "#" : ".")).join(""));
	return rows;
}

describe("masks", () => {
	it("without: what a mask holds that another does not", () => {
		const a = mask("###", "#.#");
		const b = mask(".#.", "..#");
		expect(drawn(without(a.bits, b.bits), 3)).toEqual(["#.#", "#.."]);
	});

	it("inverted: set where the mask is not", () => {
		const a = mask("#..", ".##");
		expect(drawn(inverted(a.bits), 3)).toEqual([".##", "#.."]);
	});

	it("dilate sets every pixel within radius steps each way (a square), clipped at the patch edge", () => {
		const a = mask("#......", ".......", ".......", "....#..", ".....#.");
		expect(drawn(dilate(a.bits, a.w, a.h, 1), a.w)).toEqual(["##.....", "##.....", "...###.", "...####", "...####"]);
		expect(drawn(dilate(a.bits, a.w, a.h, 2), a.w)).toEqual(["###....", "#######", "#######", "..#####", "..#####"]);
		expect(drawn(dilate(a.bits, a.w, a.h, 0), a.w)).toEqual(drawn(a.bits, a.w));
	});

	it("markJoined marks the member pixels 8-connected to a start pixel, and only those", () => {
		const a = mask("##..#", "..#.#", "...#.", "#....");
		const seen = new Uint8Array(a.bits.length);
		const reached: number[] = [];
		markJoined(a.bits, seen, 0, a.w, reached);
		expect(drawn(seen, a.w)).toEqual(["##..#", "..#.#", "...#.", "....."]);
		expect(reached.sort((x, y) => x - y)).toEqual([0, 1, 4, 7, 9, 13]);
	});

	it("boundingBox reads only within the bounds given", () => {
		const a = mask("#....", "..#..", "...#.", ".....");
		expect(boundingBox(a.bits, a.w, a.h)).toEqual({ x0: 0, y0: 0, x1: 4, y1: 3 });
		expect(boundingBox(a.bits, a.w, a.h, { x0: 1, y0: 1, x1: 5, y1: 4 })).toEqual({ x0: 2, y0: 1, x1: 4, y1: 3 });
	});

	it("fillHoles fills what the mask encloses, and only holes up to maxHole pixels when given", () => {
		const ring = () => mask("#######", "#..#..#", "#..#.##", "#######", ".......");
		const all = ring();
		expect(drawn(fillHoles(all.bits, all.w, all.h), all.w)).toEqual([
			"#######",
			"#######",
			"#######",
			"#######",
			".......",
		]);
		const small = ring();
		expect(drawn(fillHoles(small.bits, small.w, small.h, 3), small.w)).toEqual([
			"#######",
			"#..####",
			"#..####",
			"#######",
			".......",
		]);
	});
});

describe("labelComponents", () => {
	const page = mask("##....", "##..#.", "...#..", "......", "#....#");

	it("joins diagonal neighbours 8-connected, not 4-connected", () => {
		expect(labelComponents(page.bits, page.w, page.h, new Int32Array(page.w * page.h))).toHaveLength(4);
		expect(labelComponents(page.bits, page.w, page.h, new Int32Array(page.w * page.h), 4)).toHaveLength(5);
	});

	it("numbers components by their first pixel in raster order, with their box, size and edge contact", () => {
		const labels = new Int32Array(page.w * page.h);
		const components = labelComponents(page.bits, page.w, page.h, labels);
		expect(components).toEqual([
			{ x0: 0, y0: 0, x1: 2, y1: 2, area: 4, touchesEdge: true },
			{ x0: 3, y0: 1, x1: 5, y1: 3, area: 2, touchesEdge: false },
			{ x0: 0, y0: 4, x1: 1, y1: 5, area: 1, touchesEdge: true },
			{ x0: 5, y0: 4, x1: 6, y1: 5, area: 1, touchesEdge: true },
		]);
		expect(Array.from(labels.subarray(0, 12))).toEqual([1, 1, 0, 0, 0, 0, 1, 1, 0, 0, 2, 0]);
		expect(labels[2 * page.w + 3]).toBe(2);
	});

	it("labels a winding component whole: runs that branch into teeth and meet again are one component", () => {
		const comb = mask("#.#.#", "#.#.#", "#####", ".....", "###.#", "#.#.#", "#.###");
		for (const connectivity of [4, 8] as const) {
			const labels = new Int32Array(comb.w * comb.h);
			expect(labelComponents(comb.bits, comb.w, comb.h, labels, connectivity)).toEqual([
				{ x0: 0, y0: 0, x1: 5, y1: 3, area: 11, touchesEdge: true },
				{ x0: 0, y0: 4, x1: 5, y1: 7, area: 11, touchesEdge: true },
			]);
			expect(drawn(labels, comb.w)).toEqual(drawn(comb.bits, comb.w));
			expect(new Set(labels.subarray(0, 3 * comb.w).filter((l) => l > 0))).toEqual(new Set([1]));
			expect(new Set(labels.subarray(4 * comb.w).filter((l) => l > 0))).toEqual(new Set([2]));
		}
	});
});
