import { DurableObject } from "cloudflare:workers";
import { RESERVATION_TIMEOUT_MS } from "../call-limits";
import type { Env } from "../env";
import { alarmForOldest } from "./alarm";
import { newKeyId } from "./ids";
import { CALL_COST, type Plan } from "./plans";

export interface AccountView {
	accountId: string;
	plan: Plan;
	credits: number;
	keys: { keyId: string; createdAt: string; revokedAt: string | null }[];
}

/** What the record log keeps of a call: never the image, never the key. */
export interface CallRecord {
	recordId: string;
	accountId: string;
	keyId: string;
	createdAt: string;
	updatedAt: string;
	translator: string;
	mode: string;
	sourceLanguage: string;
	targetLanguage: string;
	status: "reserved" | "committed" | "refunded";
	/** When the whole image was handed to the client; null while it streams, or if it never was. */
	deliveredAt: string | null;
	creditsCharged: number;
	creditsRefunded: number;
	timings: Record<string, number>;
	overflow: number[];
	error: string | null;
}

export interface CallDescription {
	recordId: string;
	keyId: string;
	translator: string;
	mode: string;
	sourceLanguage: string;
	targetLanguage: string;
}

export interface CallOutcome {
	timings: Record<string, number>;
	overflow?: number[];
	/** Set when the call failed: what the client was told, or why it never got its image. */
	error?: string;
}

/** A settlement step's answer: whether it changed the record, and the balance after it. */
export interface Settled {
	changed: boolean;
	balance: number;
}

/**
 * One per account (named by accountId): plan, credit balance, API keys, and the record log,
 * whose `reserved` rows are the open reservations. Schema: docs/storage.md.
 */
export class Account extends DurableObject<Env> {
	private readonly sql: SqlStorage;

	constructor(ctx: DurableObjectState, env: Env) {
		super(ctx, env);
		this.sql = ctx.storage.sql;
		this.sql.exec(`
			CREATE TABLE IF NOT EXISTS account (
				id INTEGER PRIMARY KEY CHECK (id = 1),
				account_id TEXT NOT NULL, plan TEXT NOT NULL,
				credits INTEGER NOT NULL CHECK (credits >= 0), created_at INTEGER NOT NULL);
			CREATE TABLE IF NOT EXISTS keys (
				key_id TEXT PRIMARY KEY, key_hash TEXT NOT NULL,
				created_at INTEGER NOT NULL, revoked_at INTEGER);
			CREATE TABLE IF NOT EXISTS records (
				record_id TEXT PRIMARY KEY, key_id TEXT NOT NULL,
				created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
				translator TEXT NOT NULL, mode TEXT NOT NULL,
				source_language TEXT NOT NULL, target_language TEXT NOT NULL,
				status TEXT NOT NULL, charged INTEGER NOT NULL DEFAULT 0, refunded INTEGER NOT NULL DEFAULT 0,
				timings TEXT NOT NULL DEFAULT '{}', overflow TEXT NOT NULL DEFAULT '[]', error TEXT,
				delivered_at INTEGER);
			CREATE INDEX IF NOT EXISTS records_open ON records (status, created_at);
		`);
		this.addDeliveredAt();
	}

	/**
	 * Objects made before calls were committed ahead of streaming have no `delivered_at`: add it, and
	 * count their committed calls as delivered (they were committed only once the image was ready).
	 */
	private addDeliveredAt(): void {
		const columns = this.sql.exec("SELECT * FROM records LIMIT 0").columnNames;
		if (columns.includes("delivered_at")) return;
		this.ctx.storage.transactionSync(() => {
			this.sql.exec("ALTER TABLE records ADD COLUMN delivered_at INTEGER");
			this.sql.exec("UPDATE records SET delivered_at = updated_at WHERE status = 'committed'");
		});
	}

	/** Makes the account; false when this object already holds one (an id collision). */
	create(accountId: string, plan: Plan, credits: number, now: number): boolean {
		if (this.row()) return false;
		this.sql.exec(
			"INSERT INTO account (id, account_id, plan, credits, created_at) VALUES (1, ?, ?, ?, ?)",
			accountId,
			plan,
			credits,
			now,
		);
		return true;
	}

