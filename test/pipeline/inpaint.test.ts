import { describe, expect, it } from "vitest";
import { fillByPushPull } from "../../src/pipeline/erase/fill";
import { inpaint } from "../../src/pipeline/erase/inpaint";
import { fillByPatchMatch } from "../../src/pipeline/erase/patch-match";
import type { Background } from "../../src/pipeline/layout/background";
import { grain } from "../../src/pipeline/layout/pattern";
import type { Patch } from "../../src/pipeline/types";

type Rgb = [number, number, number];
const W = 96;
const H = 64;
/** A colour no fixture uses: a hole pixel still this colour was never filled. */
const HOLE: Rgb = [255, 0, 255];

function picture(paint: (x: number, y: number) => Rgb): Uint8Array {
	const data = new Uint8Array(W * H * 4);
	for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) data.set([...paint(x, y), 255], (y * W + x) * 4);
	return data;
}

/** Letter-like strokes: two bars and a crossbar, 3 px thick, well inside the patch. */
function strokes(): Uint8Array {
	const mask = new Uint8Array(W * H);
	for (let y = 18; y < 46; y++) {
		for (let x = 20; x < 76; x++) {
			const bar = (x >= 24 && x < 27) || (x >= 50 && x < 53) || (x >= 68 && x < 71);
			if (bar || (y >= 30 && y < 33 && x < 53)) mask[y * W + x] = 1;
		}
	}
	return mask;
}

/** A solid block, like a caption whose whole box is taken as lettering. */
function block(): Uint8Array {
	const mask = new Uint8Array(W * H);
	for (let y = 22; y < 42; y++) for (let x = 26; x < 70; x++) mask[y * W + x] = 1;
	return mask;
}

/** The truth with the hole painted over, as the fill methods receive it. */
function holed(truth: Uint8Array, mask: Uint8Array): Patch {
	const data = truth.slice();
	for (let i = 0; i < mask.length; i++) if (mask[i]) data.set([...HOLE, 255], i * 4);
	return { box: { x0: 0, y0: 0, x1: W, y1: H }, width: W, height: H, data };
}

const ramp = picture((x, y) => [40 + 2 * x, 200 - 2 * y, 90 + x + y]);
const stripes = picture((x) => (x % 6 < 3 ? [40, 60, 90] : [220, 210, 180]));
const dots = picture((x, y) => (Math.hypot((x % 6) - 2.5, (y % 6) - 2.5) < 1.8 ? [50, 50, 50] : [235, 235, 230]));

const methods = { "push-pull": fillByPushPull, PatchMatch: fillByPatchMatch };

function meanError(a: Uint8Array, b: Uint8Array, mask: Uint8Array): number {
	let sum = 0;
	let n = 0;
	for (let i = 0; i < mask.length; i++) {
		if (!mask[i]) continue;
		for (let c = 0; c < 3; c++) sum += Math.abs(a[i * 4 + c]! - b[i * 4 + c]!);
		n += 3;
	}
	return sum / n;
}

describe.each(Object.entries(methods))("%s", (_name, fill) => {
	it("never changes a pixel outside the mask, and fills every pixel inside it with colours of the picture", () => {
		for (const truth of [ramp, stripes]) {
			const mask = strokes();
			const patch = holed(truth, mask);
			fill(patch, mask);
			for (let i = 0; i < mask.length; i++) {
				const px = Array.from(patch.data.subarray(i * 4, i * 4 + 4));
				if (!mask[i]) expect(px).toEqual(Array.from(truth.subarray(i * 4, i * 4 + 4)));
				else {
					// Within the range the picture spans, channel by channel: no hole colour left, no overshoot.
					expect(px[1]).toBeGreaterThanOrEqual(truth === ramp ? 72 : 60);
					expect(px[0]).toBeLessThan(250);
					expect(px[3]).toBe(255);
				}
			}
		}
	});

	it("continues a gradient across the hole", () => {
		const mask = strokes();
		const patch = holed(ramp, mask);
		fill(patch, mask);
		// Push-pull is exact on a ramp; PatchMatch copies nearby pieces of it, a few levels off.
		expect(meanError(patch.data, ramp, mask)).toBeLessThan(fill === fillByPushPull ? 1 : 6);
	});
});

