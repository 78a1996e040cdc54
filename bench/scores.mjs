/**
 * How well lettering was erased, for the erase benchmarks: PSNR over the lettering against the clean
 * plate, and OCR residue (the share of the source's characters tesseract still reads).
 */
import { execFileSync } from "node:child_process";

/** PSNR (RGB) over pixels within 2 px of any text coverage; 99 dB stands for identical pixels. */
export function psnr({ width, height, coverage, plate }, erased) {
	let sum = 0;
	let n = 0;
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			if (!nearText(coverage, width, height, x, y, 2)) continue;
			const i = (y * width + x) * 4;
			for (let c = 0; c < 3; c++) sum += (erased.data[i + c] - plate.data[i + c]) ** 2;
			n += 3;
		}
	}
	const mse = sum / Math.max(1, n);
	return mse === 0 ? 99 : 10 * Math.log10((255 * 255) / mse);
}

export function nearText(coverage, w, h, x, y, r) {
	for (let dy = -r; dy <= r; dy++) {
		for (let dx = -r; dx <= r; dx++) {
			const nx = x + dx;
			const ny = y + dy;
			if (nx >= 0 && ny >= 0 && nx < w && ny < h && coverage[ny * w + nx]) return true;
		}
	}
	return false;
}

/** Text read by tesseract in two page modes (automatic layout, and sparse text), joined. */
export function ocr(file, lang) {
	return ["3", "11"]
		.map((psm) => {
			try {
				const options = { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] };
				return execFileSync("tesseract", [file, "stdout", "-l", lang, "--psm", psm], options);
			} catch {
				return "";
			}
		})
		.join("\n");
}

/** Share of the source's characters (spaces and punctuation aside) found in the OCR text, as a multiset. */
export function shareRead(source, read) {
	const letters = (s) => [...s].filter((c) => /[\p{L}\p{N}]/u.test(c));
	const pool = new Map();
	for (const c of letters(read)) pool.set(c, (pool.get(c) ?? 0) + 1);
	const wanted = letters(source);
	let found = 0;
	for (const c of wanted) {
		const left = pool.get(c) ?? 0;
		if (left > 0) {
			found++;
			pool.set(c, left - 1);
		}
	}
	return found / wanted.length;
}