	view(): AccountView | null {
		const row = this.row();
		if (!row) return null;
		const keys = this.sql
			.exec<{ key_id: string; created_at: number; revoked_at: number | null }>(
				"SELECT key_id, created_at, revoked_at FROM keys ORDER BY created_at",
			)
			.toArray()
			.map((k) => ({
				keyId: k.key_id,
				createdAt: new Date(k.created_at).toISOString(),
				revokedAt: k.revoked_at === null ? null : new Date(k.revoked_at).toISOString(),
			}));
		return { accountId: row.account_id, plan: row.plan, credits: row.credits, keys };
	}

	/**
	 * Tells every live key the new plan, then records it: if telling a key fails, the call fails and
	 * the account still shows the old plan, so the admin view never claims a change the keys missed.
	 */
	async setPlan(plan: Plan): Promise<AccountView | null> {
		if (!this.row()) return null;
		const hashes = this.sql.exec<{ key_hash: string }>("SELECT key_hash FROM keys WHERE revoked_at IS NULL").toArray();
		await Promise.all(hashes.map(({ key_hash }) => this.keyObject(key_hash).setPlan(plan)));
		this.sql.exec("UPDATE account SET plan = ? WHERE id = 1", plan);
		return this.view();
	}

	/** Adds (or, when negative, removes) credits; never below zero. */
	adjustCredits(amount: number): { credits: number } | "would-go-negative" | null {
		const row = this.row();
		if (!row) return null;
		if (row.credits + amount < 0) return "would-go-negative";
		this.sql.exec("UPDATE account SET credits = credits + ? WHERE id = 1", amount);
		return { credits: row.credits + amount };
	}

	/** Registers a key (by its hash) and sets up its ApiKey object; returns the new keyId. */
	async addKey(keyHash: string, now: number): Promise<string | null> {
		const row = this.row();
		if (!row) return null;
		const keyId = newKeyId(row.account_id);
		this.sql.exec("INSERT INTO keys (key_id, key_hash, created_at) VALUES (?, ?, ?)", keyId, keyHash, now);
		await this.keyObject(keyHash).init(keyHash, keyId, row.account_id, row.plan);
		return keyId;
	}

	/**
	 * Revokes the key in its ApiKey object first (it answers 401 from the next request on), then
	 * here: fail-closed, so the admin view never shows revoked a key that still works.
	 */
	async revokeKey(keyId: string, now: number): Promise<boolean> {
		const key = this.sql.exec<{ key_hash: string }>("SELECT key_hash FROM keys WHERE key_id = ?", keyId).toArray()[0];
		if (!key) return false;
		await this.keyObject(key.key_hash).revoke(now);
		this.sql.exec("UPDATE keys SET revoked_at = coalesce(revoked_at, ?) WHERE key_id = ?", now, keyId);
		return true;
	}

	/**
	 * Takes CALL_COST credits under a new record, in one synchronous transaction: concurrent
	 * calls can never spend the same credits twice or drive the balance below zero.
	 */
	async reserve(call: CallDescription, now: number): Promise<{ balance: number } | "insufficient"> {
		const row = this.row();
		if (!row || row.credits < CALL_COST) return "insufficient";
		this.ctx.storage.transactionSync(() => {
			this.sql.exec("UPDATE account SET credits = credits - ? WHERE id = 1", CALL_COST);
			this.sql.exec(
				`INSERT INTO records (record_id, key_id, created_at, updated_at, translator, mode,
					source_language, target_language, status)
				 VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'reserved')`,
				call.recordId,
				call.keyId,
				now,
				now,
				call.translator,
				call.mode,
				call.sourceLanguage,
				call.targetLanguage,
			);
		});
		await this.scheduleExpiry();
		return { balance: row.credits - CALL_COST };
	}

	/**
	 * Keeps the reserved credits as the call's charge, before its image streams. `changed` is false
	 * when the record was no longer reserved (the alarm refunded it): the call is then free.
	 */
	commit(recordId: string, outcome: CallOutcome, now: number): Settled {
		const changed = this.sql.exec(
			`UPDATE records SET status = 'committed', charged = ?, timings = ?, overflow = ?, updated_at = ?
			 WHERE record_id = ? AND status = 'reserved'`,
			CALL_COST,
			JSON.stringify(outcome.timings),
			JSON.stringify(outcome.overflow ?? []),
			now,
			recordId,
		).rowsWritten;
		return { changed: changed > 0, balance: this.balance() };
	}

	/** The client has the whole image: the charge is final, no refund applies any more. */
	delivered(recordId: string, now: number): Settled {
		const changed = this.sql.exec(
			`UPDATE records SET delivered_at = ?, updated_at = ?
			 WHERE record_id = ? AND status = 'committed' AND delivered_at IS NULL`,
			now,
			now,
			recordId,
		).rowsWritten;
		return { changed: changed > 0, balance: this.balance() };
	}

