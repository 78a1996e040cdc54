import { Base64Sink, DecodedBytes } from "./base64-stream";
import { RequestError } from "./errors";
import { JsonObjectStream, type MemberHandler, type MemberPolicy, TextSink } from "./json-object-stream";
import { translateOptionsSchema } from "./schema";

/** Decoded image limit: 413 beyond it. */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
/** A 20 MB image needs about 26.7 MB of base64; bodies beyond this are refused with 413 unread. */
export const MAX_BODY_BYTES = 28 * 1024 * 1024;

/**
 * Characters kept of a field's string: more than any field allows (customPrompt: 1000), so a
 * truncated value still fails length validation, while a huge one costs no memory.
 */
const KEPT_TEXT_MAX = 4097;

const KNOWN_FIELDS: ReadonlySet<string> = new Set(Object.keys(translateOptionsSchema.shape));

export interface TranslateBody {
	/** Every known top-level field except imageBase64, as JSON values (unknown fields are skipped, not stored). */
	fields: Record<string, unknown>;
	/** imageBase64: decoded bytes, or why there are none. */
	image: { kind: "bytes"; bytes: Uint8Array } | { kind: "missing" } | { kind: "not-a-string" };
}

const bodyTooLarge = () => new RequestError(413, `The request body is larger than ${MAX_BODY_BYTES} bytes`);

/**
 * Keeps the known fields and sends imageBase64 to the base64 decoder. The last duplicate wins, as in
 * JSON.parse: an earlier imageBase64 that is not valid base64 is refused only if no later one replaces it.
 */
class TranslateBodyCollector implements MemberHandler {
	readonly fields: Record<string, unknown> = {};
	image: TranslateBody["image"] | { kind: "refused"; error: RequestError } = { kind: "missing" };
	/** Reads a refused value's remaining characters: checked as UTF-8, kept nowhere. */
	private readonly rest = new TextSink();

	constructor(private readonly decoded: DecodedBytes) {}

	policy(key: string): MemberPolicy {
		if (key === "imageBase64") return new Base64Sink(this.decoded, this.rest.reset(0));
		return KNOWN_FIELDS.has(key) ? "keep" : "skip";
	}

	member(key: string, value: unknown): void {
		if (key !== "imageBase64") this.fields[key] = value;
		else if (value instanceof Uint8Array) this.image = { kind: "bytes", bytes: value };
		else if (value instanceof RequestError) this.image = { kind: "refused", error: value };
		else this.image = { kind: "not-a-string" };
	}
}

/**
 * Reads a translate request body as it streams in: the JSON is parsed incrementally and
 * imageBase64 is decoded into a single buffer as it arrives, so the body is never held whole.
 * Throws RequestError 400 (not JSON, not an object, bad base64) or 413 (too large); fields are
 * left for the caller to validate.
 *
 * @param declaredLength  the Content-Length, if any: refused early when too large. It never sizes a
 *   buffer: memory grows with the bytes that arrive, not with what a client promises.
 */
export async function readTranslateBody(
	body: ReadableStream<Uint8Array> | null,
	declaredLength: number | null,
): Promise<TranslateBody> {
	const known = declaredLength !== null && Number.isFinite(declaredLength) && declaredLength >= 0;
	if (known && declaredLength > MAX_BODY_BYTES) throw bodyTooLarge();
	if (body === null) throw new RequestError(400, "The request body is empty");

	const collector = new TranslateBodyCollector(new DecodedBytes(MAX_IMAGE_BYTES));
	const parser = new JsonObjectStream(collector, KEPT_TEXT_MAX);
	const reader = body.getReader();
	let received = 0;
	try {
		for (;;) {
			const { done, value } = await reader.read().catch(() => {
				throw new RequestError(400, "The request body could not be read to its end");
			});
			if (done) break;
			received += value.byteLength;
			if (received > MAX_BODY_BYTES) throw bodyTooLarge();
			parser.write(value);
		}
		parser.end();
	} catch (error) {
		// What the client still sends is the caller's to drain or drop (http/answers.ts, `refusal`).
		reader.releaseLock();
		throw error;
	}
	const { image } = collector;
	if (image.kind === "refused") throw image.error;
	return { fields: collector.fields, image };
}
