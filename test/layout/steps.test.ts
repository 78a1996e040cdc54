import { describe, expect, it } from "vitest";
import { stepsFrom, UNREACHED } from "../../src/pipeline/layout/steps";

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