	/**
	 * Gives the credits back, once: a reserved call that failed, or a committed one whose image the
	 * client never received (it failed or the client left mid-stream). A delivered or already refunded
	 * call is left as it is (`changed` false), so a late or repeated refund changes nothing.
	 */
	refund(recordId: string, outcome: CallOutcome, now: number): Settled {
		let changed = false;
		this.ctx.storage.transactionSync(() => {
			const open = this.sql
				.exec(
					`SELECT 1 FROM records WHERE record_id = ?
					 AND (status = 'reserved' OR (status = 'committed' AND delivered_at IS NULL))`,
					recordId,
				)
				.toArray().length;
			if (!open) return;
			this.sql.exec("UPDATE account SET credits = credits + ? WHERE id = 1", CALL_COST);
			this.sql.exec(
				`UPDATE records SET status = 'refunded', charged = 0, refunded = ?, timings = ?, error = ?, updated_at = ?
				 WHERE record_id = ?`,
				CALL_COST,
				JSON.stringify(outcome.timings),
				outcome.error ?? null,
				now,
				recordId,
			);
			changed = true;
		});
		return { changed, balance: this.balance() };
	}

	record(recordId: string): CallRecord | null {
		const row = this.sql.exec<RecordRow>("SELECT * FROM records WHERE record_id = ?", recordId).toArray()[0];
		const account = this.row();
		if (!row || !account) return null;
		return {
			recordId: row.record_id,
			accountId: account.account_id,
			keyId: row.key_id,
			createdAt: new Date(row.created_at).toISOString(),
			updatedAt: new Date(row.updated_at).toISOString(),
			translator: row.translator,
			mode: row.mode,
			sourceLanguage: row.source_language,
			targetLanguage: row.target_language,
			status: row.status,
			deliveredAt: row.delivered_at === null ? null : new Date(row.delivered_at).toISOString(),
			creditsCharged: row.charged,
			creditsRefunded: row.refunded,
			timings: JSON.parse(row.timings),
			overflow: JSON.parse(row.overflow),
			error: row.error,
		};
	}

	/**
	 * Refunds calls left undelivered past the timeout: their Worker died before the commit, or while
	 * the image streamed (an isolate that runs out of memory takes every call on it along).
	 */
	override async alarm(): Promise<void> {
		const now = Date.now();
		const stale = this.sql
			.exec<{ record_id: string; status: string }>(
				`SELECT record_id, status FROM records WHERE created_at <= ?
				 AND (status = 'reserved' OR (status = 'committed' AND delivered_at IS NULL))`,
				now - RESERVATION_TIMEOUT_MS,
			)
			.toArray();
		for (const { record_id, status } of stale) {
			const error =
				status === "reserved"
					? "Abandoned: refunded after the reservation timed out"
					: "Undelivered: the image never finished streaming to the client; refunded after the timeout";
			this.refund(record_id, { timings: {}, error }, now);
		}
		await this.scheduleExpiry();
	}

	private async scheduleExpiry(): Promise<void> {
		const oldest = this.sql
			.exec<{ t: number | null }>(
				`SELECT min(created_at) AS t FROM records
				 WHERE status = 'reserved' OR (status = 'committed' AND delivered_at IS NULL)`,
			)
			.one().t;
		await alarmForOldest(this.ctx.storage, oldest, RESERVATION_TIMEOUT_MS);
	}

	private keyObject(keyHash: string) {
		return this.env.API_KEY.get(this.env.API_KEY.idFromName(keyHash));
	}

	private balance(): number {
		return this.row()?.credits ?? 0;
	}

	private row(): AccountRow | undefined {
		return this.sql.exec<AccountRow>("SELECT account_id, plan, credits FROM account WHERE id = 1").toArray()[0];
	}
}

interface AccountRow extends Record<string, SqlStorageValue> {
	account_id: string;
	plan: Plan;
	credits: number;
}

interface RecordRow extends Record<string, SqlStorageValue> {
	record_id: string;
	key_id: string;
	created_at: number;
	updated_at: number;
	translator: string;
	mode: string;
	source_language: string;
	target_language: string;
	status: CallRecord["status"];
	charged: number;
	refunded: number;
	timings: string;
	overflow: string;
	error: string | null;
	delivered_at: number | null;
}
