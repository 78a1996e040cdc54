import { JpegEncoder } from "../../src/pipeline/pixels/jpeg-encode";
import * as gifJpeg from "../pipeline/fixtures/gif-jpeg";
import * as images from "../pipeline/fixtures/images";
import { exifSegment } from "../pipeline/hostile/jpeg";

/** A JPEG of our own encoder (4:2:0, MCUs of 16 rows), `width` x `height` of smooth colour with some noise. */
export function encodedJpeg(width: number, height: number): Uint8Array {
	const encoder = new JpegEncoder(width, height, 90);
	const row = new Uint8Array(width * 3);
	let seed = 7;
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			seed = (seed * 1103515245 + 12345) >>> 0;
			row[x * 3] = (x * 255) / width;
			row[x * 3 + 1] = (y * 255) / height;
			row[x * 3 + 2] = (seed >>> 24) & 0xff;
		}
		encoder.addRow(row);
	}
	return encoder.finish();
}

/** The file with an APP1 EXIF segment saying `orientation`, right after SOI. */
export function withOrientation(file: Uint8Array, orientation: number): Uint8Array {
	const app1 = Uint8Array.from(exifSegment(orientation));
	const out = new Uint8Array(file.length + app1.length);
	out.set(file.subarray(0, 2));
	out.set(app1, 2);
	out.set(file.subarray(2), 2 + app1.length);
	return out;
}

function bytes(base64: string): Uint8Array {
	return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

/**
 * A JPEG of every kind our decoder takes, by what sets it apart: chroma subsampling, restart
 * intervals, sizes that are not whole MCUs, progressive and multi-scan sequential files.
 */
export function jpegKinds(): [string, Uint8Array][] {
	return [
		["4:2:0, 37x23", bytes(images.jpeg420_jpg)],
		["4:2:2, 37x23", bytes(images.jpeg422_jpg)],
		["4:4:4, 37x23", bytes(images.jpeg444_jpg)],
		["grey, 37x23", bytes(images.jpeggrey_jpg)],
		["restart every MCU, 37x23", bytes(images.jpegrestart_jpg)],
		["our encoder's 4:2:0, 203x141", encodedJpeg(203, 141)],
		["progressive 4:2:0, 75x53", bytes(gifJpeg.progressive420_jpg)],
		["progressive 4:4:4, 75x53", bytes(gifJpeg.progressive444_jpg)],
		["progressive grey, 75x53", bytes(gifJpeg.progressivegrey_jpg)],
		["progressive with restarts, 75x53", bytes(gifJpeg.progressiverestart_jpg)],
		["progressive, many scans, 75x53", bytes(gifJpeg.progressivescans_jpg)],
		["a scan per component, 75x53", bytes(gifJpeg.sequentialscans_jpg)],
	];
}