describe("PatchMatch", () => {
	it("reproduces the period of a pattern over a hole wider than the period", () => {
		const mask = block();
		const patch = holed(stripes, mask);
		fillByPatchMatch(patch, mask);
		// Pixels one period apart agree (the pattern goes on, whatever its phase); a smooth fill would be grey.
		let agree = 0;
		let n = 0;
		let contrast = 0;
		for (let y = 22; y < 42; y++) {
			for (let x = 26; x < 64; x++) {
				const a = patch.data[(y * W + x) * 4]!;
				const b = patch.data[(y * W + x + 6) * 4]!;
				const half = patch.data[(y * W + x + 3) * 4]!;
				if (Math.abs(a - b) <= 12) agree++;
				contrast += Math.abs(a - half);
				n++;
			}
		}
		expect(agree / n).toBeGreaterThan(0.9);
		expect(contrast / n).toBeGreaterThan(120);
	});

	it("copies only from where it is allowed: a hole in a white balloon next to stripes stays white", () => {
		// Stripes left of a dark outline at x 46..48, a white balloon right of it, mostly hole.
		const scene = picture((x) =>
			x < 46 ? (x % 6 < 3 ? [40, 60, 90] : [220, 210, 180]) : x < 48 ? [20, 20, 20] : [250, 250, 250],
		);
		const mask = new Uint8Array(W * H);
		for (let y = 6; y < 58; y++) for (let x = 50; x < 90; x++) mask[y * W + x] = 1;
		const allowed = new Uint8Array(W * H);
		for (let y = 0; y < H; y++) for (let x = 48; x < W; x++) allowed[y * W + x] = mask[y * W + x] ? 0 : 1;
		const patch = holed(scene, mask);
		fillByPatchMatch(patch, mask, allowed);
		expect(meanError(patch.data, scene, mask)).toBeLessThan(1);
	});

	it("gives the same fill every time", () => {
		const mask = block();
		const first = holed(dots, mask);
		const second = holed(dots, mask);
		fillByPatchMatch(first, mask);
		fillByPatchMatch(second, mask);
		expect(first.data).toEqual(second.data);
	});
});

describe("inpaint", () => {
	const flat: Background = {
		kind: "flat",
		planes: [
			[235, 0, 0],
			[235, 0, 0],
			[230, 0, 0],
			[255, 0, 0],
		],
		noise: 0,
	};
	const gradient: Background = {
		kind: "gradient",
		planes: [
			[0, 0, 0],
			[0, 0, 0],
			[0, 0, 0],
			[255, 0, 0],
		],
		noise: 1,
	};

	it("measures grain: none on a ramp, tens on screentone and stripes", () => {
		expect(grain(holed(ramp, strokes()), strokes())).toBeLessThan(2);
		expect(grain(holed(dots, strokes()), strokes())).toBeGreaterThanOrEqual(8);
		expect(grain(holed(stripes, strokes()), strokes())).toBeGreaterThanOrEqual(8);
	});

	it("continues screentone that reads as flat by its dominant colour, instead of painting it over", () => {
		const mask = block();
		const patch = holed(dots, mask);
		inpaint(patch, flat, mask);
		// The dots go on: dark pixels in the hole, about as many as around it.
		let dark = 0;
		let n = 0;
		for (let i = 0; i < mask.length; i++) {
			if (!mask[i]) continue;
			n++;
			if (patch.data[i * 4]! < 140) dark++;
		}
		const share = dark / n;
		expect(share).toBeGreaterThan(0.2);
		expect(share).toBeLessThan(0.45);
		expect(meanError(patch.data, dots, mask)).toBeLessThan(40);
	});

	it("fills a balloon framed tight by its outline with the balloon's colour, not with copies of the outline", () => {
		// Lettering fills the balloon but for a rim; around the outline the rim is grainy, yet it is one mark.
		const outline = (x: number, y: number) =>
			(x >= 2 && x < 4) || (x >= 92 && x < 94) || (y >= 2 && y < 4) || (y >= 60 && y < 62);
		const balloon = picture((x, y) => (outline(x, y) ? [20, 20, 20] : [250, 250, 250]));
		const white: Background = {
			kind: "flat",
			planes: [
				[250, 0, 0],
				[250, 0, 0],
				[250, 0, 0],
				[255, 0, 0],
			],
			noise: 0,
		};
		const mask = new Uint8Array(W * H);
		for (let y = 6; y < 58; y++) for (let x = 6; x < 90; x++) mask[y * W + x] = 1;
		const patch = holed(balloon, mask);
		expect(grain(patch, mask)).toBeGreaterThanOrEqual(8);
		inpaint(patch, white, mask);
		expect(meanError(patch.data, balloon, mask)).toBe(0);
	});

	it("fills a gradient smoothly and exactly", () => {
		const mask = strokes();
		const patch = holed(ramp, mask);
		inpaint(patch, gradient, mask);
		expect(meanError(patch.data, ramp, mask)).toBeLessThan(1);
	});
});
