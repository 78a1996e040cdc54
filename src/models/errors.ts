/**
 * What can go wrong in one model call, in model terms. The pipeline turns these into the
 * client-facing PipelineError (pipeline/model-failure.ts). They carry nothing of a vendor's
 * reply body but the class it was read into: a vendor may echo a key back.
 */

export type ModelErrorKind =
	/** 5xx, 429, 529 overloaded, 408, a network failure: the same request may succeed soon. */
	| "transient"
	/** No answer within the attempt's time. */
	| "timeout"
	/** The reply arrived but breaks the model contract (no JSON, wrong shape, missing ids). */
	| "contract"
	/** The reply stopped at the output token limit: the same request would stop there again. */
	| "truncated"
	/** The model refused, or the vendor's safety filter blocked the prompt or the answer. */
	| "declined"
	/** 401, 403, or a vendor's own way of saying the key is wrong. */
	| "auth"
	/** The model name is unknown to the vendor, or retired. */
	| "unknown-model"
	/** Any other refusal of the request itself (a 400): sending it again changes nothing. */
	| "rejected"
	/** The caller went away. */
	| "cancelled"
	/** Nothing was sent: no key, no AI binding, a reader that cannot see. The message names what to set. */
	| "not-configured";

export class ModelError extends Error {
	override name = "ModelError";
	constructor(
		readonly kind: ModelErrorKind,
		message: string,
		readonly details: {
			/** The vendor's HTTP status, when it answered one. */
			status?: number;
			/** How long the vendor asked us to wait (Retry-After, Gemini's RetryInfo). */
			retryAfterMs?: number;
			/** For a rejected request: what the vendor's message was about, when it said. */
			about?: "image" | "output-format";
			/** For a timeout: the time the attempt was given. */
			limitMs?: number;
		} = {},
	) {
		super(message);
	}
}

/** A reply that breaks the model contract. */
export class ContractError extends ModelError {
	override name = "ContractError";
	constructor(message: string) {
		super("contract", message);
	}
}

/** Kinds worth one more attempt with the same request. */
export function retryable(error: ModelError): boolean {
	return error.kind === "transient" || error.kind === "timeout" || error.kind === "contract";
}

/** Reads Retry-After as seconds or as an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
	if (!header) return undefined;
	const seconds = Number(header);
	if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
	const date = Date.parse(header);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
