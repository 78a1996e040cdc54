import { probeImage } from "../pipeline/probe";
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
	if (header.width * header.height > MAX_PIXELS) {
		throw new RequestError(
			413,
			`Image is ${header.width}x${header.height} (${((header.width * header.height) / 1e6).toFixed(1)} megapixels); the limit is 25 megapixels`,
		);
	}

	const parsed = translateOptionsSchema.safeParse(body.fields);
	if (!parsed.success) {
		const field = parsed.error.issues[0]?.path[0];
		throw invalidField(typeof field === "string" ? field : "body");
	}
	const { sourceLanguage, targetLanguage, mode, translator, customPrompt } = parsed.data;
	return { image, ...header, sourceLanguage, targetLanguage, mode, translator, customPrompt };
}

const PRINTABLE_ASCII = /^[\x20-\x7e]{1,255}$/;

/** `Idempotency-Key`: absent, or 1 to 255 printable ASCII characters (DESIGN step 6). */
export function idempotencyKey(header: string | undefined): string | null {
	if (header === undefined) return null;
	if (!PRINTABLE_ASCII.test(header)) throw invalidField("Idempotency-Key");
	return header;
}
