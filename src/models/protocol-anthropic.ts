/**
 * Anthropic Messages: x-api-key and anthropic-version headers, the image as a base64
 * source, and the output contract enforced as the input_schema of a tool the model is
 * made to call.
 */
import type { ModelAsk } from "./ask";
import { ContractError } from "./errors";
import { at, listAt, postJson } from "./http";
import { jsonFromText } from "./json-reply";
import type { Endpoint } from "./vendors";

export const ANTHROPIC_VERSION = "2023-06-01";

export async function sendAnthropic(endpoint: Endpoint, ask: ModelAsk, signal: AbortSignal): Promise<unknown> {
	const reply = await postJson(
		`${endpoint.baseUrl}/v1/messages`,
		{ "x-api-key": endpoint.key ?? "", "anthropic-version": ANTHROPIC_VERSION },
		anthropicBody(endpoint, ask),
		signal,
	);
	if (at(reply, "stop_reason") === "max_tokens") throw new ContractError("the reply was cut off at the token limit");
	const blocks = listAt(reply, "content");
	const tool = blocks.find((b) => at(b, "type") === "tool_use" && at(b, "name") === toolName(ask));
	const input = at(tool, "input");
	if (input !== null && typeof input === "object") return input;
	// A model that answered in text rather than through the tool may still have written the JSON.
	const text = blocks
		.filter((b) => at(b, "type") === "text")
		.map((b) => at(b, "text"))
		.join("");
	if (!text) throw new ContractError("the reply has neither the tool call nor text");
	return jsonFromText(text);
}

export function anthropicBody(endpoint: Endpoint, ask: ModelAsk): object {
	const content: object[] = [];
	if (ask.image) {
		content.push({ type: "image", source: { type: "base64", media_type: ask.image.mime, data: ask.image.base64 } });
	}
	content.push({ type: "text", text: ask.text });
	const name = toolName(ask);
	return {
		model: endpoint.model,
		max_tokens: ask.maxTokens,
		system: ask.system,
		messages: [{ role: "user", content }],
		tools: [{ name, description: `Submit the ${ask.root} document.`, input_schema: ask.schema }],
		tool_choice: { type: "tool", name },
	};
}

function toolName(ask: ModelAsk): string {
	return `submit_${ask.root}`;
}
