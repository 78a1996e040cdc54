/** The HTTP plumbing the fetch-based protocols share, and how vendors' error replies are read. */
import { ContractError, ModelError, retryAfterMs } from "./errors";

/** POSTs JSON and returns the parsed JSON reply; an error status becomes a classified ModelError. */
export async function postJson(
	url: string,
	headers: Record<string, string>,
	body: object,
	signal: AbortSignal,
): Promise<unknown> {
	let response: Response;
	try {
		response = await fetch(url, {
			method: "POST",
			headers: { "content-type": "application/json", ...headers },
			body: JSON.stringify(body),
			signal,
		});
	} catch (error) {
		if (signal.aborted) throw error;
		throw new ModelError("transient", "the vendor could not be reached");
	}
	if (!response.ok) {
		const text = await response.text().catch(() => "");
		throw errorFromReply(response.status, text, response.headers.get("retry-after"));
	}
	try {
		return await response.json();
	} catch {
		throw new ContractError("the vendor's reply is not JSON");
	}
}

/**
 * Reads a vendor's error reply into a kind. Only the kind, the status and the wait are kept:
 * the body may echo the key (xAI's "Incorrect API key provided: xai-ab***").
 */
export function errorFromReply(status: number, bodyText: string, retryAfterHeader: string | null): ModelError {
	const text = bodyText.toLowerCase();
	const wait = retryAfterMs(retryAfterHeader) ?? googleRetryDelayMs(bodyText);
	const details = { status, ...(wait !== undefined ? { retryAfterMs: wait } : {}) };
	// Gemini answers a wrong key with 400 API_KEY_INVALID, xAI with 400 "Incorrect API key provided".
	if (
		status === 401 ||
		status === 403 ||
		/api_key_invalid|incorrect api key|invalid api key|invalid x-api-key/.test(text)
	) {
		return new ModelError("auth", `the vendor refused the key (HTTP ${status})`, details);
	}
	if ((status === 404 || status === 400) && mentionsMissingModel(text)) {
		return new ModelError("unknown-model", `the vendor does not know the model (HTTP ${status})`, details);
	}
	if (status === 408 || status === 409 || status === 429 || status >= 500) {
		return new ModelError("transient", `the vendor answered HTTP ${status}`, details);
	}
	const about = /image|vision|multimodal/.test(text)
		? "image"
		: /response_format|json_schema|responsejsonschema|responseschema|output_config|structured output/.test(text)
			? "output-format"
			: undefined;
	return new ModelError("rejected", `the vendor rejected the request (HTTP ${status})`, {
		...details,
		...(about ? { about } : {}),
	});
}

/**
 * Each vendor's words for an unknown or retired model: OpenAI and xAI "The model `x` does not
 * exist", DeepSeek "Model Not Exist", Moonshot "Not found the model", Gemini "models/x is not
 * found", Anthropic's not_found_error "model: x".
 */
function mentionsMissingModel(text: string): boolean {
	if (!text.includes("model")) return false;
	return /not exist|not found|no such model|unknown model|retired|decommissioned|not_found_error|model_not_found/.test(
		text,
	);
}

/** Gemini's 429 says how long to wait in the body: details[].retryDelay "37s" of a google.rpc.RetryInfo. */
function googleRetryDelayMs(bodyText: string): number | undefined {
	let body: unknown;
	try {
		body = JSON.parse(bodyText);
	} catch {
		return undefined;
	}
	for (const detail of listAt(body, "error", "details")) {
		const delay = at(detail, "retryDelay");
		const m = typeof delay === "string" ? /^(\d+(?:\.\d+)?)s$/.exec(delay.trim()) : null;
		if (m) return Math.round(Number(m[1]) * 1000);
	}
	return undefined;
}

/** Reads a field deep inside a vendor reply whose every level may be missing: `at(reply, "choices", 0, "message")`. */
export function at(value: unknown, ...path: (string | number)[]): unknown {
	let current = value;
	for (const key of path) {
		if (current === null || typeof current !== "object") return undefined;
		current = (current as Record<string | number, unknown>)[key];
	}
	return current;
}

/** The reply's array at `path`, or an empty one. */
export function listAt(value: unknown, ...path: (string | number)[]): unknown[] {
	const found = at(value, ...path);
	return Array.isArray(found) ? found : [];
}
