/**
 * API keys: `sk_yakusu_` + base64url of 32 random bytes. Only the SHA-256 of a key is stored;
 * the key itself exists in the admin's answer once and in the client's hands.
 */
const PREFIX = "sk_yakusu_";
const SHAPE = /^sk_yakusu_[A-Za-z0-9_-]{43}$/;

export function newApiKey(): string {
	const bytes = crypto.getRandomValues(new Uint8Array(32));
	let binary = "";
	for (const b of bytes) binary += String.fromCharCode(b);
	return PREFIX + btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

export function looksLikeApiKey(value: string): boolean {
	return SHAPE.test(value);
}

export async function sha256Hex(value: string): Promise<string> {
	const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value));
	return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Compares two secrets without leaking, through timing, where they first differ. */
export function secretsEqual(a: string, b: string): boolean {
	const encoder = new TextEncoder();
	const left = encoder.encode(a);
	const right = encoder.encode(b);
	// timingSafeEqual needs equal lengths; comparing a against itself keeps the time constant.
	if (left.byteLength !== right.byteLength) {
		crypto.subtle.timingSafeEqual(left, left);
		return false;
	}
	return crypto.subtle.timingSafeEqual(left, right);
}
