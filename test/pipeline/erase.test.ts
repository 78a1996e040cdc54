import { describe, expect, it } from "vitest";
import type { Box, Raster, TextBlock, TranslatedRegion } from "../../src/pipeline/types";
import type { Mode } from "../../src/request/options";
import { layOut } from "../support/lay-out";

function eraseRegions(image: Raster, regions: TranslatedRegion[], mode: Mode): TextBlock[] {
	return layOut(
		image,
		regions.map((r, id) => ({ ...r, id })),
		mode,
	).blocks;
}

type Colour = [number, number, number, number];

function canvas(width: number, height: number, paint: (x: number, y: number) => Colour): Raster {
	const data = new Uint8Array(width * height * 4);
	for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set(paint(x, y), (y * width + x) * 4);
	return { width, height, data };
}

const at = (r: Raster, x: number, y: number) =>
	Array.from(r.data.subarray((y * r.width + x) * 4, (y * r.width + x) * 4 + 4));
const inBox = (b: Box, x: number, y: number) => x >= b.x0 && x < b.x1 && y >= b.y0 && y < b.y1;

/** Three letter-like strokes (an "H" and an "I") in the given box. */
function glyphs(x: number, y: number): boolean {
	const h = (x >= 20 && x < 23) || (x >= 30 && x < 33) || (y >= 28 && y < 31 && x >= 20 && x < 33);
	const i = x >= 40 && x < 43;
	return y >= 20 && y < 38 && (h || i);
}

function region(box: Box, translation = "Hello"): TranslatedRegion {
	return { id: 0, text: "HI", box, vertical: false, translation };
}

const white: Colour = [255, 255, 255, 255];
const ink: Colour = [20, 30, 40, 255];
const box = { x0: 17, y0: 17, x1: 46, y1: 41 };

