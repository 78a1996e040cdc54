/** Plans and what they allow (spec "Limits"): only professional and enterprise include API access. */
export const PLANS = ["free", "starter", "professional", "enterprise"] as const;
export type Plan = (typeof PLANS)[number];

/** Requests per sliding minute per API key, or null when the plan has no API access. */
export function requestsPerMinute(plan: Plan): number | null {
	switch (plan) {
		case "professional":
			return 60;
		case "enterprise":
			return 300;
		default:
			return null;
	}
}

export const CALL_COST = 10;
