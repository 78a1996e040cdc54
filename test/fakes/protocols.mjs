/**
 * The three wire protocols as the vendors enforce them: each `check*` reads a request the
 * way the vendor would (auth header, required fields, content-part shapes, schema) and
 * either rejects it with the vendor's own error shape or returns what was asked; each
 * `reply*` wraps an answer text in the vendor's reply envelope.
 */

/** @typedef {{ system: string, text: string, image?: { mime: string, base64: string }, schema?: object, maxTokens?: number, tool?: string }} Asked */

const json = (status, body, headers = {}) =>
	new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

// ---------------------------------------------------------------- OpenAI-compatible

const openAiError = (status, message, code = null) =>
	json(status, { error: { message, type: "invalid_request_error", param: null, code } });

/**
 * @param {Request} request @param {any} body
 * @param {{ vendor: string, key?: string }} expect
 * @returns {{ error: Response } | { asked: Asked }}
 */
export function checkOpenAiChat(request, body, expect) {
	const refused = authError(request, expect);
	if (refused) return { error: refused };
	if (typeof body?.model !== "string" || body.model === "") return { error: openAiError(400, "model is required") };
	if (!Array.isArray(body.messages) || body.messages.length === 0)
		return { error: openAiError(400, "messages is required") };
	let system = "";
	let text = "";
	let image;
	for (const message of body.messages) {
		if (!["system", "developer", "user", "assistant"].includes(message?.role)) {
			return { error: openAiError(400, `invalid role ${message?.role}`) };
		}
		const parts = typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
		if (!Array.isArray(parts)) return { error: openAiError(400, "content must be a string or an array of parts") };
		for (const part of parts) {
			if (part?.type === "text" && typeof part.text === "string") {
				if (message.role === "user") text += part.text;
				else system += part.text;
			} else if (part?.type === "image_url") {
				if (expect.vendor === "deepseek") {
					return {
						error: openAiError(
							400,
							"Failed to deserialize the JSON body: unknown variant `image_url`, expected `text`",
						),
					};
				}
				const data = dataUrl(part.image_url?.url);
				if (!data) return { error: openAiError(400, "image_url.url must be a base64 data URL of a JPEG or PNG") };
				if (part.image_url.detail !== undefined && !["auto", "low", "high"].includes(part.image_url.detail)) {
					return { error: openAiError(400, "image_url.detail must be auto, low or high") };
				}
				image = data;
			} else return { error: openAiError(400, `unknown content part type ${part?.type}`) };
		}
	}
	const format = body.response_format;
	let schema;
	if (format?.type === "json_schema") {
		if (expect.vendor === "deepseek" || expect.vendor === "kimi") {
			return { error: openAiError(400, "response_format.type json_schema is not supported; use json_object") };
		}
		if (typeof format.json_schema?.name !== "string" || typeof format.json_schema?.schema !== "object") {
			return { error: openAiError(400, "response_format.json_schema needs name and schema") };
		}
		schema = format.json_schema.schema;
		if (format.json_schema.strict === true && !strictCompatible(schema)) {
			return {
				error: openAiError(
					400,
					"Invalid schema for response_format: strict mode needs every property required and additionalProperties false",
				),
			};
		}
	} else if (format?.type === "json_object") {
		if (!/json/i.test(system + text))
			return { error: openAiError(400, "Prompt must contain the word 'json' to use response_format json_object") };
	} else if (format !== undefined) return { error: openAiError(400, "response_format.type is invalid") };
	if (body.max_tokens !== undefined && body.max_completion_tokens !== undefined) {
		return { error: openAiError(400, "max_tokens and max_completion_tokens cannot both be set") };
	}
	const effort = body.reasoning_effort;
	if (effort !== undefined && !["none", "minimal", "low", "medium", "high", "xhigh", "max"].includes(effort)) {
		return { error: openAiError(400, `reasoning_effort: invalid value ${effort}`) };
	}
	// Non-reasoning models refuse a reasoning effort rather than ignore it.
	if (effort !== undefined && /non-reasoning/.test(body.model)) {
		return { error: openAiError(400, `Model ${body.model} does not support parameter reasoningEffort.`) };
	}
	if (body.thinking !== undefined && !["enabled", "disabled"].includes(body.thinking?.type)) {
		return { error: openAiError(400, "thinking.type must be enabled or disabled") };
	}
	return {
		asked: {
			system,
			text,
			image,
			schema,
			maxTokens: body.max_completion_tokens ?? body.max_tokens,
			thinks: thinksByDefault(expect.vendor, body),
		},
	};
}