describe("eraseRegions", () => {
	it("fills lettering on a flat background with the background colour and measures it", () => {
		const image = canvas(70, 60, (x, y) => (glyphs(x, y) ? ink : white));
		const [erased] = eraseRegions(image, [region(box)], "general");
		for (let y = 0; y < 60; y++) for (let x = 0; x < 70; x++) expect(at(image, x, y)).toEqual(white);
		expect(erased!.textBox).toEqual({ x0: 20, y0: 20, x1: 43, y1: 38 });
		expect(erased!.textColor).toEqual([20, 30, 40]);
		expect(erased!.backgroundColor).toEqual([255, 255, 255]);
	});

	it("erases a region whose translation is empty", () => {
		const image = canvas(70, 60, (x, y) => (glyphs(x, y) ? ink : white));
		eraseRegions(image, [region(box, "")], "manga");
		expect(at(image, 21, 25)).toEqual(white);
	});

	it("changes no pixel farther than the erase margin from the lettering", () => {
		// Grain everywhere (like a photo), so that any stray write would show.
		let seed = 7;
		const noise = () => {
			seed = (seed * 1103515245 + 12345) & 0x7fffffff;
			return 130 + (seed % 50);
		};
		const image = canvas(90, 80, (x, y) => (glyphs(x, y) ? ink : [noise(), noise(), noise(), 255]));
		const before = image.data.slice();
		eraseRegions(image, [region(box)], "general");
		// The glyphs' rim and JPEG ringing: 3 px on texture.
		const near = (x: number, y: number) => {
			for (let dy = -3; dy <= 3; dy++) for (let dx = -3; dx <= 3; dx++) if (glyphs(x + dx, y + dy)) return true;
			return false;
		};
		let changedNear = 0;
		for (let y = 0; y < 80; y++) {
			for (let x = 0; x < 90; x++) {
				const i = (y * 90 + x) * 4;
				const same = image.data.subarray(i, i + 4).every((v, c) => v === before[i + c]);
				if (!near(x, y)) expect(same).toBe(true);
				else if (!same) changedNear++;
			}
		}
		expect(changedNear).toBeGreaterThan(0);
	});

	it("erases outlined lettering on texture, fill and outline both", () => {
		let seed = 3;
		const grain = () => {
			seed = (seed * 1103515245 + 12345) & 0x7fffffff;
			return 90 + (seed % 60);
		};
		// Thick white bars with a dark 2 px outline, on grainy colour.
		const bar = (x: number, y: number) => y >= 22 && y < 36 && ((x >= 20 && x < 27) || (x >= 33 && x < 40));
		const rim = (x: number, y: number) =>
			!bar(x, y) && y >= 20 && y < 38 && ((x >= 18 && x < 29) || (x >= 31 && x < 42));
		const image = canvas(70, 60, (x, y) =>
			bar(x, y) ? [250, 250, 250, 255] : rim(x, y) ? [15, 15, 15, 255] : [grain(), grain() - 40, grain(), 255],
		);
		eraseRegions(image, [region({ x0: 16, y0: 18, x1: 44, y1: 40 })], "e-commerce");
		for (let y = 18; y < 40; y++) {
			for (let x = 16; x < 44; x++) {
				const [r, g, b] = at(image, x, y);
				expect(Math.max(r!, g!, b!)).toBeLessThan(200); // no white left
				expect(Math.max(r!, g!, b!)).toBeGreaterThan(50); // no outline left
			}
		}
	});

	it("inpaints a gradient so that the hole matches its surroundings", () => {
		const ramp = (x: number): Colour => [60 + x * 2, 100, 200 - x, 255];
		const image = canvas(70, 60, (x, y) => (glyphs(x, y) ? ink : ramp(x)));
		eraseRegions(image, [region(box)], "general");
		for (let y = 20; y < 38; y++) {
			for (let x = 20; x < 43; x++) {
				if (!glyphs(x, y)) continue;
				const got = at(image, x, y);
				for (const [c, v] of ramp(x).entries()) expect(Math.abs(got[c]! - v)).toBeLessThanOrEqual(3);
			}
		}
	});

	it("keeps a balloon outline that runs through the padded box", () => {
		// A dark frame 3 px outside the reader's box: inside the padded box, but not lettering.
		const frame = (x: number, y: number) =>
			inBox({ x0: 12, y0: 12, x1: 51, y1: 46 }, x, y) && !inBox({ x0: 14, y0: 14, x1: 49, y1: 44 }, x, y);
		const image = canvas(70, 60, (x, y) => (glyphs(x, y) || frame(x, y) ? ink : white));
		const [block] = eraseRegions(image, [region(box)], "manga");
		// The container the translation is fitted to is the frame's inside, around the text.
		const inside = { x0: 14, y0: 14, x1: 49, y1: 44 };
		expect(block!.container).toMatchObject({ kind: "panel", box: inside });
		expect(block!.textBox).toEqual({ x0: 20, y0: 20, x1: 43, y1: 38 });
		expect(at(image, 12, 30)).toEqual(ink);
		expect(at(image, 30, 45)).toEqual(ink);
		expect(at(image, 31, 25)).toEqual(white);
	});

	it("erases lettering that touches a balloon outline and keeps the outline as drawn", () => {
		// A white balloon with a 3 px dark outline on paper; an "H" overlaps its left side, an "I" its
		// top and an "L" its bottom, so glyphs and outline are one shape.
		const interior = { x0: 20, y0: 20, x1: 70, y1: 45 };
		const outline = (x: number, y: number) => inBox({ x0: 17, y0: 17, x1: 73, y1: 48 }, x, y) && !inBox(interior, x, y);
		const stroke = (x: number, y: number, x0: number, x1: number, y0: number, y1: number) =>
			x >= x0 && x < x1 && y >= y0 && y < y1;
		const letter = (x: number, y: number) =>
			stroke(x, y, 19, 22, 24, 38) ||
			stroke(x, y, 29, 32, 24, 38) ||
			stroke(x, y, 19, 32, 30, 33) ||
			stroke(x, y, 40, 43, 19, 38) ||
			stroke(x, y, 52, 55, 28, 46) ||
			stroke(x, y, 52, 62, 36, 39);
		const paperTone: Colour = [235, 235, 228, 255];
		const outlineInk: Colour = [25, 25, 25, 255];
		const image = canvas(90, 65, (x, y) =>
			letter(x, y) ? ink : outline(x, y) ? outlineInk : inBox(interior, x, y) ? white : paperTone,
		);
		const before = canvas(90, 65, (x, y) => at(image, x, y) as Colour);
		eraseRegions(image, [region({ x0: 17, y0: 18, x1: 62, y1: 47 })], "manga");
		for (let y = 0; y < 65; y++) {
			for (let x = 0; x < 90; x++) {
				if (letter(x, y) && outline(x, y)) expect(Math.max(...at(image, x, y).slice(0, 3))).toBeLessThan(60);
				else if (letter(x, y)) expect(at(image, x, y)).toEqual(white);
				else expect(at(image, x, y)).toEqual(at(before, x, y));
			}
		}
	});

	it("erases lettering in a tight balloon on art, touching its outline on every side", () => {
		let seed = 11;
		const art = (): Colour => {
			seed = (seed * 1103515245 + 12345) & 0x7fffffff;
			const v = 60 + (seed % 140);
			return [v, v, v, 255];
		};
		// Mostly balloon: the art is a narrow ring around it, as in a reader's box with its margin.
		const interior = { x0: 20, y0: 18, x1: 100, y1: 58 };
		const balloon = { x0: 17, y0: 15, x1: 103, y1: 61 };
		const outline = (x: number, y: number) => inBox(balloon, x, y) && !inBox(interior, x, y);
		const stroke = (x: number, y: number, x0: number, x1: number, y0: number, y1: number) =>
			x >= x0 && x < x1 && y >= y0 && y < y1;
		// Strokes run into the outline end on, 2 px deep: top, bottom, left and right.
		const letter = (x: number, y: number) =>
			stroke(x, y, 30, 33, 16, 60) ||
			stroke(x, y, 18, 70, 36, 39) ||
			stroke(x, y, 80, 83, 20, 60) ||
			stroke(x, y, 75, 102, 26, 29);
		const image = canvas(120, 76, (x, y) =>
			letter(x, y) ? ink : outline(x, y) ? [25, 25, 25, 255] : inBox(interior, x, y) ? white : art(),
		);
		const before = canvas(120, 76, (x, y) => at(image, x, y) as Colour);
		eraseRegions(image, [region({ x0: 18, y0: 16, x1: 102, y1: 60 })], "manga");
		for (let y = 0; y < 76; y++) {
			for (let x = 0; x < 120; x++) {
				if (letter(x, y) && outline(x, y)) expect(Math.max(...at(image, x, y).slice(0, 3))).toBeLessThan(60);
				else if (letter(x, y)) expect(at(image, x, y)).toEqual(white);
				else expect(at(image, x, y)).toEqual(at(before, x, y));
			}
		}
	});

	it("fills a tight white balloon on hatched art with white, not with copies of the art", () => {
		// Dense lettering leaves the balloon's white a thin rim: most known pixels of the padded box are
		// hatching (many marks, all grainy), but what surrounds the lettering is the balloon's white.
		const hatching = (x: number, y: number): Colour => ((x + y) % 6 < 2 ? [30, 30, 30, 255] : [200, 200, 200, 255]);
		const interior = { x0: 24, y0: 22, x1: 96, y1: 54 };
		const balloon = { x0: 21, y0: 19, x1: 99, y1: 57 };
		const outline = (x: number, y: number) => inBox(balloon, x, y) && !inBox(interior, x, y);
		// Two lines of "H", "L" and "E" (not repeating by any shift within a few periods), 10×13 px on a
		// 12×14 px grid, two pixels from the outline.
		const letter = (x: number, y: number) => {
			if (!inBox({ x0: 26, y0: 24, x1: 94, y1: 52 }, x, y)) return false;
			const [u, v] = [(x - 26) % 12, (y - 24) % 14];
			const shape = (Math.floor((x - 26) / 12) + Math.floor((y - 24) / 14)) % 3;
			if (v >= 13 || u >= 10) return false;
			if (shape === 0) return u < 3 || u >= 7 || (v >= 5 && v < 8);
			if (shape === 1) return u < 3 || v >= 10;
			return u < 3 || v < 3 || v >= 10 || (v >= 5 && v < 8 && u < 7);
		};
		const image = canvas(120, 76, (x, y) =>
			letter(x, y) ? ink : outline(x, y) ? [25, 25, 25, 255] : inBox(interior, x, y) ? white : hatching(x, y),
		);
		eraseRegions(image, [region({ x0: 24, y0: 22, x1: 96, y1: 54 })], "manga");
		for (let y = interior.y0; y < interior.y1; y++) {
			for (let x = interior.x0; x < interior.x1; x++) expect(at(image, x, y)).toEqual(white);
		}
	});

	const tones: [string, (x: number, y: number) => Colour][] = [
		[
			"screentone dots",
			(x, y) => (Math.hypot((x % 6) - 2.5, (y % 6) - 2.5) < 1.8 ? [50, 50, 50, 255] : [235, 235, 230, 255]),
		],
		["a diagonal line tone", (x, y) => ((x + y) % 8 < 3 ? [40, 40, 40, 255] : [230, 230, 230, 255])],
	];
	it.each(tones)("erases lettering on %s and continues the tone under it, pixel for pixel", (_name, tone) => {
		const image = canvas(70, 60, (x, y) => (glyphs(x, y) ? ink : tone(x, y)));
		const [erased] = eraseRegions(image, [region(box)], "manga");
		for (let y = 0; y < 60; y++) for (let x = 0; x < 70; x++) expect(at(image, x, y)).toEqual(tone(x, y));
		// The text, not the tone's dots or lines, is what was found.
		expect(erased!.textBox).toEqual({ x0: 20, y0: 20, x1: 43, y1: 38 });
	});

	it("keeps transparency: lettering on a transparent background becomes transparent", () => {
		const clear: Colour = [0, 0, 0, 0];
		const image = canvas(70, 60, (x, y) => (glyphs(x, y) ? ink : clear));
		eraseRegions(image, [region(box)], "general");
		expect(at(image, 21, 25)[3]).toBe(0);
	});

	it("leaves the image alone for boxes that are empty, outside it or not numbers", () => {
		const image = canvas(70, 60, (x, y) => (glyphs(x, y) ? ink : white));
		const before = image.data.slice();
		const odd = [
			{ x0: 30, y0: 30, x1: 30, y1: 30 },
			{ x0: 200, y0: 10, x1: 260, y1: 40 },
			{ x0: -50, y0: -50, x1: -10, y1: -10 },
			{ x0: Number.NaN, y0: 0, x1: 10, y1: Number.NaN },
		];
		const blocks = eraseRegions(
			image,
			odd.map((b) => region(b)),
			"general",
		);
		expect(blocks).toEqual([]);
		expect(Array.from(image.data)).toEqual(Array.from(before));
	});

	it("measures but erases nothing in light-novel mode", () => {
		const image = canvas(70, 60, (x, y) => (glyphs(x, y) ? ink : white));
		const before = image.data.slice();
		const [measured] = eraseRegions(image, [region(box)], "light-novel");
		expect(Array.from(image.data)).toEqual(Array.from(before));
		expect(measured!.textBox).toEqual({ x0: 20, y0: 20, x1: 43, y1: 38 });
		// The panel goes in the colour behind the glyphs, not in the glyphs' own.
		expect(measured!.backgroundColor).toEqual(white.slice(0, 3));
	});

	it("tells left-aligned from centred lines", () => {
		const bar = (x: number, y: number, x0: number, x1: number, y0: number) =>
			y >= y0 && y < y0 + 8 && x >= x0 && x < x1;
		const left = canvas(120, 70, (x, y) => (bar(x, y, 20, 100, 20) || bar(x, y, 20, 60, 40) ? ink : white));
		const centred = canvas(120, 70, (x, y) => (bar(x, y, 20, 100, 20) || bar(x, y, 40, 80, 40) ? ink : white));
		const lines = { x0: 16, y0: 16, x1: 104, y1: 52 };
		// Bars are thick and solid, unlike text: only their placement is under test here.
		expect(eraseRegions(left, [region(lines)], "general")[0]!.align).toBe("left");
		expect(eraseRegions(centred, [region(lines)], "general")[0]!.align).toBe("center");
	});
});
