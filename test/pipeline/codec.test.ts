import { PhotonImage } from "@cf-wasm/photon";
import { describe, expect, it } from "vitest";
import { decodeRows } from "../../src/pipeline/decode";
import { encodePng } from "../../src/pipeline/encode";
import { PipelineError } from "../../src/pipeline/errors";
import { ImageDataError } from "../../src/pipeline/pixels/image-error";
import { applyOrientation, emitOriented } from "../../src/pipeline/pixels/orientation";
import type { Raster } from "../../src/pipeline/types";
import { decodeFile, probed } from "../support/decode";
import { concat } from "../support/png";
import * as gifJpeg from "./fixtures/gif-jpeg";
import * as images from "./fixtures/images";

function bytes(base64: string): Uint8Array {
	return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

/** photon (the image crate) is the reference decoder our own PNG decoder must agree with. */
function reference(file: Uint8Array): Raster {
	const image = PhotonImage.new_from_byteslice(file);
	const raster = { width: image.get_width(), height: image.get_height(), data: image.get_raw_pixels() };
	image.free();
	return raster;
}

const pngs = {
	rgba8: images.rgba8_png,
	rgba16: images.rgba16_png,
	rgb8: images.rgb8_png,
	rgb16: images.rgb16_png,
	grey8: images.grey8_png,
	grey16: images.grey16_png,
	grey1: images.grey1_png,
	greyAlpha8: images.greyalpha8_png,
	palette: images.palette_png,
	palette2bit: images.palette2_png,
	interlaced: images.interlaced_png,
};

/**
 * Luma is never subsampled, so it must agree up to IDCT rounding; colour may differ a little more
 * where chroma is interpolated across MCU rows (ours repeats the last row there).
 */
function expectJpegAgrees(ours: Raster, theirs: Raster, meanLimit: number): void {
	expect([ours.width, ours.height]).toEqual([theirs.width, theirs.height]);
	const luma = (d: Uint8Array, i: number) => 0.299 * d[i]! + 0.587 * d[i + 1]! + 0.114 * d[i + 2]!;
	let worstLuma = 0;
	let total = 0;
	for (let i = 0; i < ours.data.length; i += 4) {
		worstLuma = Math.max(worstLuma, Math.abs(luma(ours.data, i) - luma(theirs.data, i)));
		for (let c = 0; c < 4; c++) total += Math.abs(ours.data[i + c]! - theirs.data[i + c]!);
	}
	expect(worstLuma).toBeLessThanOrEqual(4);
	expect(total / ours.data.length).toBeLessThan(meanLimit);
}

describe("decoding a file", () => {
	for (const [name, base64] of Object.entries(pngs)) {
		it(`decodes a ${name} PNG to the same RGBA as the reference decoder`, async () => {
			const file = bytes(base64);
			const ours = await decodeFile(file);
			const theirs = reference(file);
			expect([ours.width, ours.height]).toEqual([13, 7]);
			expect(Array.from(ours.data)).toEqual(Array.from(theirs.data));
		});
	}

	it("keeps partial alpha", async () => {
		const raster = await decodeFile(bytes(images.rgba8_png));
		const alphas = new Set(Array.from(raster.data.filter((_, i) => i % 4 === 3)));
		expect(alphas).toEqual(new Set([255, 102]));
	});

	const jpegs = {
		"4:2:0": images.jpeg420_jpg,
		"4:2:2": images.jpeg422_jpg,
		"4:4:4": images.jpeg444_jpg,
		grey: images.jpeggrey_jpg,
		"with a restart marker after every block row": images.jpegrestart_jpg,
		progressive: images.jpegprogressive_jpg,
	};
	for (const [name, base64] of Object.entries(jpegs)) {
		it(`decodes a ${name} JPEG like the reference decoder`, async () => {
			const file = bytes(base64);
			const ours = await decodeFile(file);
			const theirs = reference(file);
			expect([ours.width, ours.height]).toEqual([37, 23]);
			expectJpegAgrees(ours, theirs, name === "4:4:4" || name === "grey" || name === "progressive" ? 0.5 : 4);
		});
	}

	const progressive = {
		"4:2:0": [gifJpeg.progressive420_jpg, gifJpeg.progressive420_jpg_ref_png, 4],
		"4:2:2": [gifJpeg.progressive422_jpg, gifJpeg.progressive422_jpg_ref_png, 4],
		"4:4:4": [gifJpeg.progressive444_jpg, gifJpeg.progressive444_jpg_ref_png, 0.5],
		grey: [gifJpeg.progressivegrey_jpg, gifJpeg.progressivegrey_jpg_ref_png, 0.5],
		"4:2:0 whose DC scans are not interleaved": [gifJpeg.progressivescans_jpg, gifJpeg.progressivescans_jpg_ref_png, 4],
		"4:2:0 with a restart marker after every MCU": [
			gifJpeg.progressiverestart_jpg,
			gifJpeg.progressiverestart_jpg_ref_png,
			4,
		],
	} as const;
	it("decodes a sequential JPEG with one scan per component like ImageMagick", async () => {
		const ours = await decodeFile(bytes(gifJpeg.sequentialscans_jpg));
		const theirs = await decodeFile(bytes(gifJpeg.sequentialscans_jpg_ref_png));
		expectJpegAgrees(ours, theirs, 4);
	});

	for (const [name, [file, refPng, meanLimit]] of Object.entries(progressive)) {
		it(`decodes a progressive ${name} JPEG like ImageMagick`, async () => {
			const ours = await decodeFile(bytes(file));
			const theirs = await decodeFile(bytes(refPng));
			expect([ours.width, ours.height]).toEqual([75, 53]);
			expectJpegAgrees(ours, theirs, meanLimit);
		});
	}

	it("turns a JPEG upright by its EXIF orientation", async () => {
		const plain = await decodeFile(bytes(images.plain_jpg));
		const rotated = await decodeFile(bytes(images.rotated_jpg));
		expect([plain.width, plain.height]).toEqual([8, 4]);
		expect([rotated.width, rotated.height]).toEqual([4, 8]);
		// The red left column, turned clockwise, becomes the top row.
		const redAt = (r: Raster, x: number, y: number) => r.data[(y * r.width + x) * 4]! > 200;
		expect(redAt(plain, 0, 2)).toBe(true);
		expect(redAt(rotated, 2, 0)).toBe(true);
		expect(redAt(rotated, 2, 7)).toBe(false);
	});

	it("decodes WebP", async () => {
		const raster = await decodeFile(bytes(images.image_webp));
		expect([raster.width, raster.height]).toEqual([13, 7]);
		expect(raster.data.length).toBe(13 * 7 * 4);
	});

	const gifs = {
		"plain GIF": [gifJpeg.plain_gif, gifJpeg.plain_gif_ref_png, 37, 23],
		"interlaced GIF": [gifJpeg.interlaced_gif, gifJpeg.interlaced_gif_ref_png, 37, 23],
		"GIF with a transparent corner": [gifJpeg.transparent_gif, gifJpeg.transparent_gif_ref_png, 37, 23],
		"GIF of 256-colour noise (full LZW table)": [gifJpeg.noise_gif, gifJpeg.noise_gif_ref_png, 100, 80],
		"GIF whose frame has a local palette and an offset": [
			gifJpeg.local_offset_gif,
			gifJpeg.local_offset_gif_ref_png,
			40,
			30,
		],
		"animated GIF (first frame)": [gifJpeg.animated_gif, gifJpeg.animated_gif_ref_png, 37, 23],
	} as const;
	for (const [name, [file, refPng, width, height]] of Object.entries(gifs)) {
		// Exact: a GIF is a palette, nothing to round. Where alpha is 0 the colour means nothing.
		it(`decodes a ${name} exactly as ImageMagick shows its first frame`, async () => {
			const ours = await decodeFile(bytes(file));
			const theirs = await decodeFile(bytes(refPng));
			expect([ours.width, ours.height]).toEqual([width, height]);
			expect([theirs.width, theirs.height]).toEqual([width, height]);
			let differing = 0;
			for (let i = 0; i < ours.data.length; i += 4) {
				const alpha = ours.data[i + 3]!;
				const same =
					alpha === theirs.data[i + 3]! &&
					(alpha === 0 || ours.data.subarray(i, i + 3).every((v, c) => v === theirs.data[i + c]));
				if (!same) differing++;
			}
			expect(differing).toBe(0);
		});
	}

	it("shows a GIF's transparent index and the screen outside its frame as alpha 0", async () => {
		const transparent = await decodeFile(bytes(gifJpeg.transparent_gif));
		const alphaAt = (r: Raster, x: number, y: number) => r.data[(y * r.width + x) * 4 + 3];
		expect([alphaAt(transparent, 0, 0), alphaAt(transparent, 11, 8), alphaAt(transparent, 12, 8)]).toEqual([0, 0, 255]);
		const offset = await decodeFile(bytes(gifJpeg.local_offset_gif));
		// The 20x12 frame covers x 7..26, y 5..16.
		expect([alphaAt(offset, 6, 5), alphaAt(offset, 7, 5), alphaAt(offset, 26, 16), alphaAt(offset, 27, 16)]).toEqual([
			0, 255, 255, 0,
		]);
	});

	const truncate = (base64: string, keep: number) => bytes(base64).subarray(0, keep);
	const corruptIdat = () => {
		const file = bytes(images.rgb8_png).slice();
		for (let i = 145; i < 200; i++) file[i] = 0x5a; // inside the zlib stream of the IDAT chunk (its data: bytes 138 to 223)
		return file;
	};
	/** The progressive 4:2:0 JPEG with the component id in its second scan header changed to 9. */
	const scanOfUnknownComponent = () => {
		const file = bytes(gifJpeg.progressive420_jpg).slice();
		const sos = (from: number) => file.findIndex((b, i) => i >= from && b === 0xff && file[i + 1] === 0xda);
		const second = sos(sos(0) + 2);
		file[second + 5] = 9; // marker (2), length (2), component count (1), then the first component id
		return file;
	};
	/** The noise GIF with its first LZW codes overwritten by ones: a code beyond the table comes first. */
	const scrambleGif = () => {
		const file = bytes(gifJpeg.noise_gif).slice();
		const descriptor = file.indexOf(0x2c, 13 + 3 * 256);
		// Descriptor (10 bytes), LZW code size, first sub-block's length, then codes.
		file.fill(0xff, descriptor + 12, descriptor + 60);
		return file;
	};
	/** Header, screen and global palette, then the trailer. */
	const gifWithoutImage = () => {
		const file = bytes(gifJpeg.plain_gif);
		const header = 13 + 3 * (2 << (file[10]! & 7));
		return Uint8Array.from([...file.subarray(0, header), 0x3b]);
	};
	/** Who refuses the file: the probe (before the call is accepted), or the decoder with 422 on imageBase64. */
	const refusedBy = (file: Uint8Array): string => {
		let image: ReturnType<typeof probed>;
		try {
			image = probed(file);
		} catch (error) {
			return error instanceof ImageDataError ? "probe" : `probe: ${error}`;
		}
		try {
			decodeRows(image, { rows() {} });
		} catch (error) {
			const ok =
				error instanceof PipelineError && error.status === 422 && error.detail === "Invalid field: imageBase64";
			return ok ? "decoder" : `decoder: ${error}`;
		}
		return "nobody";
	};
	// The container is walked before acceptance; only damage inside compressed data is found later.
	const cases = {
		"PNG cut inside its image data": [truncate(images.rgb8_png, 120), "probe"],
		"PNG cut after its header": [truncate(images.rgb8_png, 33), "probe"],
		"PNG with scrambled image data": [corruptIdat(), "decoder"],
		"JPEG cut in half": [truncate(images.plain_jpg, 200), "probe"],
		"progressive JPEG cut in half": [truncate(gifJpeg.progressive420_jpg, 680), "probe"],
		"progressive JPEG cut before its end marker": [bytes(gifJpeg.progressive420_jpg).slice(0, -2), "probe"],
		"progressive JPEG whose later scan names a component the frame lacks": [scanOfUnknownComponent(), "probe"],
		"WebP cut short": [truncate(images.image_webp, 40), "probe"],
		"GIF cut short in its header": [truncate(images.image_gif, 30), "probe"],
		"GIF cut inside its image data": [truncate(gifJpeg.noise_gif, 6000), "probe"],
		"GIF whose image data is scrambled": [scrambleGif(), "decoder"],
		"GIF with no image": [gifWithoutImage(), "probe"],
	} as const;
	for (const [name, [file, who]] of Object.entries(cases)) {
		it(`refuses a ${name} (${who === "probe" ? "before acceptance" : "with 422 when decoded"})`, () => {
			expect(refusedBy(file)).toBe(who);
		});
	}
});

describe("EXIF orientation", () => {
	// EXIF's definitions: displayed pixel (x, y) of a W×H stored raster (displayed sides swap for 5..8).
	const expected: Record<number, (x: number, y: number, w: number, h: number) => [number, number]> = {
		1: (x, y) => [x, y],
		2: (x, y, w) => [w - 1 - x, y],
		3: (x, y, w, h) => [w - 1 - x, h - 1 - y],
		4: (x, y, _w, h) => [x, h - 1 - y],
		5: (x, y) => [y, x],
		6: (x, y, _w, h) => [y, h - 1 - x],
		7: (x, y, w, h) => [w - 1 - y, h - 1 - x],
		8: (x, y, w) => [w - 1 - y, x],
	};
	for (const [w, h] of [
		[7, 5],
		[1, 6],
		[64, 3],
		[40, 3000],
	] as const) {
		it(`hands out the rows of a ${w}×${h} raster as displayed, for each orientation`, () => {
			for (let orientation = 1; orientation <= 8; orientation++) {
				const original = Uint32Array.from({ length: w * h }, (_, i) => i * 2654435761);
				const stored = { width: w, height: h, data: new Uint8Array(original.slice().buffer) };
				const swapped = orientation >= 5;
				const [sw, sh] = swapped ? [h, w] : [w, h];
				const shown = new Uint32Array(sw * sh);
				let next = 0;
				emitOriented(stored, orientation, {
					rows(y, count, rgba) {
						expect([y, rgba.length]).toEqual([next, count * sw * 4]);
						shown.set(new Uint32Array(rgba.slice().buffer), y * sw);
						next += count;
					},
				});
				expect(next).toBe(sh);
				for (let y = 0; y < sh; y++) {
					for (let x = 0; x < sw; x++) {
						const [sx, sy] = expected[orientation]!(x, y, w, h);
						if (shown[y * sw + x] !== original[sy * w + sx]) {
							expect({ orientation, x, y, pixel: shown[y * sw + x] }).toEqual({
								orientation,
								x,
								y,
								pixel: original[sy * w + sx],
							});
						}
					}
				}
			}
		});
		if (w * h > 1000) continue;
		for (const [how, copyLimit] of [
			["into a new buffer", Number.POSITIVE_INFINITY],
			["in place", 0],
		] as const) {
			it(`turns a ${w}×${h} raster for each EXIF orientation ${how}`, () => {
				for (let orientation = 1; orientation <= 8; orientation++) {
					const original = Uint32Array.from({ length: w * h }, (_, i) => i * 2654435761);
					const stored = new Uint8Array(original.slice().buffer);
					const shown = applyOrientation({ width: w, height: h, data: stored }, orientation, copyLimit);
					const swapped = orientation >= 5;
					expect([shown.width, shown.height]).toEqual(swapped ? [h, w] : [w, h]);
					if (!swapped || copyLimit === 0) expect(shown.data.buffer).toBe(stored.buffer);
					const out = new Uint32Array(shown.data.buffer);
					for (let y = 0; y < shown.height; y++) {
						for (let x = 0; x < shown.width; x++) {
							const [sx, sy] = expected[orientation]!(x, y, w, h);
							expect(out[y * shown.width + x]).toBe(original[sy * w + sx]);
						}
					}
				}
			});
		}
	}
});

describe("encodePng", () => {
	it("round-trips RGBA with alpha kept, at the original size", async () => {
		const original = await decodeFile(bytes(images.rgba8_png));
		const again = decodeFile(concat(encodePng(original)));
		expect([again.width, again.height]).toEqual([13, 7]);
		expect(Array.from(again.data)).toEqual(Array.from(original.data));
	});

	it("writes an opaque raster that any decoder reads back identically", async () => {
		const width = 301;
		const height = 67;
		const data = new Uint8Array(width * height * 4);
		for (let i = 0; i < data.length; i++) data[i] = i % 4 === 3 ? 255 : (i * 7919) % 251;
		const png = concat(encodePng({ width, height, data }));
		const decoded = reference(png);
		expect([decoded.width, decoded.height]).toEqual([width, height]);
		expect(Array.from(decoded.data)).toEqual(Array.from(data));
	});
});
