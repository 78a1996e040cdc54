import type { RateState } from "../state/api-key";

/** `{"detail": ...}`, the spec's body for every 4xx and 500 but 409. */
export function problem(status: number, detail: string, headers?: HeadersInit): Response {
	return Response.json({ detail }, { status, headers });
}

/** 409 for an Idempotency-Key this API key already used: the first call's recordId. */
export function replay(recordId: string, headers?: HeadersInit): Response {
	return Response.json(
		{
			error: "idempotency_replay",
			recordId,
			message: "This Idempotency-Key was already used by this API key; the call was not processed again.",
		},
		{ status: 409, headers },
	);
}

/** Carried by every answer after the plan check (DESIGN, request handling step 4). */
export function rateLimitHeaders(rate: RateState): Record<string, string> {
	return {
		"RateLimit-Limit": String(rate.limit),
		"RateLimit-Remaining": String(rate.remaining),
		"RateLimit-Reset": String(rate.reset),
	};
}