/** `declined`: "refusal" (the model's refusal field) or "safety" (the content filter stopped it). */
export function replyOpenAiChat(answerText, { truncated = false, declined, outputTokens = 1 } = {}) {
	const message =
		declined === "refusal"
			? { role: "assistant", content: null, refusal: "I'm sorry, but I can't help with that request." }
			: { role: "assistant", content: declined === "safety" ? "" : answerText, refusal: null };
	const finish = declined === "safety" ? "content_filter" : truncated ? "length" : "stop";
	return json(200, {
		id: "chatcmpl-fake",
		object: "chat.completion",
		created: Math.floor(Date.now() / 1000),
		model: "fake",
		choices: [{ index: 0, message, finish_reason: finish }],
		usage: { prompt_tokens: 1, completion_tokens: outputTokens, total_tokens: outputTokens + 1 },
	});
}

/** xAI's errors are `{ code, error }`; the other OpenAI-compatible vendors use OpenAI's `{ error: { ... } }`. */
export function errorOpenAiChat(status, headers, vendor) {
	if (vendor === "grok") return json(status, { code: "Internal error", error: `fake vendor error ${status}` }, headers);
	return json(status, { error: { message: `fake vendor error ${status}`, type: "server_error", code: null } }, headers);
}

// ---------------------------------------------------------------- Gemini generateContent

const googleError = (code, status, message, details) =>
	json(code, { error: { code, message, status, ...(details ? { details } : {}) } });

export function checkGemini(request, body, expect) {
	const refused = authError(request, { ...expect, vendor: "gemini" });
	if (refused) return { error: refused };
	const bad = (message) => ({ error: googleError(400, "INVALID_ARGUMENT", message) });
	if (!/\/models\/[^/:]+:generateContent$/.test(new URL(request.url).pathname)) return bad("unknown method");
	if (!Array.isArray(body?.contents) || body.contents.length === 0)
		return bad("* GenerateContentRequest.contents: contents is not specified");
	let text = "";
	let image;
	for (const content of body.contents) {
		if (content.role !== undefined && !["user", "model"].includes(content.role))
			return bad(`invalid role ${content.role}`);
		if (!Array.isArray(content.parts) || content.parts.length === 0)
			return bad("* GenerateContentRequest.contents.parts: contents.parts must not be empty");
		for (const part of content.parts) {
			const inline = part.inline_data ?? part.inlineData;
			if (typeof part.text === "string") text += part.text;
			else if (inline) {
				const mime = inline.mime_type ?? inline.mimeType;
				if (!["image/jpeg", "image/png", "image/webp"].includes(mime))
					return bad("inline_data.mime_type is not a supported image type");
				if (typeof inline.data !== "string" || !isBase64(inline.data))
					return bad("inline_data.data is not valid base64");
				image = { mime, base64: inline.data };
			} else return bad("a part needs text or inline_data");
		}
	}
	const systemParts = (body.systemInstruction ?? body.system_instruction)?.parts ?? [];
	const system = systemParts.map((p) => p.text ?? "").join("");
	const config = body.generationConfig ?? body.generation_config ?? {};
	const schema =
		config.responseJsonSchema ?? config.response_json_schema ?? config.responseSchema ?? config.response_schema;
	const mime = config.responseMimeType ?? config.response_mime_type;
	if (schema && mime !== "application/json")
		return bad("responseMimeType must be application/json when a response schema is set");
	if (config.responseJsonSchema && config.responseSchema)
		return bad("responseJsonSchema and responseSchema cannot both be set");
	// responseSchema is the older proto-mapped field: plain JSON Schema keywords break it, as on the real API.
	const proto = JSON.stringify(config.responseSchema ?? config.response_schema ?? {});
	if (proto.includes('"additionalProperties"')) {
		return bad("Unknown name \"additionalProperties\" at 'generation_config.response_schema': Cannot find field.");
	}
	if (proto.includes('"type":[')) {
		return bad(
			"Unknown name \"type\" at 'generation_config.response_schema': Proto field is not repeating, cannot start list.",
		);
	}
	const level = config.thinkingConfig?.thinkingLevel;
	if (level !== undefined && !["minimal", "low", "medium", "high"].includes(String(level).toLowerCase())) {
		return bad(`Invalid value at 'generation_config.thinking_config.thinking_level' (${level})`);
	}
	// Gemini 3.8 dropped the minimal level; asking for it is an error, not a no-op.
	if (String(level).toLowerCase() === "minimal" && /gemini-3\.8/.test(request.url)) {
		return bad("Thinking level MINIMAL is not supported for this model.");
	}
	return {
		asked: {
			system,
			text,
			image,
			schema,
			maxTokens: config.maxOutputTokens,
			thinks: /gemini-3/.test(request.url) && level === undefined,
		},
	};
}

