import { WebpFormatError } from "./errors";
import { vp8lSize } from "./lossless/decode";
import { tag, uint24, visitChunks, visitWebpChunks } from "./riff";
import { parseFrameHeader } from "./vp8/header";

const VP8X = tag("VP8X");
const VP8L = tag("VP8L");
const VP8 = tag("VP8 ");
const ALPH = tag("ALPH");
const ANMF = tag("ANMF");

/** VP8X flag bits (RFC 9649 section 2.7). */
const ANIMATION = 0x02;

/**
 * The image a WebP shows first: a still image, or an animation's first frame at its place on the
 * canvas; its bitstream chunks as views into the file.
 */
export interface WebpFrame {
	x: number;
	y: number;
	width: number;
	height: number;
	/** A VP8L bitstream, or a VP8 key frame with its ALPH chunk if any. */
	lossless?: Uint8Array;
	lossy?: Uint8Array;
	alpha?: Uint8Array;
}

/** The canvas (the image's size: the frame's own for a simple file) and the frame drawn on it. */
export interface WebpContainer {
	width: number;
	height: number;
	frame: WebpFrame;
}

/**
 * Walks every RIFF chunk of a WebP once and finds the frame to decode, refusing files a decoder
 * could read two ways: a VP8X canvas whose still bitstream is another size, an animation frame
 * outside its canvas or unlike its bitstream, two bitstreams for one still image, image chunks
 * beside an animation, no image at all. Sizes are compared from the bitstreams' headers, before
 * anything is allocated for them; a VP8 frame's header and partition sizes are checked too.
 * `onSize` sees the canvas's size as soon as it is known.
 */
export function readWebpContainer(bytes: Uint8Array, onSize?: (width: number, height: number) => void): WebpContainer {
	let canvas: { width: number; height: number; animated: boolean } | undefined;
	let still: Bitstreams | undefined;
	let first = true;
	let firstFrame: Uint8Array | undefined;
	visitWebpChunks(bytes, (fourcc, body, start, end) => {
		if (first) {
			first = false;
			if (fourcc === VP8X) {
				canvas = readCanvas(body.subarray(start, end));
				onSize?.(canvas.width, canvas.height);
			} else if (fourcc !== VP8 && fourcc !== VP8L) throw new WebpFormatError("WebP file has no image chunk first");
		}
		if (fourcc === ANMF) {
			if (!canvas?.animated) throw new WebpFormatError("animation frame in a still WebP");
			firstFrame ??= body.subarray(start, end);
		} else if (fourcc === VP8 || fourcc === VP8L || fourcc === ALPH) {
			if (canvas?.animated) throw new WebpFormatError("image chunk beside an animation");
			// A simple file is its first chunk: anything after it is not part of the image.
			if (!canvas && still) return;
			still = addBitstream(still ?? {}, fourcc, body.subarray(start, end));
		}
	});
	if (canvas?.animated) {
		if (!firstFrame) throw new WebpFormatError("animated WebP has no frame");
		return { width: canvas.width, height: canvas.height, frame: readAnimationFrame(firstFrame, canvas) };
	}
	const frame = checkedFrame(still, 0, 0);
	if (canvas && (canvas.width !== frame.width || canvas.height !== frame.height)) {
		throw new WebpFormatError("WebP canvas and image differ");
	}
	if (!canvas) onSize?.(frame.width, frame.height);
	return { width: frame.width, height: frame.height, frame };
}

interface Bitstreams {
	lossless?: Uint8Array;
	lossy?: Uint8Array;
	alpha?: Uint8Array;
}

/** One VP8L, or one VP8 with at most one ALPH before it (an ALPH after it, or beside VP8L, is ignored, as the format says). */
function addBitstream(streams: Bitstreams, fourcc: number, data: Uint8Array): Bitstreams {
	const image = streams.lossless ?? streams.lossy;
	if (fourcc === ALPH) {
		if (streams.alpha) throw new WebpFormatError("two ALPH chunks");
		return image ? streams : { ...streams, alpha: data };
	}
	if (image) throw new WebpFormatError("two image bitstreams");
	return fourcc === VP8L ? { lossless: data } : { ...streams, lossy: data };
}

function readCanvas(data: Uint8Array): { width: number; height: number; animated: boolean } {
	if (data.length < 10) throw new WebpFormatError("VP8X chunk is truncated");
	return { width: uint24(data, 4) + 1, height: uint24(data, 7) + 1, animated: (data[0]! & ANIMATION) !== 0 };
}

/** The first ANMF frame: its place, then its own chunks (ALPH and VP8, or VP8L; others skipped). */
function readAnimationFrame(anmf: Uint8Array, canvas: { width: number; height: number }): WebpFrame {
	if (anmf.length < 16) throw new WebpFormatError("ANMF chunk is truncated");
	const x = 2 * uint24(anmf, 0);
	const y = 2 * uint24(anmf, 3);
	const width = uint24(anmf, 6) + 1;
	const height = uint24(anmf, 9) + 1;
	if (x + width > canvas.width || y + height > canvas.height)
		throw new WebpFormatError("WebP frame outside the canvas");
	let streams: Bitstreams | undefined;
	visitChunks(anmf.subarray(16), (fourcc, body, start, end) => {
		if (fourcc === VP8 || fourcc === VP8L || fourcc === ALPH) {
			streams = addBitstream(streams ?? {}, fourcc, body.subarray(start, end));
		}
	});
	const frame = checkedFrame(streams, x, y);
	if (frame.width !== width || frame.height !== height) throw new WebpFormatError("WebP frame size differs");
	return frame;
}

/** The frame of these bitstreams, sized from the bitstream's own header. */
function checkedFrame(streams: Bitstreams | undefined, x: number, y: number): WebpFrame {
	if (streams?.lossless) return { x, y, ...vp8lSize(streams.lossless), lossless: streams.lossless };
	if (!streams?.lossy) throw new WebpFormatError("WebP file has no VP8 or VP8L chunk");
	const { width, height } = parseFrameHeader(streams.lossy);
	return { x, y, width, height, lossy: streams.lossy, alpha: streams.alpha };
}
