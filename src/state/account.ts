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
	/** Set when the call failed: what the client was told. */
	error?: string;
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
				timings TEXT NOT NULL DEFAULT '{}', overflow TEXT NOT NULL DEFAULT '[]', error TEXT);
			CREATE INDEX IF NOT EXISTS records_open ON records (status, created_at);
		`);
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

	/** Changes the plan and tells every live key, so the next request through any key sees it. */
	async setPlan(plan: Plan): Promise<AccountView | null> {
		if (!this.row()) return null;
		this.sql.exec("UPDATE account SET plan = ? WHERE id = 1", plan);
		const hashes = this.sql.exec<{ key_hash: string }>("SELECT key_hash FROM keys WHERE revoked_at IS NULL").toArray();
		await Promise.all(hashes.map(({ key_hash }) => this.keyObject(key_hash).setPlan(plan)));
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

	/** Revokes the key here and in its ApiKey object: it answers 401 from the next request on. */
	async revokeKey(keyId: string, now: number): Promise<boolean> {
		const key = this.sql.exec<{ key_hash: string }>("SELECT key_hash FROM keys WHERE key_id = ?", keyId).toArray()[0];
		if (!key) return false;
		this.sql.exec("UPDATE keys SET revoked_at = coalesce(revoked_at, ?) WHERE key_id = ?", now, keyId);
		await this.keyObject(key.key_hash).revoke(now);
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

	/** Keeps the reserved credits as the call's charge; returns the balance after it. */
	commit(recordId: string, outcome: CallOutcome, now: number): { balance: number } {
		this.sql.exec(
			`UPDATE records SET status = 'committed', charged = ?, timings = ?, overflow = ?, updated_at = ?
			 WHERE record_id = ? AND status = 'reserved'`,
			CALL_COST,
			JSON.stringify(outcome.timings),
			JSON.stringify(outcome.overflow ?? []),
			now,
			recordId,
		);
		return { balance: this.row()?.credits ?? 0 };
	}

	/** Gives the reserved credits back. Idempotent: a record is refunded at most once. */
	refund(recordId: string, outcome: CallOutcome, now: number): { balance: number } {
		this.ctx.storage.transactionSync(() => {
			const open = this.sql
				.exec("SELECT 1 FROM records WHERE record_id = ? AND status = 'reserved'", recordId)
				.toArray().length;
			if (!open) return;
			this.sql.exec("UPDATE account SET credits = credits + ? WHERE id = 1", CALL_COST);
			this.sql.exec(
				`UPDATE records SET status = 'refunded', refunded = ?, timings = ?, error = ?, updated_at = ?
				 WHERE record_id = ?`,
				CALL_COST,
				JSON.stringify(outcome.timings),
				outcome.error ?? null,
				now,
				recordId,
			);
		});
		return { balance: this.row()?.credits ?? 0 };
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
			creditsCharged: row.charged,
			creditsRefunded: row.refunded,
			timings: JSON.parse(row.timings),
			overflow: JSON.parse(row.overflow),
			error: row.error,
		};
	}

	/** Refunds reservations left open past the timeout: their Worker died before settling them. */
	override async alarm(): Promise<void> {
		const cutoff = Date.now() - RESERVATION_TIMEOUT_MS;
		const stale = this.sql
			.exec<{ record_id: string }>(
				"SELECT record_id FROM records WHERE status = 'reserved' AND created_at <= ?",
				cutoff,
			)
			.toArray();
		for (const { record_id } of stale) {
			this.refund(record_id, { timings: {}, error: "Abandoned: refunded after the reservation timed out" }, Date.now());
		}
		await this.scheduleExpiry();
	}

	private async scheduleExpiry(): Promise<void> {
		const oldest = this.sql
			.exec<{ t: number | null }>("SELECT min(created_at) AS t FROM records WHERE status = 'reserved'")
			.one().t;
		await alarmForOldest(this.ctx.storage, oldest, RESERVATION_TIMEOUT_MS);
	}

	private keyObject(keyHash: string) {
		return this.env.API_KEY.get(this.env.API_KEY.idFromName(keyHash));
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
}
