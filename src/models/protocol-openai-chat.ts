/**
 * OpenAI-compatible chat completions (xAI, DeepSeek, Moonshot, OpenAI, and any local
 * server behind a base URL). The image goes as a data-URL content part; the answer is
 * constrained by a JSON schema where the vendor has one, by JSON mode otherwise (the
 * schema is then spelled out in the system prompt).
 */
import type { ModelAsk } from "./ask";
import { ContractError } from "./errors";
import { at, postJson } from "./http";
import { jsonFromText } from "./json-reply";
import type { Endpoint } from "./vendors";

export async function sendOpenAiChat(endpoint: Endpoint, ask: ModelAsk, signal: AbortSignal): Promise<unknown> {
	const reply = await postJson(
		`${endpoint.baseUrl}/chat/completions`,
		{ authorization: `Bearer ${endpoint.key}` },
		openAiChatBody(endpoint, ask),
		signal,
	);
	if (at(reply, "choices", 0, "finish_reason") === "length") {
		throw new ContractError("the reply was cut off at the token limit");
	}
	const content = at(reply, "choices", 0, "message", "content");
	// Some compatible servers answer content as a list of text parts.
	const text = Array.isArray(content) ? content.map((part) => at(part, "text") ?? "").join("") : content;
	if (typeof text !== "string") throw new ContractError("the reply has no message content");
	return jsonFromText(text);
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

/** Per-vendor switches that keep reasoning models fast on a task that needs no long thinking. */
function dialect({ spec, model }: Endpoint): object {
	if (spec.name === "chatgpt" && /^(gpt-5|o\d)/.test(model)) return { reasoning_effort: "low" };
	if (spec.name === "kimi" && model.startsWith("kimi-k2")) return { thinking: { type: "disabled" } };
	return {};
}
