/**
 * What can go wrong in one model call, before it becomes a client-facing PipelineError.
 * These carry nothing from the vendor's reply body: a vendor may echo a key back.
 */

/** The reply arrived but breaks the model contract (no JSON, wrong shape, missing ids, truncated). */
export class ContractError extends Error {
	override name = "ContractError";
}

/** The vendor answered with an HTTP error status. */
export class VendorHttpError extends Error {
	override name = "VendorHttpError";
	constructor(
		readonly status: number,
		/** From Retry-After, when the vendor sent one. */
		readonly retryAfterMs?: number,
		/** The vendor said the key is wrong even though the status is not 401/403 (Gemini answers 400). */
		readonly badKey = false,
	) {
		super(`HTTP ${status}`);
	}
}

/** The call took longer than MODEL_TIMEOUT_MS. */
export class ModelTimeoutError extends Error {
	override name = "ModelTimeoutError";
}

/** Reads Retry-After as seconds or as an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
	if (!header) return undefined;
	const seconds = Number(header);
	if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
	const date = Date.parse(header);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
