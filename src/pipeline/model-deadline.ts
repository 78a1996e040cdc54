/**
 * The time the models get in one call: one deadline for all of their work, derived from the
 * reservation timeout (src/call-limits.ts), and a limit per attempt (MODEL_TIMEOUT_MS) that
 * can never exceed it.
 */
import { MODEL_WORK_DEADLINE_MS } from "../call-limits";
import type { Env } from "../env";
import type { AskContext } from "../models/ask-model";

/** Per attempt, when MODEL_TIMEOUT_MS is not set. */
export const DEFAULT_MODEL_TIMEOUT_MS = 60_000;

export function modelAskContext(env: Env, signal: AbortSignal, startedAt = Date.now()): AskContext {
	const configured = Number(env.MODEL_TIMEOUT_MS);
	const perAttempt = configured > 0 ? configured : DEFAULT_MODEL_TIMEOUT_MS;
	return {
		signal,
		deadline: startedAt + MODEL_WORK_DEADLINE_MS,
		attemptTimeoutMs: Math.min(perAttempt, MODEL_WORK_DEADLINE_MS),
	};
}
