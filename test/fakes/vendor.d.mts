/** Types for vendor.mjs, so TypeScript tests can drive the fake. */
export type Fault =
	/** `retryDelay` ("2s"): Gemini's wait in a 429's body. */
	| { status: number; retryAfter?: string; retryDelay?: string }
	/** The model refused, or the safety filter blocked it, in the vendor's own shape. */
	| { declined: "refusal" | "safety" }
	| { hang: true }
	| { malformed: "garbage" | "blank" | "truncated" | "wrong-shape" }
	| { fixture: string }
	/** A normal answer: lets a test place a fault on a later call. */
	| Record<string, never>;

/** How often the rough reader does each thing to a region (rough.mjs, ROUGH_DEFAULTS), and its seed. */
export interface RoughOptions {
	seed?: number;
	shift?: number;
	shrink?: number;
	grow?: number;
	cut?: number;
	merge?: number;
	split?: number;
	duplicate?: number;
}

/** What a read or translation asked for, as the fake worked it out. */
export interface FakeTask {
	kind: "read" | "read-translate" | "translate";
	source?: string;
	target?: string;
	items?: { id: number; text: string }[];
	boxField: "box" | "box_2d";
	sent?: { width: number; height: number };
}

/** Answers in place of the fixtures: a `regions` document for reads, `translations` for translations. */
export type FakeReader = (task: FakeTask, image?: { mime: string; base64: string }) => object | Promise<object>;

export interface FakeOptions {
	fixture?: string;
	reader?: FakeReader;
	rough?: boolean | number | RoughOptions;
	form?: "plain" | "fence" | "prose" | "text";
	latencyMs?: number;
	keys?: Partial<Record<string, string>>;
	faults?: Fault[];
	/** Answers are written at this many output tokens a second (unset: at once). */
	tokensPerSecond?: number;
	/** Workers AI: answer in the OpenAI shape (`choices`) instead of `{ response }`. */
	aiShape?: "response" | "choices";
}

export interface FakeCall {
	protocol: "openai-chat" | "gemini" | "anthropic" | "workers-ai" | undefined;
	vendor: string;
	url?: string;
	model?: string;
	headers?: Record<string, string>;
	// biome-ignore lint/suspicious/noExplicitAny: a recorded request body is whatever the client sent
	body: any;
	/** HTTP status of the vendor-style rejection, when the request broke the protocol. */
	rejected?: number;
	task?: FakeTask;
	/** Output tokens of the answer (as tokenize() counts them). */
	outputTokens?: number;
}

export interface FakeVendor {
	calls: FakeCall[];
	handle(request: Request, overrides?: Record<string, unknown>): Promise<Response>;
	fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response>;
	ai: { run(model: string, inputs: object, options?: { signal?: AbortSignal }): Promise<unknown> };
}

export function createFakeVendor(options?: FakeOptions): FakeVendor;
export function tokenize(text: string): string[];
export function imageSize(base64: string): { width: number; height: number } | undefined;