/** `declined`: "refusal" (the prompt blocked: no candidate at all) or "safety" (the answer stopped by SAFETY). */
export function replyGemini(answerText, { truncated = false, declined, outputTokens = 1 } = {}) {
	if (declined === "refusal") {
		return json(200, {
			promptFeedback: { blockReason: "PROHIBITED_CONTENT" },
			usageMetadata: { promptTokenCount: 1, totalTokenCount: 1 },
			modelVersion: "fake",
		});
	}
	return json(200, {
		candidates: [
			{
				content: { role: "model", parts: [{ text: declined === "safety" ? "" : answerText }] },
				finishReason: declined === "safety" ? "SAFETY" : truncated ? "MAX_TOKENS" : "STOP",
				index: 0,
			},
		],
		usageMetadata: { promptTokenCount: 1, candidatesTokenCount: outputTokens, totalTokenCount: outputTokens + 1 },
		modelVersion: "fake",
	});
}

/** `retryDelay` ("2s"): Gemini says how long to wait in the body of a 429, as a google.rpc.RetryInfo. */
export function errorGemini(status, headers, retryDelay) {
	if (status === 429 && retryDelay !== undefined) {
		return json(
			429,
			{
				error: {
					code: 429,
					message: "You exceeded your current quota, please check your plan and billing details.",
					status: "RESOURCE_EXHAUSTED",
					details: [
						{ "@type": "type.googleapis.com/google.rpc.QuotaFailure", violations: [{ quotaMetric: "fake" }] },
						{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay },
					],
				},
			},
			headers,
		);
	}
	const name =
		status === 429
			? "RESOURCE_EXHAUSTED"
			: status === 403
				? "PERMISSION_DENIED"
				: status >= 500
					? "UNAVAILABLE"
					: "INVALID_ARGUMENT";
	return json(status, { error: { code: status, message: `fake vendor error ${status}`, status: name } }, headers);
}

// ---------------------------------------------------------------- Anthropic Messages

const anthropicError = (status, type, message) => json(status, { type: "error", error: { type, message } });

