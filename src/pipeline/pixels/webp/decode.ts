import type { Raster } from "../../types";
import { decodeWithAlpha } from "./alpha";
import { WebpFormatError } from "./errors";
import { decodeVp8l, decodeVp8lInto, vp8lSize } from "./lossless/decode";
import { type Chunk, chunksIn, uint24, webpChunks } from "./riff";
import { decodeVp8 } from "./vp8/decode";

/** VP8X flag bits (RFC 9649 section 2.7). */
const ANIMATION = 0x02;

/**
 * Decodes a WebP file (RFC 9649) into one straight RGBA raster: simple lossy, simple lossless,
 * or extended (VP8X) with alpha and metadata. Of an animation, the first frame, placed at its
 * offset on a transparent canvas. Broken or truncated data throws an Error.
 */
export function decodeWebp(bytes: Uint8Array): Raster {
	const chunks = webpChunks(bytes);
	const first = chunks[0];
	if (first?.fourcc === "VP8X") return decodeExtended(first.data, chunks.slice(1));
	if (first?.fourcc === "VP8L" || first?.fourcc === "VP8 ") return decodeStill(chunks);
	throw new WebpFormatError("WebP file has no image chunk first");
}

function decodeExtended(header: Uint8Array, chunks: Chunk[]): Raster {
	if (header.length < 10) throw new WebpFormatError("VP8X chunk is truncated");
	const width = uint24(header, 4) + 1;
	const height = uint24(header, 7) + 1;
	if ((header[0]! & ANIMATION) !== 0) return decodeFirstFrame(width, height, chunks);
	const image = decodeStill(chunks);
	if (image.width !== width || image.height !== height) throw new WebpFormatError("WebP canvas and image differ");
	return image;
}

/** A still image: a VP8L chunk, or a VP8 chunk with the ALPH chunk before it, if any. */
function decodeStill(chunks: Chunk[]): Raster {
	const frame = frameOf(chunks);
	if (frame.lossless) return decodeVp8l(frame.lossless);
	const { width, height } = vp8Size(frame.lossy);
	const raster = { width, height, data: new Uint8Array(width * height * 4) };
	decodeLossy(frame.lossy, frame.alpha, raster, 0, 0);
	return raster;
}

/** The first ANMF frame, drawn onto a transparent canvas (over which it blends to itself). */
function decodeFirstFrame(width: number, height: number, chunks: Chunk[]): Raster {
	const anmf = chunks.find((c) => c.fourcc === "ANMF")?.data;
	if (!anmf || anmf.length < 16) throw new WebpFormatError("animated WebP has no frame");
	const x = 2 * uint24(anmf, 0);
	const y = 2 * uint24(anmf, 3);
	const frameWidth = uint24(anmf, 6) + 1;
	const frameHeight = uint24(anmf, 9) + 1;
	if (x + frameWidth > width || y + frameHeight > height) throw new WebpFormatError("WebP frame outside the canvas");
	const frame = frameOf(chunksIn(anmf.subarray(16)));
	const size = frame.lossless ? vp8lSize(frame.lossless) : vp8Size(frame.lossy);
	if (size.width !== frameWidth || size.height !== frameHeight) throw new WebpFormatError("WebP frame size differs");

	const fillsCanvas = frameWidth === width && frameHeight === height;
	if (fillsCanvas) return decodeStill(chunksIn(anmf.subarray(16)));
	const canvas = { width, height, data: new Uint8Array(width * height * 4) };
	if (frame.lossy) {
		decodeLossy(frame.lossy, frame.alpha, canvas, x, y);
	} else {
		decodeVp8lInto(frame.lossless, canvas.data);
		spreadRows(canvas, frameWidth, frameHeight, x, y);
	}
	return canvas;
}

/**
 * Moves a frame decoded as packed rows at the start of the canvas's memory to (x, y), and makes
 * the rest transparent: a frame costs no memory of its own. Each row moves forward (never onto
 * rows still to move) when taken from the last to the first.
 */
function spreadRows(canvas: Raster, frameWidth: number, frameHeight: number, x: number, y: number): void {
	const rowBytes = frameWidth * 4;
	let clearTo = canvas.data.length;
	for (let row = frameHeight - 1; row >= 0; row--) {
		const to = ((y + row) * canvas.width + x) * 4;
		canvas.data.copyWithin(to, row * rowBytes, (row + 1) * rowBytes);
		canvas.data.fill(0, to + rowBytes, clearTo);
		clearTo = to;
	}
	canvas.data.fill(0, 0, clearTo);
}

type Frame =
	| { lossless: Uint8Array; lossy?: undefined; alpha?: undefined }
	| { lossless?: undefined; lossy: Uint8Array; alpha?: Uint8Array };

/** The bitstream chunks of one image; unknown chunks (metadata, ICC profile) are skipped. */
function frameOf(chunks: Chunk[]): Frame {
	let alpha: Uint8Array | undefined;
	for (const chunk of chunks) {
		if (chunk.fourcc === "VP8L") return { lossless: chunk.data };
		if (chunk.fourcc === "VP8 ") return { lossy: chunk.data, alpha };
		if (chunk.fourcc === "ALPH" && !alpha) alpha = chunk.data;
	}
	throw new WebpFormatError("WebP file has no VP8 or VP8L chunk");
}

/** Size from the VP8 key frame header: frame tag, start code 9d 01 2a, then 14-bit width and height. */
function vp8Size(vp8: Uint8Array): { width: number; height: number } {
	if (vp8.length < 10 || (vp8[0]! & 1) !== 0) throw new WebpFormatError("VP8 data is not a key frame");
	if (vp8[3] !== 0x9d || vp8[4] !== 0x01 || vp8[5] !== 0x2a) throw new WebpFormatError("VP8 start code missing");
	const width = (vp8[6]! | (vp8[7]! << 8)) & 0x3fff;
	const height = (vp8[8]! | (vp8[9]! << 8)) & 0x3fff;
	if (width === 0 || height === 0) throw new WebpFormatError("VP8 frame is empty");
	return { width, height };
}

/** A lossy frame at (x, y) of `out`, with its alpha plane if it has one. */
function decodeLossy(vp8: Uint8Array, alph: Uint8Array | undefined, out: Raster, x: number, y: number): void {
	const { width, height } = vp8Size(vp8);
	const stride = out.width * 4;
	const offset = (y * out.width + x) * 4;
	const writeColour = () => decodeVp8(vp8, width, height, out.data, offset, stride);
	if (alph) decodeWithAlpha(alph, width, height, out.data, offset, stride, writeColour);
	else writeColour();
}
