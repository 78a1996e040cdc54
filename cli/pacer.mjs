/**
 * Keeps a batch under the key's rate limit. Every answer carries RateLimit-Remaining and RateLimit-Reset;
 * the pacer lets a request start only while the last known remaining budget, less the requests started
 * since, is above zero, and holds everyone after a 429 until Retry-After has passed.
 */

import { sleep } from "./sleep.mjs";

export class RatePacer {
	#remaining = Number.POSITIVE_INFINITY;
	#resetAt = 0;
	#pausedUntil = 0;
	#inFlight = 0;

	/** Waits until a request may start (or `signal` aborts), then counts it as started. */
	async acquire(signal) {
		for (;;) {
			const now = Date.now();
			if (signal?.aborted) break;
			if (now < this.#pausedUntil) {
				await sleep(this.#pausedUntil - now, signal);
				continue;
			}
			if (this.#remaining <= 0) {
				if (now < this.#resetAt) {
					await sleep(this.#resetAt - now, signal);
					continue;
				}
				// The window has moved on: one request may go and bring back fresh numbers.
				this.#remaining = 1;
			}
			break;
		}
		this.#remaining -= 1;
		this.#inFlight += 1;
	}

	/** Called once per started request, with the rate state its answer carried (if any). */
	release(rate) {
		this.#inFlight -= 1;
		if (!rate) return;
		// Requests still in flight may not be counted in this answer yet: assume they are not.
		this.#remaining = rate.remaining - this.#inFlight;
		this.#resetAt = Date.now() + rate.reset * 1000;
	}

	/** After a 429, nobody starts before `seconds` have passed. */
	pause(seconds) {
		this.#pausedUntil = Math.max(this.#pausedUntil, Date.now() + seconds * 1000);
	}
}
