/**
 * Who answers for each translator name, over which wire protocol, configured by which
 * variables (DESIGN.md, Configuration). Defaults are each vendor's current, reasonably priced
 * model that sees images (DeepSeek's is used text only), checked against the vendors' own
 * documentation on 2026-11-24 (docs/vendors.md has the source of each); every one is
 * overridable by *_MODEL, and `npm run vendors` tells whether a configured one works.
 */
import type { Env } from "../env";
import type { Translator } from "../request/options";
import type { BoxField } from "./contract";
import { ModelError } from "./errors";

export type Protocol = "openai-chat" | "gemini" | "anthropic" | "workers-ai";
export type VendorName = Translator | "workers-ai";

export interface VendorSpec {
	name: VendorName;
	protocol: Protocol;
	/** Vision-capable: can read the image, and sees it for context when translating. */
	canSee: boolean;
	/** OpenAI-compatible vendors differ in structured output: a JSON schema, or only JSON mode. */
	jsonSchema: boolean;
	/** Gemini is trained to answer boxes as box_2d; asking in its own form reads better. */
	boxField: BoxField;
	keyVar?: keyof Env;
	baseUrlVar?: keyof Env;
	modelVar: keyof Env;
	defaultBaseUrl?: string;
	defaultModel: string;
}

export const VENDORS: Readonly<Record<VendorName, VendorSpec>> = {
	grok: {
		name: "grok",
		protocol: "openai-chat",
		canSee: true,
		jsonSchema: true,
		boxField: "box",
		keyVar: "XAI_API_KEY",
		baseUrlVar: "XAI_BASE_URL",
		modelVar: "XAI_MODEL",
		defaultBaseUrl: "https://api.x.ai/v1",
		defaultModel: "grok-4.3",
	},
	gemini: {
		name: "gemini",
		protocol: "gemini",
		canSee: true,
		jsonSchema: true,
		boxField: "box_2d",
		keyVar: "GEMINI_API_KEY",
		baseUrlVar: "GEMINI_BASE_URL",
		modelVar: "GEMINI_MODEL",
		defaultBaseUrl: "https://generativelanguage.googleapis.com/v1beta",
		defaultModel: "gemini-3.8-flash",
	},
	deepseek: {
		name: "deepseek",
		protocol: "openai-chat",
		canSee: false,
		jsonSchema: false,
		boxField: "box",
		keyVar: "DEEPSEEK_API_KEY",
		baseUrlVar: "DEEPSEEK_BASE_URL",
		modelVar: "DEEPSEEK_MODEL",
		defaultBaseUrl: "https://api.deepseek.com",
		defaultModel: "deepseek-flash",
	},
	kimi: {
		name: "kimi",
		protocol: "openai-chat",
		canSee: true,
		jsonSchema: false,
		boxField: "box",
		keyVar: "MOONSHOT_API_KEY",
		baseUrlVar: "MOONSHOT_BASE_URL",
		modelVar: "MOONSHOT_MODEL",
		defaultBaseUrl: "https://api.moonshot.ai/v1",
		defaultModel: "kimi-k2.6",
	},
	chatgpt: {
		name: "chatgpt",
		protocol: "openai-chat",
		canSee: true,
		jsonSchema: true,
		boxField: "box",
		keyVar: "OPENAI_API_KEY",
		baseUrlVar: "OPENAI_BASE_URL",
		modelVar: "OPENAI_MODEL",
		defaultBaseUrl: "https://api.openai.com/v1",
		defaultModel: "gpt-6.1-terra",
	},
	claude: {
		name: "claude",
		protocol: "anthropic",
		canSee: true,
		jsonSchema: true,
		boxField: "box",
		keyVar: "ANTHROPIC_API_KEY",
		baseUrlVar: "ANTHROPIC_BASE_URL",
		modelVar: "ANTHROPIC_MODEL",
		defaultBaseUrl: "https://api.anthropic.com",
		defaultModel: "claude-sonnet-5-5",
	},
	"workers-ai": {
		name: "workers-ai",
		protocol: "workers-ai",
		canSee: true,
		jsonSchema: true,
		boxField: "box",
		modelVar: "WORKERS_AI_MODEL",
		defaultModel: "@cf/meta/llama-4-scout-17b-16e-instruct",
	},
};

/** Order in which an unset READER falls back to a vision-capable vendor that has a key (DESIGN.md). */
const READER_FALLBACK: readonly Translator[] = ["gemini", "chatgpt", "claude", "grok", "kimi"];

/** A vendor with its configuration resolved: everything a client needs to call it. */
export interface Endpoint {
	spec: VendorSpec;
	model: string;
	/** Absent for Workers AI, which is reached through the AI binding instead. */
	key?: string;
	baseUrl?: string;
	ai?: Ai;
}

/** Resolves a vendor's key, base URL and model; a missing key fails with a detail naming the variable. */
export function endpointFor(env: Env, name: VendorName): Endpoint {
	const spec = VENDORS[name];
	const model = configured(env, spec.modelVar) ?? spec.defaultModel;
	if (spec.protocol === "workers-ai") {
		if (!env.AI) throw notConfigured("READER is workers-ai but the AI binding is not configured");
		return { spec, model, ai: env.AI };
	}
	const key = spec.keyVar ? configured(env, spec.keyVar) : undefined;
	if (!key) throw notConfigured(`${spec.keyVar} is not set`);
	const baseUrl = (spec.baseUrlVar && configured(env, spec.baseUrlVar)) || spec.defaultBaseUrl || "";
	return { spec, model, key, baseUrl: baseUrl.replace(/\/+$/, "") };
}

/**
 * Who reads the image for a call to `translator`: READER when set, else the translator
 * itself when it can see, else the first vision-capable vendor with a key. Workers AI is
 * only ever chosen by READER=workers-ai; the requested translator still translates (its
 * client speaks both tasks, so making it translate too is a choice here, not new code).
 */
export function readerFor(env: Env, translator: Translator): VendorName {
	const chosen = configured(env, "READER")?.toLowerCase();
	if (chosen) {
		const spec = (VENDORS as Record<string, VendorSpec | undefined>)[chosen];
		if (!spec?.canSee) throw notConfigured(`READER "${chosen}" cannot read images; use a vision model or workers-ai`);
		return spec.name;
	}
	if (VENDORS[translator].canSee) return translator;
	const fallback = READER_FALLBACK.find((name) => {
		const keyVar = VENDORS[name].keyVar;
		return keyVar !== undefined && configured(env, keyVar) !== undefined;
	});
	if (fallback) return fallback;
	const keys = READER_FALLBACK.map((name) => VENDORS[name].keyVar).join(", ");
	throw notConfigured(`${translator} cannot see images and no reader is configured: set one of ${keys} or READER`);
}

function configured(env: Env, name: keyof Env): string | undefined {
	const value = env[name];
	return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

function notConfigured(message: string): ModelError {
	return new ModelError("not-configured", message);
}
