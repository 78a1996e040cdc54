/**
 * The Idempotency-Key of a file: a hash of its bytes and the options, so the same image sent with the
 * same options is one call however often the batch is re-run, and any change (another language, an
 * edited page) is a new call.
 */
import { createHash } from "node:crypto";

export function idempotencyKey(bytes, options, salt = "") {
	const normalized = Object.fromEntries(
		Object.entries(options)
			.sort(([a], [b]) => a.localeCompare(b))
			// The service matches these case-insensitively; so does the key.
			.map(([name, value]) => [name, name === "customPrompt" ? value : String(value).toLowerCase()]),
	);
	const hash = createHash("sha256")
		.update(`yakusu-cli/1\n${JSON.stringify(normalized)}\n${salt}\n`)
		.update(bytes)
		.digest("base64url");
	return `cli-${hash}`;
}
