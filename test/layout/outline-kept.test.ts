import { describe, expect, it } from "vitest";
import type { TranslatedRegion } from "../../src/pipeline/types";
import { layOut } from "../support/lay-out";
import { Page } from "./page";

/**
 * A balloon's outline is art, kept as drawn wherever it runs: where a curved or slanted outline
 * meets the pixel grid, and at the corners where the tail leaves the balloon, nothing of it is
 * taken for lettering and erased.
 */
describe("a balloon's outline after its lettering is erased", () => {
	it("is whole around balloons of every size, the tail's corners included", () => {
		const damaged: string[] = [];
		for (const rx of [60, 65, 70]) {
			for (const ry of [100, 110, 120]) {
				const page = new Page(320, 300, [228, 170, 110, 255]);
				page.balloonWithTail(120, 140, rx, ry, [300, 200]);
				const text = page.write(["HI", "THERE", "WORLD", "NO"], 95, 80, 3, { vertical: true });
				const erased = page.copy();
				const region: TranslatedRegion = {
					id: 0,
					text: "HI THERE WORLD NO",
					box: text.box,
					vertical: true,
					translation: "Salut",
				};
				layOut(erased, [region], "manga");
				expect(page.lettersLeft(erased)).toBe(0);
				if (page.artChanged(erased) > 0) damaged.push(`${rx}x${ry}: ${page.artChanged(erased)} px`);
			}
		}
		expect(damaged).toEqual([]);
	});
});