export function checkAnthropic(request, body, expect) {
	const refused = authError(request, { ...expect, vendor: "claude" });
	if (refused) return { error: refused };
	const bad = (message) => ({ error: anthropicError(400, "invalid_request_error", message) });
	if (!request.headers.get("anthropic-version")) return bad("anthropic-version: header is required");
	if (typeof body?.model !== "string") return bad("model: Field required");
	if (!Number.isInteger(body.max_tokens) || body.max_tokens < 1) return bad("max_tokens: Field required");
	if (!Array.isArray(body.messages) || body.messages.length === 0) return bad("messages: Field required");
	if (body.messages[0].role !== "user") return bad("messages: first message must use the user role");
	let text = "";
	let image;
	for (const message of body.messages) {
		const blocks = typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
		for (const block of blocks ?? []) {
			if (block.type === "text" && typeof block.text === "string") text += block.text;
			else if (block.type === "image") {
				const source = block.source;
				if (source?.type !== "base64")
					return bad("messages.0.content.0.image.source.type: Input should be 'base64' or 'url'");
				if (!["image/jpeg", "image/png", "image/gif", "image/webp"].includes(source.media_type)) {
					return bad(
						"messages.0.content.0.image.source.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'",
					);
				}
				if (!isBase64(source.data)) return bad("messages.0.content.0.image.source.data: invalid base64 data");
				image = { mime: source.media_type, base64: source.data };
			} else return bad(`messages.0.content: unexpected block type ${block.type}`);
		}
	}
	const system = typeof body.system === "string" ? body.system : (body.system ?? []).map((b) => b.text ?? "").join("");
	let schema;
	let tool;
	// The 5.5 models think adaptively and refuse to be forced into a tool or to have thinking disabled.
	const fiveFive = /^claude-[a-z]+-5-5/.test(body.model);
	if (body.tools !== undefined) {
		for (const t of body.tools) {
			if (typeof t.name !== "string" || t.input_schema?.type !== "object")
				return bad("tools.0.input_schema: type must be object");
		}
		if (body.tool_choice?.type === "tool") {
			if (fiveFive) return bad('tool_choice: type "tool" and "any" are not supported for this model.');
			const chosen = body.tools.find((t) => t.name === body.tool_choice.name);
			if (!chosen) return bad("tool_choice.name: no tool with this name");
			schema = chosen.input_schema;
			tool = chosen.name;
		}
	}
	const format = body.output_config?.format;
	if (format !== undefined) {
		if (format.type !== "json_schema" || format.schema?.type !== "object")
			return bad("output_config.format: type must be json_schema with an object schema");
		if (tool) return bad("output_config.format cannot be combined with a forced tool");
		schema = format.schema;
	}
	const effort = body.output_config?.effort;
	if (effort !== undefined && !["low", "medium", "high", "xhigh", "max"].includes(effort))
		return bad(`output_config.effort: invalid value ${effort}`);
	const thinking = body.thinking?.type;
	if (thinking !== undefined && !["enabled", "disabled", "adaptive", "between_tools"].includes(thinking))
		return bad(`thinking.type: invalid value ${thinking}`);
	if (fiveFive && (thinking === "disabled" || thinking === "enabled"))
		return bad(`thinking.type: '${thinking}' is not supported for this model; use 'adaptive' or 'between_tools'`);
	const thinks = /^claude-[a-z]+-5/.test(body.model) && thinking !== "between_tools" && thinking !== "disabled";
	return { asked: { system, text, image, schema, tool, maxTokens: body.max_tokens, thinks } };
}

/**
 * With a tool forced, the answer comes as the tool's input; with structured output (or
 * `asText`, a model that wrote it as text instead of calling the tool) as a text block.
 * `declined`: the model refused (stop_reason "refusal").
 */
export function replyAnthropic(
	answerText,
	document,
	{ tool, truncated = false, asText = false, declined, outputTokens = 1 } = {},
) {
	const useTool = tool && document !== undefined && !asText && !truncated && !declined;
	const stop = declined ? "refusal" : truncated ? "max_tokens" : useTool ? "tool_use" : "end_turn";
	return json(200, {
		id: "msg_fake",
		type: "message",
		role: "assistant",
		model: "fake",
		content: useTool
			? [{ type: "tool_use", id: "toolu_fake", name: tool, input: document }]
			: declined
				? []
				: [{ type: "text", text: answerText }],
		stop_reason: stop,
		stop_sequence: null,
		usage: { input_tokens: 1, output_tokens: outputTokens },
	});
}

export function errorAnthropic(status, headers) {
	const type =
		status === 429
			? "rate_limit_error"
			: status === 529
				? "overloaded_error"
				: status >= 500
					? "api_error"
					: "invalid_request_error";
	return json(status, { type: "error", error: { type, message: `fake vendor error ${status}` } }, headers);
}

// ---------------------------------------------------------------- Workers AI binding

