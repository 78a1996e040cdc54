/**
 * After the model, a small image is decoded once and held for passes 2 and 3, packed to the
 * channels its pixels use: the crops and rows it hands out are exactly those a decode gives, from the
 * top or from any row pass 3 takes up at, and a large image is decoded anew instead.
 */
import { describe, expect, it } from "vitest";
import { encodePng } from "../../src/pipeline/encode";
import { type ImageRows, ISOLATE_HOLD_BYTES, imageRows } from "../../src/pipeline/image-rows";
import type { ProbedImage } from "../../src/pipeline/probe";
import type { Box, Raster, RowSink } from "../../src/pipeline/types";
import { decodeFile, probed } from "../support/decode";
import { concat, solidPng } from "../support/png";

/** 97×61 pixels of `kind`: a grey ramp, opaque colours, or colours with every alpha. */
function picture(kind: "grey" | "colour" | "alpha"): Raster {
	const width = 97;
	const height = 61;
	const data = new Uint8Array(width * height * 4);
	for (let i = 0; i < width * height; i++) {
		const v = (i * 7) & 255;
		const rgba =
			kind === "grey" ? [v, v, v, 255] : [v, (i * 13) & 255, (i * 29) & 255, kind === "alpha" ? i & 255 : 255];
		data.set(rgba, i * 4);
	}
	return { width, height, data };
}

/** The crops handed to pass 2, each with a copy of its pixels, in the order they came. */
async function cropsOf(rows: ImageRows, boxes: Box[]): Promise<{ box: Box; data: Uint8Array }[]> {
	const got: { box: Box; data: Uint8Array }[] = [];
	await rows.crops(
		boxes.map((box) => ({ box })),
		(crop, pixels) => got.push({ box: crop.box, data: pixels.data.slice() }),
	);
	return got;
}

/** The pixels of `box` in a whole decoded image. */
function pixelsOf(whole: Raster, box: Box): Uint8Array {
	const width = box.x1 - box.x0;
	const out = new Uint8Array(width * (box.y1 - box.y0) * 4);
	for (let y = box.y0; y < box.y1; y++) {
		out.set(
			whole.data.subarray((y * whole.width + box.x0) * 4, (y * whole.width + box.x1) * 4),
			(y - box.y0) * width * 4,
		);
	}
	return out;
}

/** Crops at every alignment, overlapping, two ending on one row, listed out of order. */
const BOXES: Box[] = [
	{ x0: 40, y0: 20, x1: 60, y1: 30 },
	{ x0: 10, y0: 35, x1: 45, y1: 61 },
	{ x0: 1, y0: 0, x1: 4, y1: 30 },
	{ x0: 0, y0: 5, x1: 97, y1: 40 },
	{ x0: 93, y0: 59, x1: 97, y1: 61 },
];
/** BOXES by their last rows, as rows top to bottom complete them; among equals, by first row. */
const BY_LAST_ROW = [BOXES[2], BOXES[0], BOXES[3], BOXES[1], BOXES[4]];

/** The rows handed to a sink from `from` on, gathered into a raster (rows before `from` skipped). */
function gather(width: number, height: number, from: number, read: (sink: RowSink) => void): Uint8Array {
	const data = new Uint8Array(width * height * 4);
	read({
		rows(y, count, rgba) {
			for (let r = Math.max(0, from - y); r < count; r++) {
				data.set(rgba.subarray(r * width * 4, (r + 1) * width * 4), (y + r) * width * 4);
			}
		},
	});
	return data.subarray(from * width * 4);
}

const KINDS = [
	{ kind: "grey", channels: 1 },
	{ kind: "colour", channels: 3 },
	{ kind: "alpha", channels: 4 },
] as const;

describe.each(KINDS)("a small $kind image held after the model", ({ kind, channels }) => {
	const file = concat(encodePng(picture(kind)));
	const whole = decodeFile(file);

	it("hands pass 3 every row exactly as decoded, from the top and from any row", async () => {
		const rows = imageRows(probed(file), channels);
		await cropsOf(rows, BOXES);
		const read = rows.resumable();
		for (const from of [0, 1, 30, 60]) {
			const expected = whole.data.subarray(from * 97 * 4);
			expect(
				Buffer.compare(
					gather(97, 61, from, (sink) => read(sink, from)),
					expected,
				),
			).toBe(0);
		}
		rows.release();
	});

	it("hands pass 2 each crop's pixels exactly as decoded, in the order of their last rows", async () => {
		for (const rows of [imageRows(probed(file), channels), imageRows(probed(file), channels, 0)]) {
			const got = await cropsOf(rows, BOXES);
			expect(got.map((crop) => crop.box)).toEqual(BY_LAST_ROW);
			for (const { box, data } of got) expect(Buffer.compare(data, pixelsOf(whole, box))).toBe(0);
			rows.release();
		}
	});

	it("decodes it once, for pass 2: pass 3 reads what is held, not the file", async () => {
		const image = probed(file.slice());
		const rows = imageRows(image, channels);
		await cropsOf(rows, BOXES);
		image.bytes.fill(0);
		expect(
			Buffer.compare(
				gather(97, 61, 0, (sink) => rows.resumable()(sink, 0)),
				whole.data,
			),
		).toBe(0);
		rows.release();
	});
});

describe("an image whose pixels would pass the budget held", () => {
	const file = concat(encodePng(picture("colour")));
	const whole = decodeFile(file);

	it("is decoded for each pass, from the file", async () => {
		const image = probed(file.slice());
		const rows = imageRows(image, 3, 97 * 61 * 3);
		const [crop] = await cropsOf(rows, [{ x0: 0, y0: 0, x1: 97, y1: 61 }]);
		expect(Buffer.compare(crop!.data, whole.data)).toBe(0);
		const from20 = gather(97, 61, 20, (sink) => rows.resumable()(sink, 20));
		expect(Buffer.compare(from20, whole.data.subarray(20 * 97 * 4))).toBe(0);
		image.bytes.fill(0);
		expect(() => rows.resumable()({ rows: () => {} }, 0)).toThrow();
		rows.release();
	});
});

/** Whether `image`'s rows are held: pass 3 still reads them once its file is spoilt after pass 2. */
async function heldAfterPass2(image: ProbedImage, channels: 1 | 3 | 4): Promise<{ held: boolean; release(): void }> {
	const rows = imageRows(image, channels);
	await cropsOf(rows, BOXES);
	const bytes = image.bytes.slice();
	image.bytes.fill(0);
	let held = true;
	try {
		rows.resumable()({ rows: () => {} }, 0);
	} catch {
		held = false;
	}
	image.bytes.set(bytes);
	return { held, release: () => rows.release() };
}

describe("the isolate's room for held images", () => {
	it("holds a second call's image only once the first's is let go", async () => {
		// Grey pages of 9 MP: each fits a call's budget, two do not fit the isolate's room.
		const side = Math.ceil(Math.sqrt(ISOLATE_HOLD_BYTES * 0.55));
		const page = await solidPng(side, side, [90, 90, 90, 255]);
		const first = await heldAfterPass2(probed(page), 1);
		expect(first.held).toBe(true);
		const second = await heldAfterPass2(probed(page), 1);
		expect(second.held).toBe(false);
		second.release();
		first.release();
		const third = await heldAfterPass2(probed(page), 1);
		expect(third.held).toBe(true);
		third.release();
	});
});
