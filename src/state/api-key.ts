import { DurableObject } from "cloudflare:workers";
import { RESERVATION_TIMEOUT_MS } from "../call-limits";
import type { Env } from "../env";
import type { CallDescription } from "./account";
import { alarmForOldest } from "./alarm";
import { secretsEqual } from "./credentials";
import { newRecordId } from "./ids";
import { type Plan, requestsPerMinute } from "./plans";

export const RATE_WINDOW_MS = 60_000;
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export interface RateState {
	limit: number;
	remaining: number;
	/** Seconds until the oldest request in the window leaves it. */
	reset: number;
}

export type GateResult =
	| { kind: "unauthorized" }
	| { kind: "forbidden" }
	| ({ kind: "limited"; retryAfter: number } & RateState)
	| ({ kind: "ok"; keyId: string; accountId: string } & RateState);

export type AcceptResult =
	| { kind: "accepted"; recordId: string }
	| { kind: "replay"; recordId: string; replay: Replay }
	| { kind: "insufficient" };

/**
 * What a repeated Idempotency-Key found: a call whose image was delivered, or one still in flight
 * (running, streaming, or whose Worker died: then it is refunded and the key freed once
 * `freeInSeconds` have passed, unless it finishes first).
 */
export type Replay = { state: "finished" } | { state: "in-progress"; freeInSeconds: number };

/**
 * One per API key, named by the hex SHA-256 of the key: who the key belongs to, its plan as last
 * told by the account, the sliding rate-limit window and the idempotency keys it has used.
 * It coordinates a call's billing with its Account object. Schema: docs/storage.md.
 */
export class ApiKey extends DurableObject<Env> {
	private readonly sql: SqlStorage;
	/** Idempotency keys whose reservation is being made right now; duplicates wait for the outcome. */
	private readonly claiming = new Map<string, Promise<void>>();

	constructor(ctx: DurableObjectState, env: Env) {
		super(ctx, env);
		this.sql = ctx.storage.sql;
	}

	/**
	 * The schema is written when a key is made, not when the object starts: a request with a
	 * random, well-formed key reaches an object that must stay empty, or anyone could make us
	 * store an object per guess.
	 */
	init(keyHash: string, keyId: string, accountId: string, plan: Plan): void {
		this.sql.exec(`
			CREATE TABLE IF NOT EXISTS key (
				id INTEGER PRIMARY KEY CHECK (id = 1),
				key_hash TEXT NOT NULL, key_id TEXT NOT NULL, account_id TEXT NOT NULL,
				plan TEXT NOT NULL, revoked_at INTEGER);
			CREATE TABLE IF NOT EXISTS hits (t INTEGER NOT NULL);
			CREATE INDEX IF NOT EXISTS hits_t ON hits (t);
			CREATE TABLE IF NOT EXISTS idempotency (
				key TEXT PRIMARY KEY, record_id TEXT NOT NULL,
				state TEXT NOT NULL, created_at INTEGER NOT NULL);
			CREATE INDEX IF NOT EXISTS idempotency_created ON idempotency (created_at);
		`);
		this.sql.exec(
			"INSERT OR REPLACE INTO key (id, key_hash, key_id, account_id, plan) VALUES (1, ?, ?, ?, ?)",
			keyHash,
			keyId,
			accountId,
			plan,
		);
	}

	setPlan(plan: Plan): void {
		this.sql.exec("UPDATE key SET plan = ? WHERE id = 1", plan);
	}

	revoke(now: number): void {
		this.sql.exec("UPDATE key SET revoked_at = coalesce(revoked_at, ?) WHERE id = 1", now);
	}

	/**
	 * Steps 2 to 4 of request handling in one synchronous pass: the key is known and live, its plan
	 * has API access, and the sliding window has room; an admitted request takes a slot.
	 */
	gate(keyHash: string, now: number): GateResult {
		const key = this.key();
		if (!key || key.revoked_at !== null || !secretsEqual(key.key_hash, keyHash)) return { kind: "unauthorized" };
		const limit = requestsPerMinute(key.plan);
		if (limit === null) return { kind: "forbidden" };

		const windowStart = now - RATE_WINDOW_MS;
		this.sql.exec("DELETE FROM hits WHERE t <= ?", windowStart);
		const { used, oldest } = this.sql
			.exec<{ used: number; oldest: number | null }>("SELECT count(*) AS used, min(t) AS oldest FROM hits")
			.one();
		const untilOldestLeaves = (from: number | null) =>
			Math.max(1, Math.ceil(((from ?? now) + RATE_WINDOW_MS - now) / 1000));
		if (used >= limit) {
			const wait = untilOldestLeaves(oldest);
			return { kind: "limited", limit, remaining: 0, reset: wait, retryAfter: wait };
		}
		this.sql.exec("INSERT INTO hits (t) VALUES (?)", now);
		return {
			kind: "ok",
			keyId: key.key_id,
			accountId: key.account_id,
			limit,
			remaining: limit - used - 1,
			reset: untilOldestLeaves(oldest),
		};
	}

