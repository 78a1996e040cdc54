import type { Env } from "../env";
import type { Account, CallOutcome } from "./account";
import type { ApiKey } from "./api-key";

/**
 * Settles one accepted call across its two objects, in the order that keeps the books true
 * (docs/storage.md, "A call's life"):
 *
 *   commit     before the image streams: the charge, and the balance the 200 reports
 *   delivered  once the whole body was handed over: the charge is final, the key answers "finished"
 *   refund     on any failure, before or after the commit, and when the client left before it had
 *              the whole image: credits back once, and only then the Idempotency-Key released
 *
 * Each step is one synchronous transaction in its object. If the Worker dies between steps, the
 * account's alarm refunds what was never delivered and the key frees itself at the same timeout.
 */
export class CallSettlement {
	private readonly account: DurableObjectStub<Account>;

	constructor(
		env: Env,
		accountId: string,
		private readonly key: DurableObjectStub<ApiKey>,
		readonly recordId: string,
		private readonly idempotencyKey: string | null,
	) {
		this.account = env.ACCOUNT.get(env.ACCOUNT.idFromName(accountId));
	}

	/** The charge; returns the balance after it (`remainingCredit`). */
	async commit(outcome: CallOutcome): Promise<number> {
		const { balance } = await this.account.commit(this.recordId, outcome, Date.now());
		return balance;
	}

	async delivered(): Promise<void> {
		const now = Date.now();
		await Promise.all([
			this.account.delivered(this.recordId, now),
			this.idempotencyKey === null ? undefined : this.key.finish(this.idempotencyKey, this.recordId),
		]);
	}

	/** Refunds unless the call was delivered or refunded already; true when this call gave the credits back. */
	async refund(outcome: CallOutcome & { error: string }): Promise<boolean> {
		const { changed } = await this.account.refund(this.recordId, outcome, Date.now());
		if (changed && this.idempotencyKey !== null) await this.key.release(this.idempotencyKey, this.recordId);
		return changed;
	}
}
