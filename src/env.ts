import type { Account } from "./state/account";
import type { ApiKey } from "./state/api-key";

/** Bindings, vars and secrets of the Worker (wrangler.toml, `.dev.vars`, `wrangler secret`). */
export interface Env {
	API_KEY: DurableObjectNamespace<ApiKey>;
	ACCOUNT: DurableObjectNamespace<Account>;
	ASSETS: Fetcher;
	AI?: Ai;

	/** Enables /admin when set. */
	ADMIN_TOKEN?: string;
	/** Who reads the image: a vision-capable translator or `workers-ai`. */
	READER?: string;
	/** Per model call, in milliseconds. */
	MODEL_TIMEOUT_MS?: string;
	WORKERS_AI_MODEL?: string;

	XAI_API_KEY?: string;
	XAI_BASE_URL?: string;
	XAI_MODEL?: string;
	GEMINI_API_KEY?: string;
	GEMINI_BASE_URL?: string;
	GEMINI_MODEL?: string;
	DEEPSEEK_API_KEY?: string;
	DEEPSEEK_BASE_URL?: string;
	DEEPSEEK_MODEL?: string;
	MOONSHOT_API_KEY?: string;
	MOONSHOT_BASE_URL?: string;
	MOONSHOT_MODEL?: string;
	OPENAI_API_KEY?: string;
	OPENAI_BASE_URL?: string;
	OPENAI_MODEL?: string;
	ANTHROPIC_API_KEY?: string;
	ANTHROPIC_BASE_URL?: string;
	ANTHROPIC_MODEL?: string;
}
