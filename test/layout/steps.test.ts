import { describe, expect, it } from "vitest";
import { stepsAcrossInk, stepsFrom, UNREACHED } from "../../src/pipeline/layout/steps";

/** A mask from rows of "#" (set) and "." (unset). */
function mask(...rows: string[]): Uint8Array {
	return Uint8Array.from(rows.join("").split(""), (c) => (c === "#" ? 1 : 0));
}

/** Steps as rows of digits, "-" where unreached. */
function drawn(steps: Uint16Array, w: number): string[] {
	const rows: string[] = [];
	for (let y = 0; y * w < steps.length; y++)
		rows.push(Array.from(steps.subarray(y * w, (y + 1) * w), (s) => (s === UNREACHED ? "-" : String(s))).join(""));
	return rows;
}

describe("stepsFrom", () => {
	const seed = mask("#....", ".....", ".....");
	const passable = mask(".##..", "..#.#", "...#.");

	it("counts chessboard steps from the seeds through passable pixels only, diagonals included", () => {
		expect(drawn(stepsFrom(seed, passable, 5, 3), 5)).toEqual(["012--", "--2-4", "---3-"]);
	});

	it("stops after `reach` steps", () => {
		expect(drawn(stepsFrom(seed, passable, 5, 3, { reach: 2 }), 5)).toEqual(["012--", "--2--", "-----"]);
	});

	it("with fromEdge, walks in from past the patch edge too", () => {
		const none = new Uint8Array(15);
		expect(drawn(stepsFrom(none, passable, 5, 3, { fromEdge: true }), 5)).toEqual(["-11--", "--2-1", "---1-"]);
	});

	it("gives the same steps whether the seeds or the passable pixels are fewer", () => {
		const inside = mask("###..", "###..", "###..");
		const ink = mask("...#.", "...##", "....#");
		expect(drawn(stepsFrom(inside, ink, 5, 3), 5)).toEqual(["0001-", "00012", "000-2"]);
		expect(drawn(stepsFrom(ink, inside, 5, 3), 5)).toEqual(["3210-", "32100", "321-0"]);
	});
});

describe("stepsAcrossInk", () => {
	it("walks through the ink from the inside and from the world beyond as two stepsFrom would", () => {
		// A balloon's inside on the left, its outline three pixels thick with a stroke against it, the world beyond on the right.
		const ink = mask("..###.", ".####.", "..###.", "..####", "..###.");
		const outside = mask("..####", ".#####", "..####", "..####", "..####");
		const inside = Uint8Array.from(outside, (v) => 1 - v);
		const beyond = Uint8Array.from(outside, (v, i) => v & (1 - ink[i]!));
		const { dIn, dOut } = stepsAcrossInk(outside, ink, 6, 5, 2, 3);
		expect(drawn(dIn, 6)).toEqual(drawn(stepsFrom(inside, ink, 6, 5, { reach: 2 }), 6));
		expect(drawn(dOut, 6)).toEqual(drawn(stepsFrom(beyond, ink, 6, 5, { fromEdge: true, reach: 3 }), 6));
		expect(drawn(dIn, 6)).toEqual(["0012--", "0112--", "0012--", "0012--", "0012--"]);
	});
});
