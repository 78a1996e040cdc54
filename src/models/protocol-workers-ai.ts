/**
 * Workers AI through the AI binding: a vision chat model with JSON mode. The image goes
 * as a data-URL content part (the binding takes no HTTP URLs); JSON mode may hand back
 * the document already parsed, or as text.
 */
import type { ModelAsk } from "./ask";
import { ContractError } from "./errors";
import { jsonFromText } from "./json-reply";
import type { Endpoint } from "./vendors";

/** The one method of the binding we use, typed loosely so any model name is accepted. */
interface AiRunner {
	run(model: string, inputs: object, options?: { signal?: AbortSignal }): Promise<unknown>;
}

export async function sendWorkersAi(endpoint: Endpoint, ask: ModelAsk, signal: AbortSignal): Promise<unknown> {
	const ai = endpoint.ai as unknown as AiRunner | undefined;
	if (!ai) throw new ContractError("the AI binding is missing");
	const output = (await ai.run(endpoint.model, workersAiInputs(ask), { signal })) as { response?: unknown } | null;
	const response = output?.response;
	if (response !== null && typeof response === "object") return response;
	if (typeof response !== "string") throw new ContractError("the reply has no response");
	return jsonFromText(response);
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
