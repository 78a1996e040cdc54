/**
 * The benchmark's input images, made once from the synthetic corpus and cached in bench/out:
 * a manga page (PNG), a product photo (JPEG), 25 MP images (PNG, JPEG, a noisy photo's JPEG,
 * progressive JPEG, GIF, lossless WebP) and a 3 MP phone photo for the calls that wait together.
 * `encode`: ImageMagick options that turn the synthetic PNG into the case's file.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writePng } from "../corpus/png.mjs";
import { makeSample } from "../corpus/synthetic.mjs";

/** A camera-like JPEG: quality 88, 4:2:0 chroma. */
const CAMERA_JPEG = ["-quality", "88", "-sampling-factor", "2x2"];

export const CASES = [
	{
		name: "manga page 2048×2900 PNG, 15 regions",
		file: "manga.png",
		kind: "manga",
		script: "ja",
		width: 2048,
		height: 2900,
		regions: 15,
	},
	{
		name: "product photo 4000×3000 JPEG, 8 regions",
		file: "photo.jpg",
		encode: CAMERA_JPEG,
		kind: "texture",
		script: "latin",
		width: 4000,
		height: 3000,
		regions: 8,
	},
	{
		name: "5000×5000 PNG (25 MP), 12 regions",
		file: "big.png",
		kind: "manga",
		script: "ko",
		width: 5000,
		height: 5000,
		regions: 12,
	},
	{
		name: "5000×5000 JPEG (25 MP), 12 regions",
		file: "big.jpg",
		encode: CAMERA_JPEG,
		kind: "texture",
		script: "cyrillic",
		width: 5000,
		height: 5000,
		regions: 12,
	},
	{
		// Sensor noise, as in a phone's photo: its PNG is several times a clean page's.
		name: "5000×5000 noisy photo JPEG (25 MP), 12 regions",
		file: "big-noisy.jpg",
		encode: ["-attenuate", "0.6", "+noise", "Gaussian", ...CAMERA_JPEG],
		kind: "texture",
		script: "cyrillic",
		width: 5000,
		height: 5000,
		regions: 12,
	},
	{
		// The same photo as the web serves many: progressive. Its PNG takes the last pass several segments.
		name: "5000×5000 noisy photo progressive JPEG (25 MP), 12 regions",
		file: "big-noisy-progressive.jpg",
		encode: ["-attenuate", "0.6", "+noise", "Gaussian", ...CAMERA_JPEG, "-interlace", "JPEG"],
		kind: "texture",
		script: "cyrillic",
		width: 5000,
		height: 5000,
		regions: 12,
	},
	{
		name: "5000×5000 progressive JPEG (25 MP), 12 regions",
		file: "big-progressive.jpg",
		encode: [...CAMERA_JPEG, "-interlace", "JPEG"],
		kind: "texture",
		script: "cyrillic",
		width: 5000,
		height: 5000,
		regions: 12,
	},
	{
		name: "5000×5000 GIF (25 MP), 12 regions",
		file: "big.gif",
		encode: ["-colors", "256"],
		kind: "manga",
		script: "ko",
		width: 5000,
		height: 5000,
		regions: 12,
	},
	// The kinds whose decoders hold more than a few rows (issue 11), each just under its limit.
	{
		name: "2400×2000 progressive JPEG (4.8 MP), 6 regions",
		file: "limit-progressive.jpg",
		encode: [...CAMERA_JPEG, "-interlace", "JPEG"],
		kind: "texture",
		script: "latin",
		width: 2400,
		height: 2000,
		regions: 6,
	},
	{
		name: "1800×1400 progressive 4:4:4 JPEG (2.5 MP), 6 regions",
		file: "limit-progressive-444.jpg",
		encode: ["-quality", "88", "-sampling-factor", "1x1", "-interlace", "JPEG"],
		kind: "texture",
		script: "latin",
		width: 1800,
		height: 1400,
		regions: 6,
	},
	{
		name: "1800×1600 lossless WebP (2.9 MP), 6 regions",
		file: "limit-2.webp",
		encode: ["-define", "webp:lossless=true"],
		kind: "manga",
		script: "ko",
		width: 1800,
		height: 1600,
		regions: 6,
	},
	{
		name: "1800×1600 interlaced PNG (2.9 MP), 6 regions",
		file: "limit-adam7-2.png",
		encode: ["-interlace", "PNG"],
		kind: "manga",
		script: "ja",
		width: 1800,
		height: 1600,
		regions: 6,
	},
	{
		name: "phone photo held sideways 3000×4000 JPEG turned by EXIF orientation 6 (12 MP), 8 regions",
		file: "phone-turned-12.jpg",
		// Stored a quarter turn back, as a phone held upright stores it.
		encode: [...CAMERA_JPEG, "-rotate", "-90"],
		orientation: 6,
		kind: "texture",
		script: "latin",
		width: 3000,
		height: 4000,
		regions: 8,
	},
	{
		name: "4160×6000 JPEG turned by EXIF orientation 6 (25 MP), 12 regions",
		file: "big-turned.jpg",
		encode: [...CAMERA_JPEG, "-rotate", "-90"],
		orientation: 6,
		kind: "texture",
		script: "latin",
		width: 4160,
		height: 6000,
		regions: 12,
	},
	{
		name: "2800×3400 progressive JPEG turned by EXIF orientation 6 (9.5 MP), 8 regions",
		file: "limit-turned-progressive.jpg",
		encode: [...CAMERA_JPEG, "-interlace", "JPEG", "-rotate", "-90"],
		orientation: 6,
		kind: "texture",
		script: "latin",
		width: 2800,
		height: 3400,
		regions: 8,
	},
	{
		name: "1100×800 CMYK JPEG (0.9 MP), 4 regions",
		file: "limit-cmyk-2.jpg",
		encode: ["-colorspace", "CMYK", "-quality", "88"],
		kind: "texture",
		script: "latin",
		width: 1100,
		height: 800,
		regions: 4,
	},
];

