/**
 * One model request: a time limit per attempt within the call's deadline, the caller's
 * cancellation, and one more attempt (after the vendor's stated wait, or a short backoff)
 * only for what a retry can fix. Every failure ends as a ModelError saying what happened.
 */
import { ModelError, retryable } from "./errors";
import type { ModelAsk } from "./model-ask";
import { sendAnthropic } from "./protocol-anthropic";
import { sendGemini } from "./protocol-gemini";
import { sendOpenAiChat } from "./protocol-openai-chat";
import { sendWorkersAi } from "./protocol-workers-ai";
import type { Endpoint, Protocol } from "./vendors";

/** One round trip: resolves to the JSON document the model answered, or throws. */
export type Send = (endpoint: Endpoint, ask: ModelAsk, signal: AbortSignal) => Promise<unknown>;

const SENDERS: Record<Protocol, Send> = {
	"openai-chat": sendOpenAiChat,
	gemini: sendGemini,
	anthropic: sendAnthropic,
	"workers-ai": sendWorkersAi,
};

/** First retry waits about this long (with jitter) when the vendor did not say. */
const BACKOFF_MS = 400;
/** A stated wait longer than this is not worth holding the client for: fail now. */
const MAX_RETRY_WAIT_MS = 20_000;
/** A retry that could not run at least this long before the deadline is not started. */
const MIN_ATTEMPT_MS = 2_000;

export interface AskContext {
	/** Aborted when the caller goes away. */
	signal: AbortSignal;
	/** Epoch ms by which every attempt and every wait has ended. */
	deadline: number;
	/** The longest one attempt may take (the deadline may cut it shorter). */
	attemptTimeoutMs: number;
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
	let last: ModelError | undefined;
	for (let attempt = 0; attempt < 2; attempt++) {
		if (last) {
			const wait = retryWait(last);
			if (wait > MAX_RETRY_WAIT_MS || Date.now() + wait + MIN_ATTEMPT_MS > ctx.deadline) break;
			await pause(wait, ctx.signal);
		}
		if (ctx.signal.aborted) throw cancelled();
		const limit = Math.min(ctx.attemptTimeoutMs, ctx.deadline - Date.now());
		if (limit <= 0) throw last ?? new ModelError("timeout", "the call's deadline passed", { limitMs: 0 });
		const timeout = AbortSignal.timeout(limit);
		try {
			const document = await send(endpoint, ask, AbortSignal.any([ctx.signal, timeout]));
			return accept(document);
		} catch (error) {
			if (ctx.signal.aborted) throw cancelled();
			last = timeout.aborted
				? new ModelError("timeout", `no answer within ${limit} ms`, { limitMs: limit })
				: asModelError(error);
			if (!retryable(last)) break;
		}
	}
	throw last;
}

function retryWait(error: ModelError): number {
	return error.details.retryAfterMs ?? BACKOFF_MS * (1 + Math.random() * 0.5);
}

function asModelError(error: unknown): ModelError {
	if (error instanceof ModelError) return error;
	return new ModelError("transient", "the vendor could not be reached");
}

function cancelled(): ModelError {
	return new ModelError("cancelled", "the caller went away");
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
