import { type GifContainer, isGif, readGifContainer } from "./pixels/gif/container";
import { gifHeldBytes } from "./pixels/gif/decode";
import { LZW_FIXED_BYTES } from "./pixels/gif/lzw";
import { ImageDataError } from "./pixels/image-error";
import { DYNAMIC_BLOCK_WORK, INFLATER_BYTES } from "./pixels/inflate";
import { mcuRowBytes } from "./pixels/jpeg/coefficients";
import { type Frame, type JpegContainer, mcuGrid, readJpegContainer } from "./pixels/jpeg/container";
import { jpegHeldBytes } from "./pixels/jpeg/decode";
import { isPng, type PngContainer, type PngHeader, readPngContainer } from "./pixels/png-chunks";
import { inflatedSize } from "./pixels/png-decode";
import { bandRows } from "./pixels/raster-rows";
import type { WebpContainer } from "./pixels/webp/container";
import { readWebpContainer } from "./pixels/webp/container";
import { webpHeldBytes } from "./pixels/webp/decode";
import { isWebp } from "./pixels/webp/riff";

/**
 * What decoding a file will cost, stated by the probe before the call is accepted, so that the
 * limits are checked against what the decode really takes, whatever the file claims.
 */
export interface DecodeCost {
	/**
	 * Bytes `decodeRows` holds at its peak besides the file, the part that grows with the image
	 * (rasters, coefficients, rows and bands as wide as the image): the pixel limit shrinks with it.
	 */
	memory: number;
	/** Bytes it holds whatever the image's size (inflater window, prefix tables). */
	fixedMemory: number;
	/** Work units the decoder may spend where the file, not the pixels, sets the work (inflate blocks, LZW codes). */
	work: number;
	/** The kind of file, as a client would name it, for a refusal that says why its limit is lower. */
	kind: string;
}

interface Probed {
	/** The file's bytes, never copied. */
	bytes: Uint8Array;
	/** As displayed: a JPEG turned by its EXIF orientation reports its turned size. */
	width: number;
	height: number;
	cost: DecodeCost;
}

/** A file the probe read once, whole: what `decodeRows` decodes, as its container was parsed. */
export type ProbedImage =
	| (Probed & { format: "png"; png: PngContainer })
	| (Probed & { format: "jpeg"; jpeg: JpegContainer })
	| (Probed & { format: "webp"; webp: WebpContainer })
	| (Probed & { format: "gif"; gif: GifContainer });

/**
 * The request's limits, applied by the probe as soon as it knows a size and cost: first from the
 * header alone (so an oversized image costs no walk), then with the full cost. Throws to refuse.
 */
export type Admit = (width: number, height: number, cost?: DecodeCost) => void;

/**
 * Reads a client's file once, before the call is accepted and anything is charged: the container
 * is walked to its end (every chunk, marker, block; a million empty chunks cost steps, not
 * memory), and everything a decoder could read two ways, or that is cut short, broken, of a kind
 * no decoder here takes, or asks for more work than its pixels justify, is refused with an
 * ImageDataError (422). `admit` applies the pixel and memory limits (413). What it returns is all
 * the decoder needs: the dimensions priced are the dimensions decoded.
 */
export function probeImage(bytes: Uint8Array, admit: Admit): ProbedImage {
	if (isPng(bytes)) return probePng(bytes, admit);
	if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return probeJpeg(bytes, admit);
	if (isWebp(bytes)) return probeWebp(bytes, admit);
	if (isGif(bytes)) return probeGif(bytes, admit);
	throw new ImageDataError("not a PNG, JPEG, WebP or GIF file");
}

function probePng(bytes: Uint8Array, admit: Admit): ProbedImage {
	const png = readPngContainer(bytes, (header) => admit(header.width, header.height));
	const { header } = png;
	const lineBytes = Math.ceil((header.width * header.bitsPerPixel) / 8);
	// Three rows as the file stores them (a split row, the row, the row above), the RGBA band.
	const rows = 3 * (lineBytes + 1) + header.width * bandRows(header.width, header.height) * 4;
	const expected = inflatedSize(header);
	const cost: DecodeCost = {
		memory: rows + (header.interlaced ? header.width * header.height * 4 : 0),
		fixedMemory: INFLATER_BYTES,
		// Every byte of output once, a dynamic block per 512 bytes of it, and 64 blocks more.
		work: 2 * expected + 64 * DYNAMIC_BLOCK_WORK,
		kind: pngKind(header),
	};
	admit(header.width, header.height, cost);
	return { format: "png", bytes, width: header.width, height: header.height, cost, png };
}

