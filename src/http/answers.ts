import type { RateState, Replay } from "../state/api-key";

/** `{"detail": ...}`, the spec's body for every 4xx and 500 but 409. */
export function problem(status: number, detail: string, headers?: HeadersInit): Response {
	return Response.json({ detail }, { status, headers });
}

/**
 * 409 for an Idempotency-Key this API key already used: the first call's recordId, and whether
 * that call finished or is still in progress (the message says which; CLI and playground read it).
 */
export function replay(recordId: string, first: Replay, headers?: HeadersInit): Response {
	const message =
		first.state === "finished"
			? "Already done: the call with this Idempotency-Key finished and was charged once; this request was not processed again and nothing was charged."
			: `Still in progress: the call with this Idempotency-Key has not finished; nothing was charged for this request. Try again shortly: if the first call fails it is refunded and the key is freed (at the latest in ${first.freeInSeconds} s).`;
	return Response.json({ error: "idempotency_replay", recordId, message }, { status: 409, headers });
}

/** Carried by every answer after the plan check (DESIGN, request handling step 4). */
export function rateLimitHeaders(rate: RateState): Record<string, string> {
	return {
		"RateLimit-Limit": String(rate.limit),
		"RateLimit-Remaining": String(rate.remaining),
		"RateLimit-Reset": String(rate.reset),
	};
}
