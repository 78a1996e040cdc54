/**
 * Anthropic Messages: x-api-key and anthropic-version headers, the image as a base64 source,
 * and the output contract enforced as structured output (output_config.format), or, for
 * models older than structured output, as the input_schema of a tool the model is made to
 * call (the 5.5 models refuse a forced tool).
 */
import { ContractError, ModelError } from "./errors";
import { at, listAt, postJson } from "./http";
import { jsonFromText } from "./json-reply";
import type { ModelAsk } from "./model-ask";
import type { Endpoint } from "./vendors";

export const ANTHROPIC_VERSION = "2023-06-01";

export async function sendAnthropic(endpoint: Endpoint, ask: ModelAsk, signal: AbortSignal): Promise<unknown> {
	const reply = await postJson(
		`${endpoint.baseUrl}/v1/messages`,
		anthropicHeaders(endpoint),
		anthropicBody(endpoint, ask),
		signal,
	);
	const stop = at(reply, "stop_reason");
	if (stop === "refusal") throw new ModelError("declined", "the model declined to answer");
	if (stop === "max_tokens" || stop === "model_context_window_exceeded") {
		throw new ModelError("truncated", "the reply was cut off at the token limit");
	}
	const blocks = listAt(reply, "content");
	const tool = blocks.find((b) => at(b, "type") === "tool_use" && at(b, "name") === toolName(ask));
	const input = at(tool, "input");
	if (input !== null && typeof input === "object") return input;
	// Structured output answers in a text block; a model that skipped the tool may have written the JSON too.
	const text = blocks
		.filter((b) => at(b, "type") === "text")
		.map((b) => at(b, "text"))
		.join("");
	if (!text) throw new ContractError("the reply has neither the tool call nor text");
	return jsonFromText(text);
}

export function anthropicHeaders(endpoint: Endpoint): Record<string, string> {
	return { "x-api-key": endpoint.key ?? "", "anthropic-version": ANTHROPIC_VERSION };
}

export function anthropicBody(endpoint: Endpoint, ask: ModelAsk): object {
	const content: object[] = [];
	if (ask.image) {
		content.push({ type: "image", source: { type: "base64", media_type: ask.image.mime, data: ask.image.base64 } });
	}
	content.push({ type: "text", text: ask.text });
	const base = {
		model: endpoint.model,
		max_tokens: ask.maxTokens,
		system: ask.system,
		messages: [{ role: "user", content }],
	};
	if (forcedToolOnly(endpoint.model)) {
		const name = toolName(ask);
		return {
			...base,
			tools: [{ name, description: `Submit the ${ask.root} document.`, input_schema: ask.schema }],
			tool_choice: { type: "tool", name },
		};
	}
	const fifth = /^claude-[a-z]+-5/.test(endpoint.model);
	return {
		...base,
		output_config: { format: { type: "json_schema", schema: ask.schema }, ...(fifth ? { effort: "low" } : {}) },
		...thinking(endpoint.model),
	};
}

/** Claude 3 and the first Claude 4 models predate structured output. */
function forcedToolOnly(model: string): boolean {
	return /^claude-3|^claude-(opus|sonnet)-4(-[01])?(-\d{8})?$/.test(model);
}

/**
 * Claude 5 models think adaptively by default; 5.5 no longer takes "disabled", and
 * "between_tools" is its lowest setting (no thinking up front). Claude 4 thinks only when asked.
 */
function thinking(model: string): object {
	if (/^claude-[a-z]+-5-5/.test(model)) return { thinking: { type: "between_tools" } };
	if (/^claude-[a-z]+-5(-\d{8})?$/.test(model)) return { thinking: { type: "disabled" } };
	return {};
}

function toolName(ask: ModelAsk): string {
	return `submit_${ask.root}`;
}
