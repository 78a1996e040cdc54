import { ImageDataError } from "../pipeline/pixels/image-error";
import { type DecodeCost, type ProbedImage, probeImage } from "../pipeline/probe";
import type { TranslateJob } from "../pipeline/types";
import type { TranslateBody } from "./body";
import { invalidField, RequestError } from "./errors";
import { translateOptionsSchema } from "./schema";

/** Images above this many pixels are refused (DESIGN "Limits"): 25 MP is what fits the isolate's memory. */
export const MAX_PIXELS = 25_000_000;
/**
 * What a decode may hold while it runs, in the part that grows with the image: a 25 MP image at
 * 4 bytes a pixel (one RGBA raster), and 2 MB for the rows and bands beside it. Kinds that hold
 * more a pixel get a proportionally lower limit.
 */
export const MAX_DECODE_MEMORY = MAX_PIXELS * 4 + 2 * 1024 * 1024;
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
 * 413 above 25 MP, or above the smaller limit of a file whose decoding holds more than the 4 bytes
 * a pixel of an RGBA raster: the same memory as a 25 MP image, whatever the format. Called by the
 * probe with the header's size first, then with the full cost.
 */
export function admitImage(width: number, height: number, cost?: DecodeCost): void {
	const pixels = width * height;
	const size = `Image is ${width}x${height} (${megapixels(pixels)} megapixels)`;
	if (pixels > MAX_PIXELS) throw new RequestError(413, `${size}; the limit is 25 megapixels`);
	if (!cost) return;
	if (cost.fixedMemory > MAX_DECODE_FIXED_MEMORY) {
		throw new ImageDataError(`decoding would hold ${cost.fixedMemory} bytes of tables`);
	}
	if (cost.memory > MAX_DECODE_MEMORY) {
		const limit = Math.floor(MAX_DECODE_MEMORY / (cost.memory / pixels));
		throw new RequestError(
			413,
			`${size}; the limit is ${megapixels(limit)} megapixels for ${cost.kind}, which takes more memory to decode (25 megapixels for other images)`,
		);
	}
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
