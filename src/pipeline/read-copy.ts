/**
 * The copy of the image a reader is sent: sized for what the model actually looks at
 * (a long edge around 1600 px: every vendor scales larger images down anyway), JPEG
 * compressed, cut from the decoded raster without making another full-size copy.
 * Images beyond 3:1 (webtoon strips, banners) are read as overlapping tiles instead,
 * so that their text is not shrunk below legibility.
 */
import { PhotonImage } from "@cf-wasm/photon";
import type { SentImage } from "../models/model-ask";
import type { Raster } from "./types";

/** Opaque RGBA pixels, 4 bytes each, rows top to bottom. */
export interface ScaledPixels {
	pixels: Uint8Array;
	width: number;
	height: number;
}

/** An area of the original image, in its pixels. */
export interface Window {
	x: number;
	y: number;
	width: number;
	height: number;
}

export const READER_LONG_EDGE = 1600;
export const JPEG_QUALITY = 85;
/** Beyond this aspect ratio the image is read in tiles. */
export const MAX_ASPECT = 3;
/** Tiles are at most this many times longer than wide. */
const TILE_ASPECT = 2;
/** Neighbouring tiles share this fraction of the short side, so a balloon cut by one edge is whole in the other tile. */
const TILE_OVERLAP = 0.5;
/** Parallel reads per image; a longer strip gets longer tiles instead of more of them. */
const MAX_TILES = 12;

/** The windows to read: the whole image, or overlapping tiles along its long axis. */
export function readingWindows(width: number, height: number): Window[] {
	const long = Math.max(width, height);
	const short = Math.min(width, height);
	if (long <= MAX_ASPECT * short) return [{ x: 0, y: 0, width, height }];
	const overlap = Math.round(short * TILE_OVERLAP);
	let span = TILE_ASPECT * short;
	let count = Math.ceil((long - overlap) / (span - overlap));
	if (count > MAX_TILES) {
		count = MAX_TILES;
		span = Math.ceil((long + overlap * (count - 1)) / count);
	}
	const step = (long - span) / (count - 1);
	return Array.from({ length: count }, (_, i) => {
		const offset = Math.round(i * step);
		return width >= height ? { x: offset, y: 0, width: span, height } : { x: 0, y: offset, width, height: span };
	});
}

/** The window scaled down (never up) to `longEdge` and encoded as JPEG. */
export function readerCopy(raster: Raster, window: Window, longEdge = READER_LONG_EDGE): SentImage {
	return jpegCopy(downscale(raster, window, longEdge));
}

/** Pixels already scaled (by `downscale`) encoded as the JPEG a reader is sent. */
export function jpegCopy({ pixels, width, height }: ScaledPixels): SentImage {
	const image = new PhotonImage(pixels, width, height);
	try {
		return { mime: "image/jpeg", base64: toBase64(image.get_bytes_jpeg(JPEG_QUALITY)), width, height };
	} finally {
		image.free();
	}
}

/**
 * Area-average (box filter) downscale of one window, composited over white: JPEG has
 * no alpha, and black behind transparent lettering would hide it from the reader.
 * Reads each source pixel once; holds one output row of integer sums at a time.
 */
export function downscale(raster: Raster, window: Window, longEdge: number): ScaledPixels {
	const scale = Math.min(1, longEdge / Math.max(window.width, window.height));
	const width = Math.max(1, Math.round(window.width * scale));
	const height = Math.max(1, Math.round(window.height * scale));
	// Source column -> output channel offset, and how many source columns each output column takes.
	const sumOffset = new Int32Array(window.width);
	const columnWidth = new Uint32Array(width);
	for (let x = 0; x < window.width; x++) {
		const ox = Math.min(width - 1, Math.floor((x * width) / window.width));
		sumOffset[x] = ox * 3;
		columnWidth[ox] = (columnWidth[ox] as number) + 1;
	}
	const pixels = new Uint8Array(width * height * 4);
	const sums = new Uint32Array(width * 3);
	const src = pixelWords(raster.data);
	let sourceRow = 0;
	for (let oy = 0; oy < height; oy++) {
		const rowEnd = oy === height - 1 ? window.height : Math.floor(((oy + 1) * window.height) / height);
		const rows = rowEnd - sourceRow;
		sums.fill(0);
		for (; sourceRow < rowEnd; sourceRow++) {
			let i = (window.y + sourceRow) * raster.width + window.x;
			for (let x = 0; x < window.width; x++, i++) {
				const k = sumOffset[x] as number;
				const p = src[i] as number;
				const a = p >>> 24;
				let r = p & 0xff;
				let g = (p >>> 8) & 0xff;
				let b = (p >>> 16) & 0xff;
				if (a !== 255) {
					// Over white: a transparent pixel reads as paper, not as black.
					const white = 255 * (255 - a) + 127;
					r = ((r * a + white) / 255) | 0;
					g = ((g * a + white) / 255) | 0;
					b = ((b * a + white) / 255) | 0;
				}
				sums[k] = (sums[k] as number) + r;
				sums[k + 1] = (sums[k + 1] as number) + g;
				sums[k + 2] = (sums[k + 2] as number) + b;
			}
		}
		let out = oy * width * 4;
		for (let ox = 0; ox < width; ox++, out += 4) {
			const n = (columnWidth[ox] as number) * rows || 1;
			const k = ox * 3;
			pixels[out] = Math.round((sums[k] as number) / n);
			pixels[out + 1] = Math.round((sums[k + 1] as number) / n);
			pixels[out + 2] = Math.round((sums[k + 2] as number) / n);
			pixels[out + 3] = 255;
		}
	}
	return { pixels, width, height };
}

/**
 * The raster as one 32-bit word per pixel (a third of the time of byte reads): RGBA bytes
 * read as 0xAABBGGRR on little-endian machines, which is all of them. Decoders hand over
 * buffers of their own; a view at an unaligned offset is copied (rare, and small images).
 */
function pixelWords(data: Uint8Array): Uint32Array {
	const aligned = data.byteOffset % 4 === 0 ? data : data.slice();
	return new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.length >> 2);
}

function toBase64(bytes: Uint8Array): string {
	let binary = "";
	for (let i = 0; i < bytes.length; i += 0x8000) {
		binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
	}
	return btoa(binary);
}
