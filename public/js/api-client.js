/**
 * The one call the playground makes, and what each answer means to a person. The key goes to this
 * site's own endpoint and nowhere else.
 */

const ENDPOINT = "/translate/image";

/** Sends one translate request. Resolves with the status, parsed body and headers; rejects only when the network fails. */
export async function translateImage({ apiKey, body, idempotencyKey }) {
	const response = await fetch(ENDPOINT, {
		method: "POST",
		headers: {
			Authorization: `Bearer ${apiKey}`,
			"Content-Type": "application/json",
			"Idempotency-Key": idempotencyKey,
		},
		body: JSON.stringify(body),
	});
	let payload = {};
	let cut = false;
	try {
		payload = await response.json();
	} catch {
		// A proxy's HTML error page, say: the status alone still explains it. A 200 cut short is the image
		// failing, or the connection dropping, while it streamed.
		cut = response.ok;
	}
	return { status: response.status, body: payload, headers: response.headers, cut };
}

const FIELD_LABELS = {
	imageBase64: "image",
	sourceLanguage: "source language",
	targetLanguage: "target language",
	mode: "mode",
	translator: "translator",
	customPrompt: "custom prompt",
	"Idempotency-Key": "Idempotency-Key header",
};

function invalidField(detail) {
	const field = /^Invalid field: (.+)$/.exec(detail ?? "")?.[1];
	if (field === "imageBase64") {
		return "The file is not a supported image, or it is damaged. Use a PNG, JPEG, WebP or GIF. Nothing was charged.";
	}
	return `The ${FIELD_LABELS[field] ?? "request"} was not accepted. Check it and try again. Nothing was charged.`;
}

/** A sentence for a failed call: what happened, whether it cost anything, and what to do next. */
export function describeFailure({ status, body, headers, cut }) {
	if (cut) {
		return "The translated image was cut off before it all arrived; the call is refunded. Try again.";
	}
	const detail = typeof body?.detail === "string" ? body.detail : undefined;
	const sentence = (() => {
		switch (status) {
			case 400:
				return "The request could not be read: the image is not valid base64. Choose the file again. Nothing was charged.";
			case 401:
				return "The API key was not accepted. Check that it was pasted whole, or ask for a new key. Nothing was charged.";
			case 402:
				return "Not enough credit: a translation costs 10 credits. Nothing was charged.";
			case 403:
				return "This key's plan does not include API access; Professional or above is required. Nothing was charged.";
			case 409:
				return /^still in progress/i.test(body?.message ?? "")
					? `The same request is still in progress (record ${body?.recordId ?? "unknown"}); try again shortly. Nothing was charged for this one.`
					: `This request was already made with the same Idempotency-Key; the first call is record ${body?.recordId ?? "unknown"}. Nothing was charged.`;
			case 413:
				return "The image is too large: at most 20 MB and 25 megapixels. Scale it down and try again. Nothing was charged.";
			case 422:
				return invalidField(detail);
			case 429: {
				const wait = headers?.get("Retry-After");
				return `Too many requests for this key in the last minute. Try again in ${wait ?? "a few"} seconds. Nothing was charged.`;
			}
			case 500:
				return "The translation failed and the credits were refunded. Try again, or pick another translator.";
			default:
				return `The service answered with an unexpected status ${status}.`;
		}
	})();
	return detail ? `${sentence} (${status}: ${detail})` : `${sentence} (${status})`;
}
