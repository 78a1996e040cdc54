import { type ImageHeader, probeImage } from "../pipeline/probe";
import type { TranslateJob } from "../pipeline/types";
import type { TranslateBody } from "./body";
import { invalidField, RequestError } from "./errors";
import { translateOptionsSchema } from "./schema";

/** Images above this many pixels are refused (DESIGN "Limits"): 25 MP is what fits the isolate's memory. */
export const MAX_PIXELS = 25_000_000;

/**
 * The body's fields checked in the spec's order, the first failure reported: the image
 * (present, a supported format, within the pixel limit), then languages, mode, translator, prompt.
 */
export function toJob(body: TranslateBody): TranslateJob {
	if (body.image.kind !== "bytes" || body.image.bytes.byteLength === 0) throw invalidField("imageBase64");
	const image = body.image.bytes;
	const header = probeImage(image);
	if (!header) throw invalidField("imageBase64");
	refuseIfTooManyPixels(header);

	const parsed = translateOptionsSchema.safeParse(body.fields);
	if (!parsed.success) {
		const field = parsed.error.issues[0]?.path[0];
		throw invalidField(typeof field === "string" ? field : "body");
	}
	const { sourceLanguage, targetLanguage, mode, translator, customPrompt } = parsed.data;
	return { image, ...header, sourceLanguage, targetLanguage, mode, translator, customPrompt };
}

/**
 * 413 above 25 MP, or above the smaller limit of a file whose decoding needs more than the raster's
 * 4 bytes a pixel: the same memory as a 25 MP image, whatever the format.
 */
function refuseIfTooManyPixels({ width, height, costlyDecode }: ImageHeader): void {
	const pixels = width * height;
	const size = `Image is ${width}x${height} (${megapixels(pixels)} megapixels)`;
	if (pixels > MAX_PIXELS) throw new RequestError(413, `${size}; the limit is 25 megapixels`);
	if (!costlyDecode) return;
	const limit = Math.floor((MAX_PIXELS * 4) / costlyDecode.bytesPerPixel);
	if (pixels > limit) {
		throw new RequestError(
			413,
			`${size}; the limit is ${megapixels(limit)} megapixels for ${costlyDecode.what}, which takes more memory to decode (25 megapixels for other images)`,
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
