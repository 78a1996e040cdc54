import type { Env } from "../env";
import type { ApiKey, RateState } from "../state/api-key";
import { looksLikeApiKey, sha256Hex } from "../state/credentials";
import { problem, rateLimitHeaders } from "./answers";

export interface Admitted {
	key: DurableObjectStub<ApiKey>;
	keyId: string;
	accountId: string;
	rate: RateState;
}

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** Request handling steps 2 to 4: authentication, plan, rate limit. A Response means refused. */
export async function admit(env: Env, authorization: string | undefined, now: number): Promise<Admitted | Response> {
	const token = authorization?.match(BEARER)?.[1];
	if (!token) return problem(401, "Missing or malformed Authorization header: expected `Bearer <API key>`");
	if (!looksLikeApiKey(token)) return problem(401, "Invalid API key");

	const hash = await sha256Hex(token);
	const key = env.API_KEY.get(env.API_KEY.idFromName(hash));
	const gate = await key.gate(hash, now);
	switch (gate.kind) {
		case "unauthorized":
			return problem(401, "Invalid API key");
		case "forbidden":
			return problem(403, "Your plan does not include API access: Professional or above is required");
		case "limited":
			return problem(429, `Rate limit of ${gate.limit} requests per minute exceeded`, {
				...rateLimitHeaders(gate),
				"Retry-After": String(gate.retryAfter),
			});
		case "ok":
			return { key, keyId: gate.keyId, accountId: gate.accountId, rate: gate };
	}
}
