import { unsupportedFrame } from "./pixels/jpeg/errors";
import type { ImageFormat } from "./types";

export interface ImageHeader {
	format: ImageFormat;
	/** As displayed: a JPEG rotated by its EXIF orientation reports its rotated size. */
	width: number;
	height: number;
	/**
	 * Set when decoding this file needs more memory than the 4 bytes a pixel of the RGBA raster that
	 * every other image needs: the pixel limit shrinks in proportion (src/request/validate.ts).
	 */
	costlyDecode?: CostlyDecode;
}

export interface CostlyDecode {
	/** Peak bytes per pixel while decoding. */
	bytesPerPixel: number;
	/** What makes it costly, as the client would name the file. */
	what: string;
}

/**
 * Reads format and size from the file header alone, before any pixel is allocated, so that
 * non-images and oversized images are refused before the call is accepted and charged.
 */
export function probeImage(bytes: Uint8Array): ImageHeader | undefined {
	if (isPng(bytes)) return probePng(bytes);
	if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return probeJpeg(bytes);
	if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 4) === "WEBP") return probeWebp(bytes);
	if (ascii(bytes, 0, 6) === "GIF87a" || ascii(bytes, 0, 6) === "GIF89a") return probeGif(bytes);
	return undefined;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function isPng(bytes: Uint8Array): boolean {
	return PNG_SIGNATURE.every((b, i) => bytes[i] === b);
}

function ascii(bytes: Uint8Array, at: number, length: number): string {
	if (bytes.length < at + length) return "";
	return String.fromCharCode(...bytes.subarray(at, at + length));
}

function view(bytes: Uint8Array): DataView {
	return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function sized(format: ImageFormat, width: number, height: number): ImageHeader | undefined {
	return width > 0 && height > 0 ? { format, width, height } : undefined;
}

function probePng(bytes: Uint8Array): ImageHeader | undefined {
	if (bytes.length < 24 || ascii(bytes, 12, 4) !== "IHDR") return undefined;
	const v = view(bytes);
	return sized("png", v.getUint32(16), v.getUint32(20));
}

function probeGif(bytes: Uint8Array): ImageHeader | undefined {
	if (bytes.length < 10) return undefined;
	const v = view(bytes);
	return sized("gif", v.getUint16(6, true), v.getUint16(8, true));
}

function probeWebp(bytes: Uint8Array): ImageHeader | undefined {
	if (bytes.length < 30) return undefined;
	const v = view(bytes);
	const chunk = ascii(bytes, 12, 4);
	if (chunk === "VP8X") {
		const width = 1 + (v.getUint16(24, true) | (bytes[26]! << 16));
		const height = 1 + (v.getUint16(27, true) | (bytes[29]! << 16));
		return sized("webp", width, height);
	}
	if (chunk === "VP8L") {
		if (bytes[20] !== 0x2f) return undefined;
		const bits = v.getUint32(21, true);
		return sized("webp", (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
	}
	if (chunk === "VP8 ") {
		// Key frame start code, then 14-bit width and height.
		if (bytes[23] !== 0x9d || bytes[24] !== 0x01 || bytes[25] !== 0x2a) return undefined;
		return sized("webp", v.getUint16(26, true) & 0x3fff, v.getUint16(28, true) & 0x3fff);
	}
	return undefined;
}

/** Walks JPEG markers to the first SOFn frame header; an EXIF orientation of 5 to 8 swaps the sides. */
function probeJpeg(bytes: Uint8Array): ImageHeader | undefined {
	const v = view(bytes);
	let at = 2;
	let swap = false;
	while (at + 4 <= bytes.length) {
		if (bytes[at] !== 0xff) return undefined;
		const marker = bytes[at + 1]!;
		if (marker === 0xff) {
			at += 1; // fill byte
			continue;
		}
		if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
			at += 2; // markers without a length
			continue;
		}
		const length = v.getUint16(at + 2);
		if (length < 2 || at + 2 + length > bytes.length) return undefined;
		const segment = bytes.subarray(at + 4, at + 2 + length);
		if (marker === 0xe1 && ascii(segment, 0, 4) === "Exif") {
			const orientation = exifOrientation(segment.subarray(6));
			swap = orientation !== undefined && orientation >= 5 && orientation <= 8;
		}
		const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
		if (isFrame) {
			if (segment.length < 5) return undefined;
			const sv = view(segment);
			const height = sv.getUint16(1);
			const width = sv.getUint16(3);
			const header = swap ? sized("jpeg", height, width) : sized("jpeg", width, height);
			const costlyDecode = jpegDecodeCost(marker, segment);
			return header && costlyDecode ? { ...header, costlyDecode } : header;
		}
		if (marker === 0xda || marker === 0xd9) return undefined; // scan data before any frame header
		at += 2 + length;
	}
	return undefined;
}

/**
 * Photon's peak Wasm memory per pixel, measured on 12 and 25 MP JPEG and GIF (168 MB at 12 MP,
 * 349 MB at 25 MP: docs/benchmarks.md): what a JPEG kind our decoder refuses costs.
 */
const PHOTON_BYTES_PER_PIXEL = 14;

/**
 * What decoding a JPEG costs beyond the raster, from its frame header (SOFn marker and segment).
 * Our decoder streams baseline files into the raster and keeps a progressive file's coefficients
 * inside the raster's own buffer (src/pipeline/pixels/jpeg/coefficients.ts): that fits while they
 * take at most 4 bytes a pixel, which full-resolution colour (4:4:4, 6 bytes) does not. Arithmetic
 * coding, lossless, 12-bit and CMYK files go to photon.
 */
function jpegDecodeCost(marker: number, frame: Uint8Array): CostlyDecode | undefined {
	const components = frame[5]!;
	if (unsupportedFrame(marker, frame)) {
		return {
			bytesPerPixel: PHOTON_BYTES_PER_PIXEL,
			what: "a JPEG of this kind (arithmetic, lossless, 12-bit or CMYK)",
		};
	}
	if (marker !== 0xc2 || frame.length < 6 + components * 3) return undefined;
	let hMax = 1;
	let vMax = 1;
	let blocks = 0;
	for (let c = 0; c < components; c++) {
		const h = frame[7 + c * 3]! >> 4;
		const v = frame[7 + c * 3]! & 15;
		hMax = Math.max(hMax, h);
		vMax = Math.max(vMax, v);
		blocks += h * v;
	}
	// 64 Int16 coefficients per block; an MCU covers hMax·vMax blocks' worth of pixels.
	const bytesPerPixel = (2 * blocks) / (hMax * vMax);
	return bytesPerPixel > 4 ? { bytesPerPixel, what: "a progressive JPEG with full-resolution colour" } : undefined;
}

/** The Orientation tag (0x0112) of IFD0 of a TIFF block, if present. */
export function exifOrientation(tiff: Uint8Array): number | undefined {
	if (tiff.length < 8) return undefined;
	const little = tiff[0] === 0x49 && tiff[1] === 0x49;
	if (!little && !(tiff[0] === 0x4d && tiff[1] === 0x4d)) return undefined;
	const v = view(tiff);
	const ifd = v.getUint32(4, little);
	if (ifd + 2 > tiff.length) return undefined;
	const count = v.getUint16(ifd, little);
	for (let i = 0; i < count; i++) {
		const entry = ifd + 2 + i * 12;
		if (entry + 12 > tiff.length) return undefined;
		if (v.getUint16(entry, little) === 0x0112) return v.getUint16(entry + 8, little);
	}
	return undefined;
}
