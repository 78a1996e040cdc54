import { ImageDataError } from "../pipeline/pixels/image-error";
import { type DecodeCost, type ProbedImage, probeImage } from "../pipeline/probe";
import type { TranslateJob } from "../pipeline/types";
import type { TranslateBody } from "./body";
import { invalidField, RequestError } from "./errors";
import { translateOptionsSchema } from "./schema";

/** Images above this many pixels are refused (DESIGN "Limits"). */
export const MAX_PIXELS = 25_000_000;

const MB = 1024 * 1024;
/** What one call may add to the isolate's memory at its peak (issue 11): two at once fit its 128 MB. */
export const CALL_MEMORY = 60 * MB;
/**
 * What a call adds besides its decoder's buffers, measured in workerd on the streaming kinds
 * (docs/benchmarks.md, "The whole call"): about 28 MB (fonts' caches, HarfBuzz, resvg, the reader
 * copy) plus 0.7 bytes a pixel (crops, bands, the PNG encoder's output) — 45.5 MB at 25 MP.
 */
const CALL_BASE = 28 * MB;
const CALL_BYTES_PER_PIXEL = 0.7;
/**
 * A decoder's buffers count more than once at the call's peak: each pass decodes anew, and what the
 * collector has not yet found of the previous pass's is still resident when the next allocates its
 * own. The whole-image kinds free their raster after each pass; measured since, the peak grows by
 * 1.3 to 2.3 times what the decode holds: 2.5 keeps a margin under CALL_MEMORY.
 */
const DECODE_HELD_FACTOR = 2.5;

/**
 * What it may hold besides, whatever the image's size (inflater window, prefix tables): a file that
 * asks for more is built to exhaust memory, not to show a picture.
 */
export const MAX_DECODE_FIXED_MEMORY = 16 * 1024 * 1024;

/**
 * The body's fields checked in the spec's order, the first failure reported: the image
 * (present, a supported format, whole, within the pixel and memory limits), then languages, mode,
 * translator, prompt.
 */
export function toJob(body: TranslateBody): TranslateJob {
	if (body.image.kind !== "bytes" || body.image.bytes.byteLength === 0) throw invalidField("imageBase64");
	const image = probe(body.image.bytes);

	const parsed = translateOptionsSchema.safeParse(body.fields);
	if (!parsed.success) {
		const field = parsed.error.issues[0]?.path[0];
		throw invalidField(typeof field === "string" ? field : "body");
	}
	const { sourceLanguage, targetLanguage, mode, translator, customPrompt } = parsed.data;
	return { image, sourceLanguage, targetLanguage, mode, translator, customPrompt };
}

/** The probe's parse of the file, or the request error that refuses it: 422 for the file's fault, 413 for its size. */
function probe(bytes: Uint8Array): ProbedImage {
	try {
		return probeImage(bytes, admitImage);
	} catch (error) {
		if (error instanceof ImageDataError) throw invalidField("imageBase64");
		throw error;
	}
}

/**
 * 413 above 25 MP, or above the lower limit of a kind whose decoding holds more a pixel than the
 * streaming kinds' few rows: the limit at which its whole call stays within CALL_MEMORY, stated in
 * the detail. Called by the probe with the header's size first, then with the full cost.
 */
export function admitImage(width: number, height: number, cost?: DecodeCost): void {
	const pixels = width * height;
	const size = `Image is ${width}x${height} (${megapixels(pixels)} megapixels)`;
	if (pixels > MAX_PIXELS) throw new RequestError(413, `${size}; the limit is 25 megapixels`);
	if (!cost) return;
	if (cost.fixedMemory > MAX_DECODE_FIXED_MEMORY) {
		throw new ImageDataError(`decoding would hold ${cost.fixedMemory} bytes of tables`);
	}
	if (callPeak(pixels, cost.memory) > CALL_MEMORY) {
		const limit = pixelLimit(cost.memory / pixels);
		throw new RequestError(
			413,
			`${size}; the limit is ${megapixels(limit)} megapixels for ${cost.kind}, which takes more memory to decode (25 megapixels for other images)`,
		);
	}
}

/** A call's added peak, by the measured model above, for an image whose decode holds `held` bytes. */
function callPeak(pixels: number, held: number): number {
	return CALL_BASE + CALL_BYTES_PER_PIXEL * pixels + DECODE_HELD_FACTOR * held;
}

/** The most pixels of a kind whose decode holds `perPixel` bytes a pixel that keep callPeak within CALL_MEMORY. */
export function pixelLimit(perPixel: number): number {
	const limit = (CALL_MEMORY - CALL_BASE) / (CALL_BYTES_PER_PIXEL + DECODE_HELD_FACTOR * perPixel);
	return Math.min(MAX_PIXELS, Math.floor(limit));
}

function megapixels(pixels: number): string {
	return (pixels / 1e6).toFixed(1);
}

const PRINTABLE_ASCII = /^[\x20-\x7e]{1,255}$/;

/** `Idempotency-Key`: absent, or 1 to 255 printable ASCII characters (DESIGN step 6). */
export function idempotencyKey(header: string | undefined): string | null {
	if (header === undefined) return null;
	if (!PRINTABLE_ASCII.test(header)) throw invalidField("Idempotency-Key");
	return header;
}
