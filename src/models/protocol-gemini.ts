/**
 * Gemini `models/{model}:generateContent`: key in x-goog-api-key, image as inline_data,
 * JSON enforced by responseMimeType and responseJsonSchema.
 */
import { ModelError } from "./errors";
import { at, listAt, postJson } from "./http";
import { jsonFromText } from "./json-reply";
import type { ModelAsk } from "./model-ask";
import type { Endpoint } from "./vendors";

/** Finish reasons of a candidate its safety filters stopped (not a length or a normal stop). */
const BLOCKED = new Set([
	"SAFETY",
	"RECITATION",
	"PROHIBITED_CONTENT",
	"BLOCKLIST",
	"SPII",
	"IMAGE_SAFETY",
	"IMAGE_PROHIBITED_CONTENT",
]);

export async function sendGemini(endpoint: Endpoint, ask: ModelAsk, signal: AbortSignal): Promise<unknown> {
	const model = endpoint.model.replace(/^models\//, "");
	const reply = await postJson(
		`${endpoint.baseUrl}/models/${model}:generateContent`,
		geminiHeaders(endpoint),
		geminiBody(endpoint, ask),
		signal,
	);
	const finish = at(reply, "candidates", 0, "finishReason");
	if (at(reply, "promptFeedback", "blockReason") || (typeof finish === "string" && BLOCKED.has(finish))) {
		throw new ModelError("declined", "the vendor's safety filter blocked the request");
	}
	if (finish === "MAX_TOKENS") throw new ModelError("truncated", "the reply was cut off at the token limit");
	// Thinking models may return thought parts; only the answer's text parts count.
	const text = listAt(reply, "candidates", 0, "content", "parts")
		.filter((part) => at(part, "thought") !== true)
		.map((part) => at(part, "text"))
		.filter((t) => typeof t === "string")
		.join("");
	return jsonFromText(text);
}

export function geminiHeaders(endpoint: Endpoint): Record<string, string> {
	return { "x-goog-api-key": endpoint.key ?? "" };
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
			...thinkingConfig(endpoint.model),
		},
	};
}

/**
 * Gemini 3 thinks at length by default; "low" is the least every 3.x Flash takes (3.8 refuses
 * "minimal"). Gemini 2.5 Flash turns thinking off with a zero budget.
 */
function thinkingConfig(model: string): object {
	if (/^(models\/)?gemini-3/.test(model)) return { thinkingConfig: { thinkingLevel: "low" } };
	if (/^(models\/)?gemini-2\.5-flash/.test(model)) return { thinkingConfig: { thinkingBudget: 0 } };
	return {};
}
