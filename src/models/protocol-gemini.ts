/**
 * Gemini `models/{model}:generateContent`: key in x-goog-api-key, image as inline_data,
 * JSON enforced by responseMimeType and responseJsonSchema.
 */
import type { ModelAsk } from "./ask";
import { ContractError } from "./errors";
import { at, listAt, postJson } from "./http";
import { jsonFromText } from "./json-reply";
import type { Endpoint } from "./vendors";

export async function sendGemini(endpoint: Endpoint, ask: ModelAsk, signal: AbortSignal): Promise<unknown> {
	const model = endpoint.model.replace(/^models\//, "");
	const reply = await postJson(
		`${endpoint.baseUrl}/models/${model}:generateContent`,
		{ "x-goog-api-key": endpoint.key ?? "" },
		geminiBody(endpoint, ask),
		signal,
	);
	if (at(reply, "promptFeedback", "blockReason")) throw new ContractError("the prompt was blocked");
	if (at(reply, "candidates", 0, "finishReason") === "MAX_TOKENS") {
		throw new ContractError("the reply was cut off at the token limit");
	}
	// Thinking models may return thought parts; only the answer's text parts count.
	const text = listAt(reply, "candidates", 0, "content", "parts")
		.filter((part) => at(part, "thought") !== true)
		.map((part) => at(part, "text"))
		.filter((t) => typeof t === "string")
		.join("");
	return jsonFromText(text);
}

export function geminiBody(endpoint: Endpoint, ask: ModelAsk): object {
	const parts: object[] = [];
	if (ask.image) parts.push({ inline_data: { mime_type: ask.image.mime, data: ask.image.base64 } });
	parts.push({ text: ask.text });
	return {
		systemInstruction: { parts: [{ text: ask.system }] },
		contents: [{ role: "user", parts }],
		generationConfig: {
			responseMimeType: "application/json",
			responseJsonSchema: ask.schema,
			maxOutputTokens: ask.maxTokens,
			// Small print needs the high-resolution image tokens.
			...(ask.image ? { mediaResolution: "MEDIA_RESOLUTION_HIGH" } : {}),
			// Gemini 3 thinks at length by default; reading and translating need little of it.
			...(/^gemini-3/.test(endpoint.model) ? { thinkingConfig: { thinkingLevel: "low" } } : {}),
		},
	};
}
