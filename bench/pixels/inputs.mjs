/**
 * The benchmark's input images, made once from the synthetic corpus and cached in bench/out:
 * a manga page (PNG), a product photo (JPEG) and 25 MP images (PNG and JPEG).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writePng } from "../corpus/png.mjs";
import { makeSample } from "../corpus/synthetic.mjs";

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
		kind: "texture",
		script: "cyrillic",
		width: 5000,
		height: 5000,
		regions: 12,
	},
];

const DIR = "bench/out/pixels-inputs";

/** { bytes, format, width, height, regions } for a case, generating it the first time. */
export async function input(spec) {
	mkdirSync(DIR, { recursive: true });
	const file = join(DIR, spec.file);
	const meta = `${file}.json`;
	if (!existsSync(file) || !existsSync(meta)) {
		const sample = await makeSample({ ...spec, seed: spec.width + spec.regions, regionCount: spec.regions });
		const png = writePng(sample.image);
		if (spec.file.endsWith(".png")) writeFileSync(file, png);
		// A camera-like JPEG: quality 88, 4:2:0 chroma.
		else execFileSync("convert", ["png:-", "-quality", "88", "-sampling-factor", "2x2", file], { input: png });
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
		format: spec.file.endsWith(".png") ? "png" : "jpeg",
		width: spec.width,
		height: spec.height,
		regions: JSON.parse(readFileSync(meta, "utf8")),
	};
}
