/**
 * The models each vendor serves today, as the fake vendor knows them, and how each vendor
 * answers a model it does not serve (retired or never existed) and a request for its list.
 * Checked against the vendors' documentation on 2026-11-24 (docs/vendors.md).
 */

/** Names each vendor accepts: current models, and older names it still routes (aliases). */
export const MODELS = {
	grok: [
		"grok-4.3",
		"grok-4.3-latest",
		"grok-4.5",
		"grok-4.20-0309-non-reasoning",
		"grok-4.20-non-reasoning",
		"grok-4.20-0309-reasoning",
		// Retired in May 2026, now an alias of grok-4.3 (at grok-4.3's price).
		"grok-4-1-fast-non-reasoning",
	],
	gemini: [
		"gemini-3.8-flash",
		"gemini-3.7-flash",
		"gemini-3.6-flash",
		"gemini-3.1-flash-lite",
		"gemini-3.1-pro-preview",
		// Deprecated, routed to gemini-3.6-flash.
		"gemini-3.5-flash",
	],
	deepseek: ["deepseek-flash", "deepseek-v4-pro", "deepseek-v4-flash"],
	kimi: ["kimi-k2.6", "kimi-k2.5", "kimi-k3", "kimi-k2.7-code"],
	chatgpt: ["gpt-6.1-terra", "gpt-6.1-sol", "gpt-5.5", "gpt-5.4-mini", "gpt-5-mini"],
	claude: [
		"claude-sonnet-5-5",
		"claude-haiku-5-5",
		"claude-opus-5-5",
		"claude-sonnet-5",
		"claude-haiku-4-5",
		"claude-haiku-4-5-20251001",
		"claude-sonnet-4-6",
		"claude-sonnet-4-5",
		"claude-sonnet-4-20250514",
	],
	"workers-ai": [
		"@cf/meta/llama-4-scout-17b-16e-instruct",
		"@cf/google/gemma-4-26b-a4b-it",
		"@cf/google/gemma-3-12b-it",
		"@cf/mistralai/mistral-small-3.1-24b-instruct",
	],
};

/** Whether `vendor` serves `model`; any model passes on a local OpenAI-compatible server. */
export function knownModel(vendor, model) {
	const list = MODELS[vendor];
	return list === undefined || list.includes(String(model).replace(/^models\//, ""));
}

const json = (status, body) =>
	new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** Each vendor's own answer for a model it does not serve: status and body as the vendor sends them. */
export function unknownModelError(vendor, model) {
	switch (vendor) {
		case "grok":
			return json(404, {
				code: "Some requested entity was not found",
				error: `The model ${model} does not exist or your team does not have access to it.`,
			});
		case "deepseek":
			return json(400, {
				error: {
					message: "Model Not Exist",
					type: "invalid_request_error",
					param: null,
					code: "invalid_request_error",
				},
			});
		case "kimi":
			return json(404, {
				error: { message: `Not found the model ${model} or Permission denied`, type: "resource_not_found_error" },
			});
		case "gemini":
			return json(404, {
				error: {
					code: 404,
					message: `models/${model} is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.`,
					status: "NOT_FOUND",
				},
			});
		case "claude":
			return json(404, { type: "error", error: { type: "not_found_error", message: `model: ${model}` } });
		default:
			return json(404, {
				error: {
					message: `The model \`${model}\` does not exist or you do not have access to it.`,
					type: "invalid_request_error",
					param: null,
					code: "model_not_found",
				},
			});
	}
}

/** The vendor's reply to its models endpoint (GET .../models), in its own shape. */
export function modelList(vendor) {
	const names = MODELS[vendor] ?? ["local-model"];
	if (vendor === "gemini") {
		return json(200, {
			models: names.map((name) => ({
				name: `models/${name}`,
				displayName: name,
				supportedGenerationMethods: ["generateContent", "countTokens"],
			})),
		});
	}
	if (vendor === "claude") {
		return json(200, {
			data: names.map((id) => ({ type: "model", id, display_name: id, created_at: "2026-09-28T00:00:00Z" })),
			has_more: false,
			first_id: names[0],
			last_id: names.at(-1),
		});
	}
	return json(200, {
		object: "list",
		data: names.map((id) => ({ id, object: "model", created: 1_790_000_000, owned_by: vendor })),
	});
}