/** Checks `AI.run` inputs for a vision chat model; throws the way the binding does. */
export function checkWorkersAi(model, inputs) {
	if (typeof model !== "string" || !model.startsWith("@cf/")) throw new Error("AiError: 5007: No such model");
	if (!Array.isArray(inputs?.messages))
		throw new Error("AiError: 5006: Error: required properties at '/' are 'messages'");
	let system = "";
	let text = "";
	let image;
	for (const message of inputs.messages) {
		const parts = typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
		for (const part of parts) {
			if (part.type === "text") {
				if (message.role === "user") text += part.text;
				else system += part.text;
			} else if (part.type === "image_url") {
				const data = dataUrl(part.image_url?.url);
				if (!data) throw new Error("AiError: 5006: image_url.url must be a data URI; HTTP URLs are not accepted");
				image = data;
			} else throw new Error(`AiError: 5006: unknown content type ${part.type}`);
		}
	}
	const format = inputs.response_format;
	if (format !== undefined && !["json_object", "json_schema"].includes(format.type))
		throw new Error("AiError: 5006: response_format.type");
	return { system, text, image, schema: format?.json_schema, maxTokens: inputs.max_tokens };
}

// ---------------------------------------------------------------- shared

/**
 * Each vendor's answer to a missing or wrong key, on any of its endpoints; undefined when the key
 * passes. xAI answers 400 in its own shape, echoing the key's first characters; Gemini 400
 * API_KEY_INVALID; Anthropic 401 authentication_error; the others OpenAI's 401.
 */
export function authError(request, expect) {
	if (expect.vendor === "gemini") {
		const key = request.headers.get("x-goog-api-key") ?? new URL(request.url).searchParams.get("key") ?? "";
		if (keyAccepted(key, expect.key)) return undefined;
		return googleError(400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.", [
			{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID" },
		]);
	}
	if (expect.vendor === "claude") {
		if (keyAccepted(request.headers.get("x-api-key") ?? "", expect.key)) return undefined;
		return anthropicError(401, "authentication_error", "invalid x-api-key");
	}
	const auth = request.headers.get("authorization") ?? "";
	if (auth.startsWith("Bearer ") && keyAccepted(auth.slice(7), expect.key)) return undefined;
	if (expect.vendor === "grok") {
		return json(400, {
			code: "Client specified an invalid argument",
			error: `Incorrect API key provided: ${auth.slice(7, 9)}***. You can obtain an API key from https://console.x.ai.`,
		});
	}
	return openAiError(401, "Incorrect API key provided.", "invalid_api_key");
}

/** OpenAI-compatible models that think unless the request turns it off (their dialect's switch). */
function thinksByDefault(vendor, body) {
	const effort = body.reasoning_effort;
	if (vendor === "grok") return /^grok-4\.(3|5)/.test(body.model) && effort !== "none";
	if (vendor === "chatgpt") return /^gpt-(5|6)/.test(body.model) && !["none", "minimal"].includes(effort);
	if (vendor === "deepseek" || vendor === "kimi") return body.thinking?.type !== "disabled";
	return false;
}

/** Any non-empty key passes unless a particular one is expected; keys starting with "invalid" never pass. */
function keyAccepted(key, expected) {
	if (!key || key.startsWith("invalid")) return false;
	return expected === undefined || key === expected;
}

function dataUrl(url) {
	const m = typeof url === "string" ? /^data:(image\/(?:jpeg|png|webp|gif));base64,(.+)$/.exec(url) : null;
	return m && isBase64(m[2]) ? { mime: m[1], base64: m[2] } : undefined;
}

function isBase64(text) {
	return typeof text === "string" && text.length > 0 && text.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(text);
}

/** OpenAI strict mode: every object lists all its properties as required and forbids others. */
function strictCompatible(schema) {
	if (schema === null || typeof schema !== "object") return true;
	if (schema.type === "object" || (Array.isArray(schema.type) && schema.type.includes("object"))) {
		const keys = Object.keys(schema.properties ?? {});
		if (schema.additionalProperties !== false) return false;
		if (!keys.every((k) => (schema.required ?? []).includes(k))) return false;
	}
	return Object.values(schema.properties ?? {}).every(strictCompatible) && strictCompatible(schema.items ?? null);
}
