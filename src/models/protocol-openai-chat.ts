/**
 * OpenAI-compatible chat completions (xAI, DeepSeek, Moonshot, OpenAI, and any local
 * server behind a base URL). The image goes as a data-URL content part; the answer is
 * constrained by a JSON schema where the vendor has one, by JSON mode otherwise (the
 * schema is then spelled out in the system prompt).
 */
import { ContractError, ModelError } from "./errors";
import { at, postJson } from "./http";
import { jsonFromText } from "./json-reply";
import type { ModelAsk } from "./model-ask";
import type { Endpoint } from "./vendors";

export async function sendOpenAiChat(endpoint: Endpoint, ask: ModelAsk, signal: AbortSignal): Promise<unknown> {
	const reply = await postJson(
		`${endpoint.baseUrl}/chat/completions`,
		openAiHeaders(endpoint),
		openAiChatBody(endpoint, ask),
		signal,
	);
	const choice = at(reply, "choices", 0);
	const refusal = at(choice, "message", "refusal");
	if ((typeof refusal === "string" && refusal.trim() !== "") || at(choice, "finish_reason") === "content_filter") {
		throw new ModelError("declined", "the model declined to answer");
	}
	if (at(choice, "finish_reason") === "length") {
		throw new ModelError("truncated", "the reply was cut off at the token limit");
	}
	const content = at(choice, "message", "content");
	// Some compatible servers answer content as a list of text parts.
	const text = Array.isArray(content) ? content.map((part) => at(part, "text") ?? "").join("") : content;
	if (typeof text !== "string") throw new ContractError("the reply has no message content");
	return jsonFromText(text);
}

export function openAiHeaders(endpoint: Endpoint): Record<string, string> {
	return { authorization: `Bearer ${endpoint.key}` };
}

export function openAiChatBody(endpoint: Endpoint, ask: ModelAsk): object {
	const { spec, model } = endpoint;
	const system = spec.jsonSchema
		? ask.system
		: `${ask.system}\n\nThe JSON answer follows this JSON schema:\n${JSON.stringify(ask.schema)}`;
	const userContent = ask.image
		? [
				{ type: "text", text: ask.text },
				{
					type: "image_url",
					image_url: {
						url: `data:${ask.image.mime};base64,${ask.image.base64}`,
						// xAI and OpenAI otherwise look at a low-resolution copy: too coarse to read small print.
						...(spec.name === "grok" || spec.name === "chatgpt" ? { detail: "high" } : {}),
					},
				},
			]
		: ask.text;
	return {
		model,
		messages: [
			{ role: "system", content: system },
			{ role: "user", content: userContent },
		],
		response_format: spec.jsonSchema
			? { type: "json_schema", json_schema: { name: ask.root, strict: true, schema: ask.schema } }
			: { type: "json_object" },
		// DeepSeek documents max_tokens; OpenAI, xAI and Moonshot's current models want max_completion_tokens.
		...(spec.name === "deepseek" ? { max_tokens: ask.maxTokens } : { max_completion_tokens: ask.maxTokens }),
		...dialect(endpoint),
	};
}

/**
 * Per-vendor switches that turn thinking off (or as low as the model allows): reading and
 * translating need none, and thought tokens are output tokens the client waits for.
 * Sources and dates: docs/vendors.md.
 */
function dialect({ spec, model }: Endpoint): object {
	switch (spec.name) {
		case "chatgpt":
			// GPT-5.1 and later (GPT-6.x included) accept "none"; the first GPT-5 models go no lower than "minimal".
			if (/^gpt-5(-mini|-nano)?(-\d{4}-\d{2}-\d{2})?$/.test(model)) return { reasoning_effort: "minimal" };
			if (/^gpt-(5\.\d|[6-9])/.test(model)) return { reasoning_effort: "none" };
			if (/^o\d/.test(model)) return { reasoning_effort: "low" };
			return {};
		case "grok":
			// Grok 4.3 reasons at "low" by default; xAI's replacement for the retired non-reasoning models is "none".
			return /^grok-4\.3/.test(model) ? { reasoning_effort: "none" } : {};
		case "kimi":
			return model.startsWith("kimi-k2") ? { thinking: { type: "disabled" } } : {};
		case "deepseek":
			// V4 and later think by default (at "high"); off is one switch.
			return /^deepseek-(flash|v4|pro)/.test(model) ? { thinking: { type: "disabled" } } : {};
		default:
			return {};
	}
}
