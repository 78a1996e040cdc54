/** The HTTP plumbing the fetch-based protocols share. */
import { ContractError, retryAfterMs, VendorHttpError } from "./errors";

/** POSTs JSON and returns the parsed JSON reply; an error status becomes VendorHttpError. */
export async function postJson(
	url: string,
	headers: Record<string, string>,
	body: object,
	signal: AbortSignal,
): Promise<unknown> {
	const response = await fetch(url, {
		method: "POST",
		headers: { "content-type": "application/json", ...headers },
		body: JSON.stringify(body),
		signal,
	});
	if (!response.ok) {
		// Read (and drop) the body: Gemini says "API_KEY_INVALID" in a 400; nothing of it is kept.
		const text = await response.text().catch(() => "");
		throw new VendorHttpError(
			response.status,
			retryAfterMs(response.headers.get("retry-after")),
			text.includes("API_KEY_INVALID"),
		);
	}
	try {
		return await response.json();
	} catch {
		throw new ContractError("the vendor's reply is not JSON");
	}
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