/** Eight of these wait on a slow model at once. */
export const PHONE_PHOTO = {
	name: "phone photo 2000×1500 JPEG, 6 regions",
	file: "phone.jpg",
	encode: CAMERA_JPEG,
	kind: "texture",
	script: "latin",
	width: 2000,
	height: 1500,
	regions: 6,
};

/** Loads fonts, HarfBuzz and resvg before anything is measured: what every warm isolate holds. */
export const WARMUP = {
	name: "warm-up 320×240 PNG, 2 regions",
	file: "warmup.png",
	kind: "flat",
	script: "latin",
	width: 320,
	height: 240,
	regions: 2,
};

const DIR = "bench/out/pixels-inputs";

/**
 * The JPEG with an EXIF orientation (APP1 after SOI), as a phone writes it.
 */
function withOrientation(jpeg, orientation) {
	const tiff = [0x4d, 0x4d, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0, 0, 0, 0, 0];
	const body = [0x45, 0x78, 0x69, 0x66, 0, 0, ...tiff];
	const app1 = [0xff, 0xe1, (body.length + 2) >> 8, (body.length + 2) & 255, ...body];
	return Buffer.concat([jpeg.subarray(0, 2), Buffer.from(app1), jpeg.subarray(2)]);
}
const FORMATS = { png: "png", jpg: "jpeg", gif: "gif", webp: "webp" };

/** { bytes, format, width, height, regions } for a case, generating it the first time. */
export async function input(spec) {
	mkdirSync(DIR, { recursive: true });
	const file = join(DIR, spec.file);
	const meta = `${file}.json`;
	if (!existsSync(file) || !existsSync(meta)) {
		const sample = await makeSample({ ...spec, seed: spec.width + spec.regions, regionCount: spec.regions });
		const png = writePng(sample.image);
		if (!spec.encode) writeFileSync(file, png);
		else execFileSync("convert", ["png:-", ...spec.encode, file], { input: png });
		if (spec.orientation) writeFileSync(file, withOrientation(readFileSync(file), spec.orientation));
		const regions = sample.regions.map(({ id, text, box, vertical }) => ({
			id,
			text,
			box,
			vertical,
			translation: "Translated text",
		}));
		writeFileSync(meta, JSON.stringify(regions));
	}
	return {
		bytes: readFileSync(file),
		format: FORMATS[spec.file.slice(spec.file.lastIndexOf(".") + 1)],
		width: spec.width,
		height: spec.height,
		regions: JSON.parse(readFileSync(meta, "utf8")),
	};
}
