import { describe, expect, it } from "vitest";
import { bodyOf } from "../../src/pipeline/layout/body";
import type { Box } from "../../src/pipeline/types";

/**
 * A balloon's inside as bodyOf is given it: an ellipse (centre, radii) and, optionally, a tail: a
 * triangle from a root on the ellipse's rim, `root` px wide, to a tip. The mask's box is the shape's.
 */
function balloon(
	cx: number,
	cy: number,
	rx: number,
	ry: number,
	tail?: { root: number; tip: [number, number] },
): { box: Box; inside: Uint8Array; area: number; inEllipse: (x: number, y: number) => boolean } {
	const inEllipse = (x: number, y: number) => ((x + 0.5 - cx) / rx) ** 2 + ((y + 0.5 - cy) / ry) ** 2 <= 1;
	const inTail = (x: number, y: number) => {
		if (!tail) return false;
		// The triangle between the tip and two points of the root, on the ellipse's top.
		const [tx, ty] = tail.tip;
		const a: [number, number] = [cx - tail.root / 2, cy - ry + 2];
		const b: [number, number] = [cx + tail.root / 2, cy - ry + 2];
		const side = (p: [number, number], q: [number, number]) =>
			(q[0] - p[0]) * (y + 0.5 - p[1]) - (q[1] - p[1]) * (x + 0.5 - p[0]);
		const s1 = side(a, b);
		const s2 = side(b, [tx, ty]);
		const s3 = side([tx, ty], a);
		return (s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0);
	};
	const x0 = Math.floor(Math.min(cx - rx, tail?.tip[0] ?? cx));
	const y0 = Math.floor(Math.min(cy - ry, tail?.tip[1] ?? cy));
	const x1 = Math.ceil(Math.max(cx + rx, tail?.tip[0] ?? cx));
	const y1 = Math.ceil(cy + ry);
	const w = x1 - x0;
	const inside = new Uint8Array(w * (y1 - y0));
	let area = 0;
	for (let y = y0; y < y1; y++)
		for (let x = x0; x < x1; x++)
			if (inEllipse(x, y) || inTail(x, y)) {
				inside[(y - y0) * w + x - x0] = 1;
				area++;
			}
	return { box: { x0, y0, x1, y1 }, inside, area, inEllipse };
}

/** Pixels of the ellipse (image px) the body leaves out. */
function ellipseLeftOut(shape: ReturnType<typeof balloon>, body: { box: Box; inside: Uint8Array }): number {
	const w = body.box.x1 - body.box.x0;
	let out = 0;
	for (let y = shape.box.y0; y < shape.box.y1; y++) {
		for (let x = shape.box.x0; x < shape.box.x1; x++) {
			if (!shape.inEllipse(x, y)) continue;
			const inBox = x >= body.box.x0 && x < body.box.x1 && y >= body.box.y0 && y < body.box.y1;
			if (!inBox || !body.inside[(y - body.box.y0) * w + x - body.box.x0]) out++;
		}
	}
	return out;
}

describe("a balloon's body: the room the translation is set in", () => {
	// Large balloons are looked at half size first; small ones at full size. Both cut the same tail.
	for (const scale of [1, 4]) {
		it(`cuts off a tail, and keeps the whole ellipse (${scale === 1 ? "small, full size" : "large, half size"})`, () => {
			const shape = balloon(100 * scale, 70 * scale, 30 * scale, 18 * scale, {
				root: 10 * scale,
				tip: [120 * scale, 10 * scale],
			});
			const body = bodyOf(shape.box, shape.inside, shape.area);
			// The tail's tip, 42 px (168) above the ellipse's top (y 52), is gone: of the tail, no more
			// stays than its mouth, as deep as half the root is wide.
			expect(body.box.y0).toBeGreaterThanOrEqual((52 - 5) * scale);
			// The ellipse's sides and bottom are where they were.
			expect(body.box.x0).toBe(shape.box.x0);
			expect(body.box.x1).toBe(Math.ceil(130 * scale));
			expect(body.box.y1).toBe(shape.box.y1);
			// Only a sliver of the ellipse goes with the tail, where it leaves the rim.
			expect(ellipseLeftOut(shape, body)).toBeLessThanOrEqual(2 * scale * scale);
		});
	}

	it("gives a balloon without a tail as it is", () => {
		const shape = balloon(200, 140, 120, 70);
		const body = bodyOf(shape.box, shape.inside, shape.area);
		expect(body.box).toEqual(shape.box);
		expect(body.inside).toBe(shape.inside);
	});

	it("keeps the pointed ends of a flat ellipse: they are rim, not limbs", () => {
		const shape = balloon(300, 60, 280, 50);
		const body = bodyOf(shape.box, shape.inside, shape.area);
		expect(body.box).toEqual(shape.box);
	});
});
