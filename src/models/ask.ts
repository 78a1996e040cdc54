/**
 * One model request as the pipeline sees it: a per-call timeout, the client's disconnect,
 * one retry with backoff (honouring Retry-After) for what a retry can fix, and every
 * failure turned into a PipelineError whose detail is safe to show the client.
 */
import type { Env } from "../env";
import { PipelineError } from "../pipeline/errors";
import { ContractError, ModelTimeoutError, VendorHttpError } from "./errors";
import { sendAnthropic } from "./protocol-anthropic";
import { sendGemini } from "./protocol-gemini";
import { sendOpenAiChat } from "./protocol-openai-chat";
import { sendWorkersAi } from "./protocol-workers-ai";
import type { Endpoint, Protocol } from "./vendors";

/** What we ask a model, whatever its protocol. */
export interface ModelAsk {
	system: string;
	/** The user message's text (for translating: the contract's input JSON). */
	text: string;
	/** The reader copy, or the image shown for context. */
	image?: SentImage;
	/** Root property of the answer: tells the two tasks apart (DESIGN.md). */
	root: "regions" | "translations";
	schema: object;
	maxTokens: number;
}

export interface SentImage {
	mime: "image/jpeg";
	base64: string;
	width: number;
	height: number;
}

/** One HTTP round trip: resolves to the JSON document the model answered, or throws. */
export type Send = (endpoint: Endpoint, ask: ModelAsk, signal: AbortSignal) => Promise<unknown>;

const SENDERS: Record<Protocol, Send> = {
	"openai-chat": sendOpenAiChat,
	gemini: sendGemini,
	anthropic: sendAnthropic,
	"workers-ai": sendWorkersAi,
};

export const DEFAULT_TIMEOUT_MS = 60_000;
/** First retry waits about this long (with jitter) when the vendor did not say. */
const BACKOFF_MS = 400;
/** A Retry-After longer than this is not worth holding the client for: fail now. */
const MAX_RETRY_WAIT_MS = 20_000;

export interface AskContext {
	env: Env;
	signal: AbortSignal;
}

/**
 * Sends `ask` and hands the answer to `accept`, which parses it and throws ContractError
 * when it breaks the contract. At most two attempts.
 */
export async function askModel<T>(
	endpoint: Endpoint,
	ask: ModelAsk,
	ctx: AskContext,
	accept: (document: unknown) => T,
): Promise<T> {
	const send = SENDERS[endpoint.spec.protocol];
	const timeoutMs = Number(ctx.env.MODEL_TIMEOUT_MS) > 0 ? Number(ctx.env.MODEL_TIMEOUT_MS) : DEFAULT_TIMEOUT_MS;
	let lastError: unknown;
	for (let attempt = 0; attempt < 2; attempt++) {
		if (attempt > 0) await pause(retryDelay(lastError, endpoint), ctx.signal);
		if (ctx.signal.aborted) throw disconnected();
		const timeout = AbortSignal.timeout(timeoutMs);
		try {
			const document = await send(endpoint, ask, AbortSignal.any([ctx.signal, timeout]));
			return accept(document);
		} catch (error) {
			if (ctx.signal.aborted) throw disconnected();
			lastError = timeout.aborted ? new ModelTimeoutError(`no answer within ${timeoutMs} ms`) : error;
			if (!retryable(lastError)) break;
		}
	}
	throw failure(lastError, endpoint, timeoutMs);
}

function retryable(error: unknown): boolean {
	if (error instanceof VendorHttpError) {
		if (error.status === 401 || error.status === 403 || error.badKey) return false;
		return error.status === 408 || error.status === 409 || error.status === 429 || error.status >= 500;
	}
	// Timeouts, broken contracts, network failures and Workers AI's thrown errors.
	return true;
}

/** How long to wait before the retry; throws when the vendor asks for longer than we can hold the client. */
function retryDelay(error: unknown, endpoint: Endpoint): number {
	if (error instanceof VendorHttpError && error.retryAfterMs !== undefined) {
		if (error.retryAfterMs > MAX_RETRY_WAIT_MS) throw failure(error, endpoint, 0);
		return error.retryAfterMs;
	}
	return BACKOFF_MS * (1 + Math.random() * 0.5);
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
	if (signal.aborted) return Promise.resolve();
	return new Promise((resolve) => {
		const timer = setTimeout(done, ms);
		signal.addEventListener("abort", done, { once: true });
		function done() {
			clearTimeout(timer);
			signal.removeEventListener("abort", done);
			resolve();
		}
	});
}

function disconnected(): PipelineError {
	return new PipelineError("Translation cancelled: the client disconnected");
}

function failure(error: unknown, endpoint: Endpoint, timeoutMs: number): PipelineError {
	const who = endpoint.spec.name;
	const options = { cause: error };
	if (error instanceof VendorHttpError) {
		if (error.status === 401 || error.status === 403 || error.badKey) {
			return new PipelineError("translator authentication failed", 500, options);
		}
		if (error.status === 429)
			return new PipelineError(`Translation failed: ${who} is rate limited (HTTP 429)`, 500, options);
		return new PipelineError(`Translation failed: ${who} answered HTTP ${error.status}`, 500, options);
	}
	if (error instanceof ModelTimeoutError) {
		return new PipelineError(`Translation failed: ${who} did not answer within ${timeoutMs / 1000} s`, 500, options);
	}
	if (error instanceof ContractError) {
		return new PipelineError(`Translation failed: ${who}'s reply did not follow the output format`, 500, options);
	}
	return new PipelineError(`Translation failed: ${who} could not be reached`, 500, options);
}
