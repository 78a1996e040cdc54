/**
 * The playground's sentence for each error status the API documents. The browser tests see 401, 402,
 * 403 and 422 from the real service; 409, 413, 429 and 500 cannot be provoked on cue there, so their
 * wording is checked here against the answers the spec describes.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { describeFailure } from "../../public/js/api-client.js";

const answer = (status, body = {}, headers = {}) => ({ status, body, headers: new Headers(headers) });

describe("playground error messages", () => {
	it("gives every documented status its own sentence, with the service's detail", () => {
		const statuses = [400, 401, 402, 403, 409, 413, 422, 429, 500];
		const messages = statuses.map((status) => describeFailure(answer(status, { detail: `detail ${status}` })));
		assert.equal(new Set(messages.map((m) => m.split(" (")[0])).size, statuses.length);
		for (const [i, status] of statuses.entries()) {
			if (status !== 409) assert.match(messages[i], new RegExp(`\\(${status}: detail ${status}\\)$`));
		}
	});

	it("says what a refusal cost: nothing for 402, 409 and 429, a refund for 500", () => {
		assert.match(describeFailure(answer(402)), /Nothing was charged/);
		assert.match(describeFailure(answer(429, {}, { "Retry-After": "17" })), /in 17 seconds\. Nothing was charged/);
		assert.match(describeFailure(answer(500, { detail: "Translation failed" })), /credits were refunded/);
		const replay = { error: "idempotency_replay", recordId: "rec_01ABC", message: "already used" };
		assert.match(describeFailure(answer(409, replay)), /record rec_01ABC\. Nothing was charged/);
	});

	it("says a 200 cut short is refunded, not that the service is unreachable", () => {
		const cut = { status: 200, body: {}, headers: new Headers(), cut: true };
		assert.match(describeFailure(cut), /cut off before it all arrived; the call is refunded/);
	});

	it("names the refused field in words", () => {
		assert.match(
			describeFailure(answer(422, { detail: "Invalid field: customPrompt" })),
			/custom prompt was not accepted/,
		);
		assert.match(describeFailure(answer(422, { detail: "Invalid field: imageBase64" })), /not a supported image/);
		assert.match(describeFailure(answer(413, { detail: "Image is 6000x5000" })), /at most 20 MB and 25 megapixels/);
	});
});
