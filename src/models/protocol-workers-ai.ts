/**
 * Workers AI through the AI binding: a vision chat model with JSON mode. The image goes
 * as a data-URL content part (the binding takes no HTTP URLs). Older models answer
 * `{ response }` (the document already parsed, or text); newer ones answer in the OpenAI
 * shape, `choices[0].message.content`. The binding throws its errors as `AiError: <code>: ...`.
 */
import { ContractError, ModelError } from "./errors";
import { at } from "./http";
import { jsonFromText } from "./json-reply";
import type { ModelAsk } from "./model-ask";
import type { Endpoint } from "./vendors";

/** The one method of the binding we use, typed loosely so any model name is accepted. */
export interface AiRunner {
	run(model: string, inputs: object, options?: { signal?: AbortSignal }): Promise<unknown>;
}

export async function sendWorkersAi(endpoint: Endpoint, ask: ModelAsk, signal: AbortSignal): Promise<unknown> {
	const ai = endpoint.ai as unknown as AiRunner | undefined;
	if (!ai) throw new ModelError("rejected", "the AI binding is missing");
	let output: unknown;
	try {
		output = await ai.run(endpoint.model, workersAiInputs(ask), { signal });
	} catch (error) {
		if (signal.aborted) throw error;
		throw workersAiError(error);
	}
	const choice = at(output, "choices", 0);
	if (choice !== undefined) {
		if (at(choice, "finish_reason") === "length") {
			throw new ModelError("truncated", "the reply was cut off at the token limit");
		}
		const content = at(choice, "message", "content");
		if (typeof content !== "string") throw new ContractError("the reply has no message content");
		return jsonFromText(content);
	}
	const response = at(output, "response");
	if (response !== null && typeof response === "object") return response;
	if (typeof response !== "string") throw new ContractError("the reply has no response");
	return jsonFromText(response);
}

/**
 * The binding's thrown errors by their code: 3040 (capacity) and 3007/3008 (timeouts) pass,
 * 5007 is an unknown model, 3036 the account's daily allocation (no use retrying within a
 * call), 10000 and its kin a refused account; anything else we cannot tell is transient.
 */
export function workersAiError(error: unknown): ModelError {
	const message = error instanceof Error ? error.message : String(error);
	const code = /\b(\d{4,5})\b/.exec(message)?.[1];
	if (code === "5007" || /no such model/i.test(message)) {
		return new ModelError("unknown-model", "Workers AI does not know the model");
	}
	if (code === "10000" || code === "10001" || /authentication|not authorized/i.test(message)) {
		return new ModelError("auth", "Workers AI refused the account");
	}
	if (code === "3036") {
		return new ModelError("transient", "Workers AI's daily allocation is used up", {
			status: 429,
			retryAfterMs: Number.POSITIVE_INFINITY,
		});
	}
	if (code === "5006") return new ModelError("rejected", "Workers AI rejected the request");
	return new ModelError("transient", "Workers AI failed to run the model");
}

export function workersAiInputs(ask: ModelAsk): object {
	const user = ask.image
		? [
				{ type: "text", text: ask.text },
				{ type: "image_url", image_url: { url: `data:${ask.image.mime};base64,${ask.image.base64}` } },
			]
		: ask.text;
	return {
		messages: [
			{ role: "system", content: ask.system },
			{ role: "user", content: user },
		],
		response_format: { type: "json_schema", json_schema: ask.schema },
		max_tokens: ask.maxTokens,
	};
}
