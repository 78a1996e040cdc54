import { PhotonImage } from "@cf-wasm/photon";
import { PipelineError } from "./errors";
import { decodeGifRows } from "./pixels/gif/decode";
import { ImageDataError } from "./pixels/image-error";
import type { JpegContainer } from "./pixels/jpeg/container";
import {
	decodeJpegHalfRows,
	decodeJpegRaster,
	decodeJpegRows,
	placedDecodes,
	resumableJpegRows,
} from "./pixels/jpeg/decode";
import { turnedDecodes } from "./pixels/jpeg/turned";
import { applyOrientation, emitOriented } from "./pixels/orientation";
import { decodeAdam7, decodePngRows } from "./pixels/png-decode";
import { rasterSink } from "./pixels/raster-rows";
import { decodeWebpRaster, decodeWebpRows } from "./pixels/webp/decode";
import { WorkBudget } from "./pixels/work-budget";
import type { ProbedImage } from "./probe";
import type { Box, Raster, RowSink } from "./types";

/**
 * Decodes a probed file to straight RGBA rows, top to bottom, as displayed (JPEG turned upright by
 * its EXIF orientation, GIF's first frame, an animated WebP's first frame), into `sink`, holding no
 * more than the probe priced (`image.cost`): rows stream where the format allows (plain PNG, JPEG,
 * lossy WebP, GIF; a JPEG turned by EXIF a window of displayed rows at a time, each from a decode of
 * the stored image), and the kinds that need the whole image (interlaced PNG, lossless WebP, photon)
 * keep it and then hand out its rows. Call it again
 * for every pass over the pixels: it keeps nothing between calls.
 *
 * `wanted`: only the pixels inside these boxes will be read (pass 2's crops). A decoder may leave
 * the others of the rows it hands out as anything (a JPEG skips turning the MCUs around no box
 * into pixels, a plain PNG or GIF the rows no box holds) and stop after the boxes' last row; every
 * wanted pixel is exactly as decoded whole.
 *
 * Data that turns out broken only now, or asks for more work than the probe allowed, is the
 * client's fault: PipelineError 422 on `imageBase64`. photon decodes the JPEG kinds ours does not
 * (CMYK, lossless); it holds the pixels about three times in Wasm memory, which never shrinks.
 */
export function decodeRows(image: ProbedImage, sink: RowSink, wanted?: readonly Box[]): void {
	clientFault(() => {
		const budget = new WorkBudget(image.cost.work);
		if (image.format === "png") decodePngRows(image.bytes, image.png, budget, sink, wanted);
		else if (image.format === "gif") decodeGifRows(image.bytes, image.gif, budget, sink, wanted);
		else if (image.format === "webp") decodeWebpRows(image.webp, sink);
		else if (image.jpeg.decoder === "photon") emitOriented(decodeWithPhoton(image.bytes), image.jpeg.orientation, sink);
		else decodeJpegRows(image.bytes, image.jpeg, sink, wanted);
	});
}

/**
 * Decodes of the image for a pass whose sink stops them (EnoughRows) and takes up again later:
 * `decode(sink, from)` hands out every row from `from` on, and maybe some before it, which the sink
 * skips. A JPEG of ours starts near `from` (pixels/jpeg/decode.ts resumableJpegRows); the other
 * kinds decode again from the top.
 */
export function resumableRows(image: ProbedImage): (sink: RowSink, from: number) => void {
	const jpeg = ourJpeg(image);
	if (jpeg) {
		const resume = resumableJpegRows(image.bytes, jpeg);
		return (sink, from) => clientFault(() => resume(sink, from));
	}
	return (sink) => decodeRows(image, sink);
}

/**
 * Whether `resumableRows` starts an MCU row or two above the row asked for: a JPEG of ours not
 * turned by EXIF. A turned one starts at the top of the window holding it (a window's decode more
 * for each stop); the other kinds at the top of the image.
 */
export function resumesNear(image: ProbedImage): boolean {
	const jpeg = ourJpeg(image);
	return !!jpeg && jpeg.orientation <= 2;
}

/**
 * The decodes of one image after the model: pass 2's, for boxes (`rows`, as `decodeRows` with
 * `wanted`), and pass 3's, taken up again (`resumable`). A JPEG of ours shares where they have been
 * among them: turned by EXIF, its window marks (pixels/jpeg/turned.ts `turnedDecodes`: past the
 * rows pass 2 read through, each of pass 3's windows reads only its own MCUs); else the places
 * pass 3 is taken up from (pixels/jpeg/decode.ts `placedDecodes`), so that pass 2's decode for a
 * group of crops lower down the page starts near its first crop, not at the top.
 */
