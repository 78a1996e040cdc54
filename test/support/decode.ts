import { decodeImage, decodeRows } from "../../src/pipeline/decode";
import { type ProbedImage, probeImage } from "../../src/pipeline/probe";
import type { Raster } from "../../src/pipeline/types";
import { admitImage } from "../../src/request/validate";
import * as gifJpeg from "../pipeline/fixtures/gif-jpeg";
import * as images from "../pipeline/fixtures/images";
import * as webp from "../pipeline/fixtures/webp";

/** Every image file among the decoder fixtures (not the reference decodes beside them), by name. */
export function everyFixture(): [string, Uint8Array][] {
	const files = [
		...Object.entries(images).filter(([name]) => !name.startsWith("base") && !name.startsWith("alpha")),
		...Object.entries(gifJpeg).filter(([name]) => !name.endsWith("_ref_png")),
		...Object.entries(webp).filter(([name]) => name.endsWith("_webp")),
	];
	return files.map(([name, base64]) => [name, Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))]);
}

/** The file probed with the service's own limits, as a request's image is. */
export function probed(file: Uint8Array): ProbedImage {
	return probeImage(file, admitImage);
}

/** The file probed and decoded whole, as the service would. */
export function decodeFile(file: Uint8Array): Raster {
	return decodeImage(probed(file));
}

/**
 * The file decoded through `decodeRows`, its rows gathered into a raster, checking the promises of
 * the row sink on the way: rows in order, each once, `count * width * 4` bytes at a time.
 */
export function decodeFileByRows(file: Uint8Array): Raster & { calls: number } {
	const image = probed(file);
	const { width, height } = image;
	const data = new Uint8Array(width * height * 4);
	let next = 0;
	let calls = 0;
	decodeRows(image, {
		rows(y, count, rgba) {
			if (y !== next || count < 1 || rgba.length !== count * width * 4) {
				throw new Error(`rows ${y}+${count} (${rgba.length} bytes) where row ${next} was due`);
			}
			data.set(rgba, y * width * 4);
			next += count;
			calls++;
		},
	});
	if (next !== height) throw new Error(`decodeRows stopped at row ${next} of ${height}`);
	return { width, height, data, calls };
}
