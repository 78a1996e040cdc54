import { requestBody } from "./request-body.mjs";

/** One POST /translate/image, its answer read into plain data: status, body, rate-limit state, Retry-After. */

function seconds(value) {
	if (value == null || value === "") return undefined;
	const n = Number(value);
	if (Number.isFinite(n)) return Math.max(0, n);
	// Retry-After may also be an HTTP date.
	const at = Date.parse(value);
	return Number.isNaN(at) ? undefined : Math.max(0, (at - Date.now()) / 1000);
}

function rateLimit(headers) {
	const limit = Number(headers.get("ratelimit-limit"));
	const remaining = Number(headers.get("ratelimit-remaining"));
	const reset = Number(headers.get("ratelimit-reset"));
	if (!headers.has("ratelimit-remaining") || !Number.isFinite(remaining)) return undefined;
	return { limit, remaining, reset: Number.isFinite(reset) ? reset : 60 };
}

export function createClient({ baseUrl, apiKey, timeoutMs = 300_000 }) {
	// A base URL with a path (https://host/yakusu) keeps it: resolve against it as a folder.
	const base = new URL(baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`);
	const endpoint = new URL("translate/image", base);
	return {
		endpoint,
		/** The target language codes the service lists in its OpenAPI document, or [] if it cannot say. */
		async languageCodes() {
			try {
				const response = await fetch(new URL("openapi.json", base), { signal: AbortSignal.timeout(10_000) });
				const doc = await response.json();
				const field = doc.components.schemas.TranslateRequest.properties.targetLanguage;
				// Listed as `anyOf` the codes and a pattern (any case is accepted): the codes are the branch with `enum`.
				return (field.anyOf?.find((branch) => Array.isArray(branch.enum)) ?? field).enum ?? [];
			} catch {
				return [];
			}
		},
		/** Sends `file` with the request options; the body is streamed from disk. `signal` aborts it. */
		async translate(file, options, idempotencyKey, signal) {
			// `duplex` streams the body; Node's fetch needs it, the DOM's RequestInit does not list it.
			const response = await fetch(
				endpoint,
				/** @type {RequestInit} */ ({
					method: "POST",
					headers: {
						Authorization: `Bearer ${apiKey}`,
						"Content-Type": "application/json",
						"Idempotency-Key": idempotencyKey,
					},
					body: requestBody(file, options),
					duplex: "half",
					signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs),
				}),
			);
			const payload = await response.json().catch(() => undefined);
			// A 200 whose image stopped mid-stream: the service refunds it and frees the key, so it is retried.
			if (payload === undefined && response.ok) {
				throw new Error("the translated image was cut off before it all arrived (not charged)");
			}
			return {
				status: response.status,
				body: payload ?? {},
				rate: rateLimit(response.headers),
				retryAfter: seconds(response.headers.get("retry-after")),
			};
		},
	};
}

/**
 * A 409's `message` says whether the first call with the key is still in progress or finished
 * (the service's wording starts "Still in progress" or "Already done").
 */
export function replayInProgress(answer) {
	return answer.status === 409 && /^still in progress/i.test(answer.body?.message ?? "");
}

/** What went wrong, for a person: the service's own detail where it gave one. */
export function describeAnswer(answer) {
	if (answer.error) return `network error: ${answer.error.message}`;
	const { status, body } = answer;
	if (replayInProgress(answer)) {
		return `still in progress on the service (record ${body.recordId}); try again shortly (if that call fails it is refunded and nothing is charged twice)`;
	}
	if (status === 409) {
		return `already translated with these options (record ${body.recordId}) but that result was not saved here; use --again to pay for it once more`;
	}
	return `${status} ${body?.detail ?? "(no detail)"}`;
}