export function decodesAfterModel(image: ProbedImage): {
	rows(sink: RowSink, wanted: readonly Box[]): void;
	resumable(): (sink: RowSink, from: number) => void;
} {
	const jpeg = ourJpeg(image);
	if (jpeg && jpeg.orientation > 2) {
		const decode = turnedDecodes(image.bytes, jpeg);
		return {
			rows: (sink, wanted) => clientFault(() => decode(sink, wanted)),
			resumable: () => (sink, from) => clientFault(() => decode(sink, undefined, from)),
		};
	}
	if (jpeg) {
		const decode = placedDecodes(image.bytes, jpeg);
		return {
			rows: (sink, wanted) => clientFault(() => decode.rows(sink, wanted)),
			resumable: () => (sink, from) => clientFault(() => decode.resumable(sink, from)),
		};
	}
	return { rows: (sink, wanted) => decodeRows(image, sink, wanted), resumable: () => resumableRows(image) };
}

/**
 * A decode of the image at half its size each way (rounded up), as displayed, where a decoder makes
 * one for much less than the whole (a JPEG of ours not turned by EXIF: each 2×2 pixels' average
 * straight from the coefficients, pixels/jpeg/idct.ts idctHalf); undefined for the others. Its
 * answer: whether the full-size pixels may hold colour (they are opaque). Only for a copy to read:
 * its pixels are the full-size ones averaged within rounding, not exactly.
 */
export function halfSizeDecode(image: ProbedImage): ((sink: RowSink) => { colour: boolean }) | undefined {
	const jpeg = ourJpeg(image);
	if (!jpeg || jpeg.orientation > 2) return undefined;
	return (sink) => clientFault(() => decodeJpegHalfRows(image.bytes, jpeg, sink));
}

/**
 * The whole image in one raster, for the code that still wants it: the rows of `decodeRows`
 * gathered, except for the kinds that decode into a raster anyway, which hand over theirs rather
 * than hold two.
 */
export function decodeImage(image: ProbedImage): Raster {
	return clientFault(() => {
		const whole = wholeRaster(image);
		if (whole) return whole;
		const sink = rasterSink(image.width, image.height);
		decodeRows(image, sink);
		if (!sink.complete()) throw new Error("the decoder stopped before the last row");
		return sink.raster;
	});
}

function wholeRaster(image: ProbedImage): Raster | undefined {
	if (image.format === "png" && image.png.header.interlaced) {
		return decodeAdam7(image.bytes, image.png, new WorkBudget(image.cost.work));
	}
	if (image.format === "webp") return decodeWebpRaster(image.webp);
	if (image.format !== "jpeg") return undefined;
	const { jpeg } = image;
	if (jpeg.decoder === "photon") return applyOrientation(decodeWithPhoton(image.bytes), jpeg.orientation);
	if (jpeg.orientation > 2 || jpeg.frame.progressive || jpeg.scans.length > 1) {
		return applyOrientation(decodeJpegRaster(image.bytes, jpeg), jpeg.orientation);
	}
	return undefined;
}

/** The image's JPEG container when our own decoder takes it (photon takes the kinds it does not). */
function ourJpeg(image: ProbedImage): JpegContainer | undefined {
	return image.format === "jpeg" && image.jpeg.decoder !== "photon" ? image.jpeg : undefined;
}

function decodeWithPhoton(bytes: Uint8Array): Raster {
	let image: PhotonImage;
	try {
		image = PhotonImage.new_from_byteslice(bytes);
	} catch (error) {
		// photon traps (a Wasm RuntimeError) on data it cannot decode.
		if (error instanceof WebAssembly.RuntimeError) throw new ImageDataError("photon could not decode the file");
		throw error;
	}
	try {
		return { width: image.get_width(), height: image.get_height(), data: image.get_raw_pixels() };
	} finally {
		image.free();
	}
}

/** The client's broken file becomes 422 on imageBase64; anything else (our defect, memory) stays what it is. */
function clientFault<T>(decode: () => T): T {
	try {
		return decode();
	} catch (error) {
		if (error instanceof ImageDataError) throw new PipelineError("Invalid field: imageBase64", 422, { cause: error });
		throw error;
	}
}