function pngKind(header: PngHeader): string {
	if (header.interlaced) return "an interlaced PNG";
	return header.height * 4 < header.width ? "a PNG this wide" : "a PNG";
}

function probeJpeg(bytes: Uint8Array, admit: Admit): ProbedImage {
	// The size as displayed: the client knows a photo turned by its EXIF orientation by that one.
	const jpeg = readJpegContainer(bytes, (frame, orientation) => {
		const { width, height } = displayedSize(frame, orientation);
		admit(width, height, frameCost(frame));
	});
	const { frame, orientation } = jpeg;
	const { width, height } = displayedSize(frame, orientation);
	const photon = jpeg.decoder === "photon";
	const cost: DecodeCost = {
		memory: photon ? frame.width * frame.height * PHOTON_BYTES_PER_PIXEL : jpegHeldBytes(jpeg),
		fixedMemory: 0,
		work: jpeg.work,
		kind: jpegKind(jpeg),
	};
	admit(width, height, cost);
	return { format: "jpeg", bytes, width, height, cost, jpeg };
}

/** A frame's size as shown: orientations 5 to 8 turn it a quarter. */
function displayedSize(frame: Frame, orientation: number): { width: number; height: number } {
	return orientation >= 5 ? { width: frame.height, height: frame.width } : { width: frame.width, height: frame.height };
}

/**
 * Photon's peak Wasm memory per pixel, measured on 12 and 25 MP JPEG and GIF (168 MB at 12 MP,
 * 349 MB at 25 MP: docs/benchmarks.md): what a JPEG kind only photon decodes costs.
 */
const PHOTON_BYTES_PER_PIXEL = 14;

/** What the frame header alone says a decode costs at least: a progressive frame's row of coefficients. */
function frameCost(frame: Frame): DecodeCost {
	const memory = frame.progressive ? mcuRowBytes(mcuGrid(frame)) : 0;
	return { memory, fixedMemory: 0, work: 0, kind: frame.progressive ? progressiveKind(frame) : "a JPEG" };
}

function jpegKind(jpeg: JpegContainer): string {
	const { frame } = jpeg;
	if (jpeg.decoder === "photon") return "a CMYK or lossless JPEG";
	const turned = jpeg.orientation > 2 ? " turned by its EXIF orientation" : "";
	if (frame.progressive) return progressiveKind(frame) + turned;
	if (jpeg.scans.length > 1) return `a JPEG whose colours come in separate scans${turned && `,${turned}`}`;
	return `a JPEG${turned}`;
}

function progressiveKind(frame: Frame): string {
	const fullColour =
		frame.components.length === 3 &&
		frame.components.every((c) => c.h === frame.components[0]!.h && c.v === frame.components[0]!.v);
	return fullColour ? "a progressive JPEG with full-resolution colour" : "a progressive JPEG";
}

function probeWebp(bytes: Uint8Array, admit: Admit): ProbedImage {
	const webp = readWebpContainer(bytes, (width, height) => admit(width, height));
	const held = webpHeldBytes(webp);
	const cost: DecodeCost = {
		memory: held.memory,
		fixedMemory: held.fixedMemory,
		work: 0,
		kind: webp.frame.lossless ? "a lossless WebP" : webp.frame.alpha ? "a WebP with alpha" : "a WebP",
	};
	admit(webp.width, webp.height, cost);
	return { format: "webp", bytes, width: webp.width, height: webp.height, cost, webp };
}

function probeGif(bytes: Uint8Array, admit: Admit): ProbedImage {
	const gif = readGifContainer(bytes, (width, height) => admit(width, height));
	const { width, height, frame } = gif;
	const cost: DecodeCost = {
		memory: gifHeldBytes(frame) + width * bandRows(width, height) * 4 + frame.width,
		fixedMemory: LZW_FIXED_BYTES,
		// Every code draws at least a pixel, but clear codes draw none: allow as many again.
		work: 2 * frame.width * frame.height + 8192,
		kind: frame.interlaced ? "an interlaced GIF" : "a GIF",
	};
	admit(width, height, cost);
	return { format: "gif", bytes, width, height, cost, gif };
}
