import { PhotonImage } from "@cf-wasm/photon";
import { PipelineError } from "./errors";
import { decodeGif } from "./pixels/gif/decode";
import { decodeJpeg } from "./pixels/jpeg/decode";
import { JpegUnsupported } from "./pixels/jpeg/errors";
import { applyOrientation, jpegOrientation } from "./pixels/orientation";
import { decodePng } from "./pixels/png-decode";
import { decodeWebp } from "./pixels/webp/decode";
import { WebpUnsupported } from "./pixels/webp/errors";
import type { ImageFormat, Raster } from "./types";

/**
 * Decodes the request's image into straight RGBA: PNG alpha kept, JPEG turned upright by its
 * EXIF orientation, GIF's first frame. Data that turns out corrupt or truncated only now is the
 * client's fault: 422 on `imageBase64`.
 *
 * PNG, JPEG (baseline and progressive), GIF and WebP go through our own decoders, which write one
 * RGBA buffer. photon is left for the JPEG kinds ours refuses (arithmetic coding, lossless, 12-bit,
 * CMYK) and WebP whose prefix tables would outgrow our budget; it holds the pixels about three
 * times in Wasm memory while decoding, and Wasm memory never shrinks: see docs/benchmarks.md for
 * what that costs at large sizes.
 */
export async function decodeImage(bytes: Uint8Array, format: ImageFormat): Promise<Raster> {
	try {
		if (format === "png") return await decodePng(bytes);
		if (format === "jpeg") return applyOrientation(decodeJpegAnyKind(bytes), jpegOrientation(bytes));
		if (format === "gif") return decodeGif(bytes);
		return decodeWebpAnyKind(bytes);
	} catch (error) {
		if (isOutOfMemory(error)) throw error;
		throw new PipelineError("Invalid field: imageBase64", 422, { cause: error });
	}
}

function decodeJpegAnyKind(bytes: Uint8Array): Raster {
	try {
		return decodeJpeg(bytes);
	} catch (error) {
		if (error instanceof JpegUnsupported) return decodeWithPhoton(bytes);
		throw error;
	}
}

function decodeWebpAnyKind(bytes: Uint8Array): Raster {
	try {
		return decodeWebp(bytes);
	} catch (error) {
		if (error instanceof WebpUnsupported) return decodeWithPhoton(bytes);
		throw error;
	}
}

function decodeWithPhoton(bytes: Uint8Array): Raster {
	// photon panics (a Wasm trap, RuntimeError) on data it cannot decode.
	const image = PhotonImage.new_from_byteslice(bytes);
	try {
		return { width: image.get_width(), height: image.get_height(), data: image.get_raw_pixels() };
	} finally {
		image.free();
	}
}

/** A failed allocation is our limit, not the client's bad file: it stays a 500. */
function isOutOfMemory(error: unknown): boolean {
	return error instanceof RangeError && /alloc|memory/i.test(error.message);
}
