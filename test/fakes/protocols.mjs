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
	const auth = request.headers.get("authorization") ?? "";
	if (!auth.startsWith("Bearer ") || !keyAccepted(auth.slice(7), expect.key)) {
		return { error: openAiError(401, "Incorrect API key provided.", "invalid_api_key") };
	}
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
	return { asked: { system, text, image, schema, maxTokens: body.max_completion_tokens ?? body.max_tokens } };
}

export function replyOpenAiChat(answerText, { truncated = false } = {}) {
	return json(200, {
		id: "chatcmpl-fake",
		object: "chat.completion",
		created: Math.floor(Date.now() / 1000),
		model: "fake",
		choices: [
			{ index: 0, message: { role: "assistant", content: answerText }, finish_reason: truncated ? "length" : "stop" },
		],
		usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
	});
}

export function errorOpenAiChat(status, headers) {
	return json(status, { error: { message: `fake vendor error ${status}`, type: "server_error", code: null } }, headers);
}

// ---------------------------------------------------------------- Gemini generateContent

const googleError = (code, status, message, details) =>
	json(code, { error: { code, message, status, ...(details ? { details } : {}) } });

export function checkGemini(request, body, expect) {
	const key = request.headers.get("x-goog-api-key") ?? new URL(request.url).searchParams.get("key") ?? "";
	if (!keyAccepted(key, expect.key)) {
		return {
			error: googleError(400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.", [
				{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID" },
			]),
		};
	}
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
	return { asked: { system, text, image, schema, maxTokens: config.maxOutputTokens } };
}

export function replyGemini(answerText, { truncated = false } = {}) {
	return json(200, {
		candidates: [
			{
				content: { role: "model", parts: [{ text: answerText }] },
				finishReason: truncated ? "MAX_TOKENS" : "STOP",
				index: 0,
			},
		],
		usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
		modelVersion: "fake",
	});
}

export function errorGemini(status, headers) {
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
	if (!keyAccepted(request.headers.get("x-api-key") ?? "", expect.key)) {
		return { error: anthropicError(401, "authentication_error", "invalid x-api-key") };
	}
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
	if (body.tools !== undefined) {
		for (const t of body.tools) {
			if (typeof t.name !== "string" || t.input_schema?.type !== "object")
				return bad("tools.0.input_schema: type must be object");
		}
		if (body.tool_choice?.type === "tool") {
			const chosen = body.tools.find((t) => t.name === body.tool_choice.name);
			if (!chosen) return bad("tool_choice.name: no tool with this name");
			schema = chosen.input_schema;
			tool = chosen.name;
		}
	}
	return { asked: { system, text, image, schema, tool, maxTokens: body.max_tokens } };
}

/** With a tool forced, the answer comes as the tool's input; `asText` plays a model that wrote it as text instead. */
export function replyAnthropic(answerText, document, { tool, truncated = false, asText = false } = {}) {
	const useTool = tool && document !== undefined && !asText && !truncated;
	return json(200, {
		id: "msg_fake",
		type: "message",
		role: "assistant",
		model: "fake",
		content: useTool
			? [{ type: "tool_use", id: "toolu_fake", name: tool, input: document }]
			: [{ type: "text", text: answerText }],
		stop_reason: truncated ? "max_tokens" : useTool ? "tool_use" : "end_turn",
		stop_sequence: null,
		usage: { input_tokens: 1, output_tokens: 1 },
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
