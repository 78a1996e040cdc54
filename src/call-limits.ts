/**
 * How long one call may hold its credits, and the share of it the models may use. State (the
 * reservation alarm, abandoned idempotency claims) and the pipeline (the model deadline) both
 * import this module, so neither imports the other.
 */

/** A reservation neither committed nor refunded after this long belongs to a Worker that died. */
export const RESERVATION_TIMEOUT_MS = 5 * 60 * 1000;

/**
 * All model work of a call (reads, translations, their retries and waits) ends within this much
 * of the pipeline's start: half the reservation, so decoding before it and erasing, typesetting
 * and streaming after it still end well before the alarm would refund a call that is alive.
 */
export const MODEL_WORK_DEADLINE_MS = RESERVATION_TIMEOUT_MS / 2;
