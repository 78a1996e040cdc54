import { PhotonImage } from "@cf-wasm/photon";
import { describe, expect, it } from "vitest";
import { PipelineError } from "../../src/pipeline/errors";
import { ImageDataError } from "../../src/pipeline/pixels/image-error";
import type { Raster } from "../../src/pipeline/types";
import { decodeFile, decodeFileByRows } from "../support/decode";
import * as fx from "./fixtures/webp";

/** Probed and decoded row by row, as a pass of the pipeline does. */
const decodeWebp = (file: Uint8Array): Raster => decodeFileByRows(file);

/** Refused as the client's fault: by the probe (before acceptance) or by the decoder with 422. */
const isRefusal = (error: unknown) =>
	error instanceof ImageDataError || (error instanceof PipelineError && error.status === 422);

function bytes(base64: string): Uint8Array {
	return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

/** dwebp's decode, stored as PNG, read by photon. */
function reference(png: string): Raster {
	const image = PhotonImage.new_from_byteslice(bytes(png));
	const raster = { width: image.get_width(), height: image.get_height(), data: image.get_raw_pixels() };
	image.free();
	return raster;
}

/** The first pixel where the channels picked by `channels` differ by more than `tolerance`. */
function firstDifference(ours: Raster, theirs: Raster, channels = [0, 1, 2, 3], tolerance = 0) {
	expect([ours.width, ours.height]).toEqual([theirs.width, theirs.height]);
	for (let i = 0; i < theirs.data.length; i += 4) {
		for (const c of channels) {
			if (Math.abs(ours.data[i + c]! - theirs.data[i + c]!) > tolerance) {
				const pixel = i / 4;
				const at = { x: pixel % theirs.width, y: Math.floor(pixel / theirs.width) };
				return { ...at, ours: [...ours.data.subarray(i, i + 4)], theirs: [...theirs.data.subarray(i, i + 4)] };
			}
		}
	}
	return undefined;
}

/** `area` of `canvas` as a raster of its own. */
function crop(canvas: Raster, x: number, y: number, width: number, height: number): Raster {
	const data = new Uint8Array(width * height * 4);
	for (let row = 0; row < height; row++) {
		const from = ((y + row) * canvas.width + x) * 4;
		data.set(canvas.data.subarray(from, from + width * 4), row * width * 4);
	}
	return { width, height, data };
}

/** Pixels of `canvas` outside the area that are not transparent black. */
function paintedOutside(canvas: Raster, x: number, y: number, width: number, height: number): number {
	let painted = 0;
	for (let py = 0; py < canvas.height; py++) {
		for (let px = 0; px < canvas.width; px++) {
			if (px >= x && px < x + width && py >= y && py < y + height) continue;
			const at = (py * canvas.width + px) * 4;
			if (canvas.data.subarray(at, at + 4).some((v) => v !== 0)) painted++;
		}
	}
	return painted;
}

/** Payload of the first chunk named `fourcc`, found by walking the RIFF chunks. */
function chunk(file: Uint8Array, fourcc: string, from = 12): { at: number; data: Uint8Array } | undefined {
	const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
	for (let at = from; at + 8 <= file.length; ) {
		const size = view.getUint32(at + 4, true);
		if (String.fromCharCode(...file.subarray(at, at + 4)) === fourcc) {
			return { at, data: file.subarray(at + 8, at + 8 + size) };
		}
		at += 8 + size + (size & 1);
	}
	return undefined;
}

/** A RIFF/WEBP file of these chunks. */
function riff(chunks: [string, Uint8Array][]): Uint8Array {
	const size = 4 + chunks.reduce((sum, [, data]) => sum + 8 + data.length + (data.length & 1), 0);
	const file = new Uint8Array(8 + size);
	const view = new DataView(file.buffer);
	const fourcc = (at: number, name: string) =>
		file.set(
			[...name].map((c) => c.charCodeAt(0)),
			at,
		);
	fourcc(0, "RIFF");
	view.setUint32(4, size, true);
	fourcc(8, "WEBP");
	let at = 12;
	for (const [name, data] of chunks) {
		fourcc(at, name);
		view.setUint32(at + 4, data.length, true);
		file.set(data, at + 8);
		at += 8 + data.length + (data.length & 1);
	}
	return file;
}

/** A simple-format file (RIFF header + one chunk) cut to `length` bytes, its sizes made to agree. */
function cutConsistently(file: Uint8Array, length: number): Uint8Array {
	const cut = file.slice(0, length);
	const view = new DataView(cut.buffer);
	view.setUint32(4, length - 8, true);
	view.setUint32(16, length - 20, true);
	return cut;
}

// Lossy colour comes from the VP8 decoder, whose own tests hold it to dwebp; here it only has to
// land in the right place, so it may differ by rounding.
const LOSSY_TOLERANCE = 3;
const RGB = [0, 1, 2];
const ALPHA = [3];

describe("WebP, lossless", () => {
	const cases = {
		"effort 0 (predictor Select, subtract-green)": [fx.lossless_z0_webp, fx.lossless_z9_png],
		"effort 5": [fx.lossless_z5_webp, fx.lossless_z9_png],
		"effort 9 (13 of the 14 predictors, cross-colour, meta prefix codes)": [fx.lossless_z9_webp, fx.lossless_z9_png],
		"-exact with a colour cache": [fx.lossless_exact_webp, fx.lossless_exact_png],
		"with alpha": [fx.lossless_alpha_webp, fx.lossless_alpha_png],
		"2-colour palette (8 pixels a byte)": [fx.palette2_webp, fx.palette2_png],
		"4-colour palette (4 pixels a byte)": [fx.palette4_webp, fx.palette4_png],
		"12-colour palette (2 pixels a byte)": [fx.palette12_webp, fx.palette12_png],
		"100-colour palette": [fx.palette100_webp, fx.palette100_png],
		"near-lossless": [fx.near_lossless_webp, fx.near_lossless_png],
		"extended (VP8X) with ICC profile and EXIF": [fx.extended_metadata_webp, fx.lossless_alpha_png],
	} as const;
	for (const [name, [webp, png]] of Object.entries(cases)) {
		it(`decodes ${name} exactly as libwebp does`, () => {
			expect(firstDifference(decodeWebp(bytes(webp)), reference(png))).toBeUndefined();
		});
	}

	it("keeps the colour of fully transparent pixels that -exact preserved", () => {
		const { data } = decodeWebp(bytes(fx.lossless_exact_webp));
		const hidden = data.filter((_, i) => i % 4 === 3 && data[i] === 0 && data[i - 3]! + data[i - 2]! > 0);
		expect(hidden.length).toBeGreaterThan(0);
	});

	it("keeps partial alpha", () => {
		const { data } = decodeWebp(bytes(fx.lossless_alpha_webp));
		const alphas = new Set(data.filter((_, i) => i % 4 === 3));
		expect([...alphas].sort((a, b) => a - b)).toEqual([0, 128, 255]);
	});
});

describe("WebP, lossy with an ALPH chunk", () => {
	// A palette stream is decoded after the colour, straight into the A bytes; a predictor
	// stream before it, in the raster's memory. `transform`: the stream's first one.
	const PALETTE = 3;
	const PREDICTOR = 0;
	const cases = {
		"compressed (palette), gradient filter": [fx.alpha_gradient_webp, fx.alpha_gradient_png, 1, 3, PALETTE],
		"compressed (predictor), vertical filter": [fx.alpha_vertical_webp, fx.alpha_vertical_png, 1, 2, PREDICTOR],
		"compressed (palette), horizontal filter, levels reduced": [
			fx.alpha_horizontal_webp,
			fx.alpha_horizontal_png,
			1,
			1,
			PALETTE,
		],
		"raw, unfiltered": [fx.alpha_raw_webp, fx.alpha_gradient_png, 0, 0, undefined],
	} as const;
	for (const [name, [webp, png, compression, filter, transform]] of Object.entries(cases)) {
		it(`applies ${name} alpha exactly as libwebp does`, () => {
			const file = bytes(webp);
			const alph = chunk(file, "ALPH", 30)!.data;
			const header = alph[0]!;
			expect({ compression: header & 3, filter: (header >> 2) & 3 }).toEqual({ compression, filter });
			if (transform !== undefined) expect([alph[1]! & 1, (alph[1]! >> 1) & 3]).toEqual([1, transform]);
			const ours = decodeWebp(file);
			const theirs = reference(png);
			expect(firstDifference(ours, theirs, ALPHA)).toBeUndefined();
			expect(firstDifference(ours, theirs, RGB, LOSSY_TOLERANCE)).toBeUndefined();
		});
	}

	it("marks levels reduced before coding in the horizontal case (decoded as is)", () => {
		const header = chunk(bytes(fx.alpha_horizontal_webp), "ALPH", 30)!.data[0]!;
		expect((header >> 4) & 3).toBe(1);
	});

	it("decodes a simple lossy file as opaque", () => {
		const ours = decodeWebp(bytes(fx.lossy_webp));
		expect(firstDifference(ours, reference(fx.lossy_png), RGB, LOSSY_TOLERANCE)).toBeUndefined();
		expect(ours.data.every((v, i) => i % 4 !== 3 || v === 255)).toBe(true);
	});
});

describe("WebP, animation", () => {
	it("places a lossless first frame at its offset on a transparent canvas", () => {
		const canvas = decodeWebp(bytes(fx.animation_offset_webp));
		expect([canvas.width, canvas.height]).toEqual([64, 48]);
		expect(firstDifference(crop(canvas, 6, 4, 40, 30), reference(fx.frame_small_png))).toBeUndefined();
		expect(paintedOutside(canvas, 6, 4, 40, 30)).toBe(0);
	});

	it("places a lossy first frame with alpha at its offset", () => {
		const canvas = decodeWebp(bytes(fx.animation_lossy_webp));
		expect([canvas.width, canvas.height]).toEqual([74, 56]);
		const frame = crop(canvas, 10, 8, 64, 48);
		const theirs = reference(fx.alpha_vertical_png);
		expect(firstDifference(frame, theirs, ALPHA)).toBeUndefined();
		expect(firstDifference(frame, theirs, RGB, LOSSY_TOLERANCE)).toBeUndefined();
		expect(paintedOutside(canvas, 10, 8, 64, 48)).toBe(0);
	});

	it("decodes a first frame that covers the canvas", () => {
		expect(firstDifference(decodeWebp(bytes(fx.animation_full_webp)), reference(fx.frame_small_png))).toBeUndefined();
	});
});

describe("WebP, broken files", () => {
	const throws = (file: Uint8Array) => {
		let failure: unknown;
		try {
			decodeWebp(file);
		} catch (error) {
			failure = error;
		}
		expect(isRefusal(failure), String(failure)).toBe(true);
	};

	it("refuses a file cut anywhere", () => {
		const file = bytes(fx.palette4_webp);
		for (let length = 0; length < file.length; length++) throws(file.subarray(0, length));
	});

	it("refuses a lossless stream cut anywhere, even when the container sizes agree with the cut", () => {
		for (const webp of [fx.palette4_webp, fx.lossless_z9_webp]) {
			const file = bytes(webp);
			// Up to the end of the VP8L payload: a padding byte after it carries no data.
			const end = 20 + chunk(file, "VP8L")!.data.length;
			const step = Math.ceil(end / 300);
			for (let length = 21; length < end; length += step) throws(cutConsistently(file, length));
			throws(cutConsistently(file, end - 1));
		}
	});

	it("refuses a raw alpha plane shorter than the image", () => {
		const file = bytes(fx.alpha_raw_webp);
		const [vp8x, alph, vp8] = ["VP8X", "ALPH", "VP8 "].map((name) => chunk(file, name)!.data);
		const short = riff([
			["VP8X", vp8x!],
			["ALPH", alph!.subarray(0, alph!.length - 2)],
			["VP8 ", vp8!],
		]);
		expect(
			decodeWebp(
				riff([
					["VP8X", vp8x!],
					["ALPH", alph!],
					["VP8 ", vp8!],
				]),
			).width,
		).toBe(80);
		throws(short);
	});

	const patched = (webp: string, edit: (file: Uint8Array) => void) => {
		const file = bytes(webp).slice();
		edit(file);
		return file;
	};
	const cases = {
		"RIFF that is not WEBP": patched(fx.palette4_webp, (f) => f.set([0x41, 0x56, 0x49, 0x20], 8)),
		"wrong VP8L signature": patched(fx.palette4_webp, (f) => {
			f[20] = 0x2e;
		}),
		"VP8L version 1": patched(fx.palette4_webp, (f) => {
			f[24] = f[24]! | 0x20;
		}),
		"canvas larger than its image": patched(fx.extended_metadata_webp, (f) => {
			f[24] = f[24]! + 1;
		}),
		"animation frame beyond the canvas": patched(fx.animation_offset_webp, (f) => {
			const anmf = chunk(f, "ANMF", 30)!;
			f[anmf.at + 8] = 20; // x offset 40: 40 + 40 > 64
		}),
		"unknown ALPH compression": patched(fx.alpha_gradient_webp, (f) => {
			const alph = chunk(f, "ALPH", 30)!;
			f[alph.at + 8] = (alph.data[0]! & ~3) | 2;
		}),
		"unknown first chunk": patched(fx.palette4_webp, (f) => f.set([0x4a, 0x55, 0x4e, 0x4b], 12)),
	};
	for (const [name, file] of Object.entries(cases)) {
		it(`refuses a ${name}`, () => throws(file));
	}

	it("either refuses or decodes at full size a lossless stream with any single byte scrambled", () => {
		const file = bytes(fx.lossless_z9_webp);
		let refused = 0;
		for (let seed = 1; seed <= 200; seed++) {
			const scrambled = file.slice();
			const at = 21 + ((seed * 7919) % (file.length - 21));
			scrambled[at] = scrambled[at]! ^ (1 + (seed % 255));
			try {
				const raster = decodeWebp(scrambled);
				expect([raster.width, raster.height, raster.data.length]).toEqual([192, 96, 192 * 96 * 4]);
			} catch (error) {
				expect(isRefusal(error), String(error)).toBe(true);
				refused++;
			}
		}
		expect(refused).toBeGreaterThan(0);
	});
});

describe("decodeImage with WebP", () => {
	it("decodes WebP exactly as libwebp does", () => {
		const ours = decodeFile(bytes(fx.lossless_exact_webp));
		expect(firstDifference(ours, reference(fx.lossless_exact_png))).toBeUndefined();
	});

	it("answers 422 on imageBase64 for a lossless stream cut short", () => {
		const file = cutConsistently(bytes(fx.lossless_z9_webp), 2000);
		let failure: unknown;
		try {
			decodeFile(file);
		} catch (error) {
			failure = error;
		}
		expect(failure).toBeInstanceOf(PipelineError);
		expect({ status: (failure as PipelineError).status, detail: (failure as PipelineError).detail }).toEqual({
			status: 422,
			detail: "Invalid field: imageBase64",
		});
	});
});
