/**
 * One file's request, retried the way the API asks: 429 waits for Retry-After (never charged), 5xx and
 * network failures back off exponentially (500 is refunded, and the Idempotency-Key released, so the
 * same key may be sent again), and so does a 409 whose first call is still in progress (it either
 * finishes or is refunded and frees the key). Other answers are final, and so is an interruption.
 */
import { replayInProgress } from "./api.mjs";
import { sleep } from "./sleep.mjs";

/** 429s are free and expected in a big batch; this only stops a client that would otherwise wait forever. */
const MAX_RATE_LIMITED = 30;

/** 1 s, 2 s, 4 s, ... up to 30 s, each between half and all of that, so parallel retries spread out. */
export function backoffMs(failures) {
	const ceiling = Math.min(30_000, 1000 * 2 ** (failures - 1));
	return ceiling / 2 + Math.random() * (ceiling / 2);
}

function isRetryable(answer) {
	return answer.error !== undefined || answer.status >= 500 || replayInProgress(answer);
}

/**
 * @param send     () => Promise<answer>, one attempt
 * @param onWait   (message) => void, told why and how long we wait
 * @param signal   aborts waiting and retrying: the last answer (or the abort) is returned
 */
export async function sendWithRetries({ send, pacer, retries, onWait, signal }) {
	let failures = 0;
	let rateLimited = 0;
	for (;;) {
		await pacer.acquire(signal);
		if (signal?.aborted) {
			pacer.release();
			return { error: signal.reason, interrupted: true };
		}
		let answer;
		try {
			answer = await send();
		} catch (error) {
			answer = { error };
		}
		pacer.release(answer.rate);
		if (signal?.aborted) return { ...answer, interrupted: true };

		if (answer.status === 429 && rateLimited < MAX_RATE_LIMITED) {
			rateLimited += 1;
			const wait = answer.retryAfter ?? backoffMs(rateLimited) / 1000;
			pacer.pause(wait);
			onWait(`rate limited, waiting ${Math.ceil(wait)} s`);
			continue;
		}
		if (isRetryable(answer) && failures < retries) {
			failures += 1;
			const waitMs = answer.retryAfter !== undefined ? answer.retryAfter * 1000 : backoffMs(failures);
			const why = answer.error ? "network error" : replayInProgress(answer) ? "still in progress" : `${answer.status}`;
			onWait(`${why}, retry ${failures}/${retries} in ${Math.ceil(waitMs / 1000)} s`);
			await sleep(waitMs, signal);
			continue;
		}
		return answer;
	}
}