	/**
	 * Steps 6 to 8: refuses a used idempotency key, then reserves the call's credits with the
	 * account. A duplicate arriving while the first reservation is under way waits for it, so it
	 * answers 409 only for a call that was really accepted.
	 */
	async accept(
		idempotencyKey: string | null,
		call: Omit<CallDescription, "recordId" | "keyId">,
		now: number,
	): Promise<AcceptResult> {
		const key = this.key();
		if (!key) throw new Error("accept on an uninitialised key");
		if (idempotencyKey === null) return this.reserve(key, call, now);

		for (let pending = this.claiming.get(idempotencyKey); pending; pending = this.claiming.get(idempotencyKey)) {
			await pending;
		}
		const held = this.heldClaim(idempotencyKey, now);
		if (held) return { kind: "replay", ...held };

		let settle = () => {};
		this.claiming.set(idempotencyKey, new Promise<void>((resolve) => (settle = resolve)));
		try {
			const result = await this.reserve(key, call, now);
			if (result.kind === "accepted") {
				this.sql.exec(
					"INSERT OR REPLACE INTO idempotency (key, record_id, state, created_at) VALUES (?, ?, 'pending', ?)",
					idempotencyKey,
					result.recordId,
					now,
				);
				await this.scheduleForgetting();
			}
			return result;
		} finally {
			this.claiming.delete(idempotencyKey);
			settle();
		}
	}

	/** The call's image was delivered: a repeat of its key is answered "finished" from now on. */
	finish(idempotencyKey: string, recordId: string): void {
		this.sql.exec("UPDATE idempotency SET state = 'done' WHERE key = ? AND record_id = ?", idempotencyKey, recordId);
	}

	/**
	 * The call was refunded: its key is free, so a retry with it is processed anew. Only the caller
	 * that really refunded releases it (see CallSettlement), never on a refund that changed nothing.
	 */
	release(idempotencyKey: string, recordId: string): void {
		this.sql.exec("DELETE FROM idempotency WHERE key = ? AND record_id = ?", idempotencyKey, recordId);
	}

	/** Forgets idempotency keys older than a day. */
	override async alarm(): Promise<void> {
		this.sql.exec("DELETE FROM idempotency WHERE created_at <= ?", Date.now() - IDEMPOTENCY_TTL_MS);
		await this.scheduleForgetting();
	}

	private async reserve(
		key: KeyRow,
		call: Omit<CallDescription, "recordId" | "keyId">,
		now: number,
	): Promise<AcceptResult> {
		const recordId = newRecordId(key.account_id, now);
		const account = this.env.ACCOUNT.get(this.env.ACCOUNT.idFromName(key.account_id));
		const reserved = await account.reserve({ ...call, recordId, keyId: key.key_id }, now);
		return reserved === "insufficient" ? { kind: "insufficient" } : { kind: "accepted", recordId };
	}

	/** The call holding this idempotency key, unless the key expired or its call was abandoned. */
	private heldClaim(idempotencyKey: string, now: number): { recordId: string; replay: Replay } | undefined {
		const row = this.sql
			.exec<{ record_id: string; state: string; created_at: number }>(
				"SELECT record_id, state, created_at FROM idempotency WHERE key = ?",
				idempotencyKey,
			)
			.toArray()[0];
		if (!row || row.created_at <= now - IDEMPOTENCY_TTL_MS) return undefined;
		if (row.state === "done") return { recordId: row.record_id, replay: { state: "finished" } };
		// Still pending at the reservation timeout: its Worker died, and the account's alarm refunds it.
		const freeAt = row.created_at + RESERVATION_TIMEOUT_MS;
		if (freeAt <= now) return undefined;
		return {
			recordId: row.record_id,
			replay: { state: "in-progress", freeInSeconds: Math.ceil((freeAt - now) / 1000) },
		};
	}

	private async scheduleForgetting(): Promise<void> {
		const oldest = this.sql.exec<{ t: number | null }>("SELECT min(created_at) AS t FROM idempotency").one().t;
		await alarmForOldest(this.ctx.storage, oldest, IDEMPOTENCY_TTL_MS);
	}

	private key(): KeyRow | undefined {
		const made = this.sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'key'").toArray().length;
		if (!made) return undefined;
		return this.sql
			.exec<KeyRow>("SELECT key_hash, key_id, account_id, plan, revoked_at FROM key WHERE id = 1")
			.toArray()[0];
	}
}

interface KeyRow extends Record<string, SqlStorageValue> {
	key_hash: string;
	key_id: string;
	account_id: string;
	plan: Plan;
	revoked_at: number | null;
}
