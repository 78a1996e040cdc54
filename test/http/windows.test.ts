import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/state/credentials";
import { instantPipeline, service, validBody } from "../support/service";

/** Moves a key's or an account's remembered times into the past, as if the clock had run on. */
async function age(stub: DurableObjectStub, statement: string, ms: number) {
	await runInDurableObject(stub, (_, state) => {
		state.storage.sql.exec(statement, ms);
	});
}

const keyObject = async (apiKey: string) => env.API_KEY.get(env.API_KEY.idFromName(await sha256Hex(apiKey)));

describe("rate limit", () => {
	it("answers the 61st call within a minute with 429 and Retry-After, charges nothing, and admits again once the window slides", async () => {
		const yakusu = service(instantPipeline().pipeline);
		const { apiKey, accountId } = await yakusu.customer("professional", 10_000);
		const body = await validBody();
		for (let i = 0; i < 60; i++) expect((await yakusu.translate(apiKey, body)).status).toBe(200);

		const limited = await yakusu.translate(apiKey, body);
		expect(limited.status).toBe(429);
		expect(await limited.json()).toEqual({ detail: expect.stringContaining("60") });
		const retryAfter = Number(limited.headers.get("Retry-After"));
		expect(retryAfter).toBeGreaterThanOrEqual(1);
		expect(retryAfter).toBeLessThanOrEqual(60);
		expect(limited.headers.get("RateLimit-Remaining")).toBe("0");
		expect(await yakusu.balance(accountId)).toBe(10_000 - 600);

		// Half the window later, still full; a full window later, room again.
		await age(await keyObject(apiKey), "UPDATE hits SET t = t - ?", 30_000);
		expect((await yakusu.translate(apiKey, body)).status).toBe(429);
		await age(await keyObject(apiKey), "UPDATE hits SET t = t - ?", 30_001);
		const admitted = await yakusu.translate(apiKey, body);
		expect(admitted.status).toBe(200);
		expect(admitted.headers.get("RateLimit-Remaining")).toBe("59");
	});

	it("is a sliding window: slots come back one by one as old requests leave it", async () => {
		const yakusu = service(instantPipeline().pipeline);
		const { apiKey } = await yakusu.customer("professional", 10_000);
		const stub = await keyObject(apiKey);
		const hash = await sha256Hex(apiKey);
		const t0 = Date.now();
		for (let i = 0; i < 60; i++) expect((await stub.gate(hash, t0 + i * 1000)).kind).toBe("ok");
		const full = await stub.gate(hash, t0 + 59_500);
		expect(full).toMatchObject({ kind: "limited", retryAfter: 1 });
		expect((await stub.gate(hash, t0 + 60_001)).kind).toBe("ok");
		expect((await stub.gate(hash, t0 + 60_002)).kind).toBe("limited");
		expect((await stub.gate(hash, t0 + 61_001)).kind).toBe("ok");
	});

	it("counts per API key", async () => {
		const yakusu = service(instantPipeline().pipeline);
		const { apiKey, accountId } = await yakusu.customer("professional", 10_000);
		const second = await (await yakusu.adminCall("POST", `/accounts/${accountId}/keys`)).json<{ apiKey: string }>();
		const stub = await keyObject(apiKey);
		const hash = await sha256Hex(apiKey);
		for (let i = 0; i < 60; i++) await stub.gate(hash, Date.now());
		expect((await yakusu.translate(apiKey, await validBody())).status).toBe(429);
		expect((await yakusu.translate(second.apiKey, await validBody())).status).toBe(200);
	});
});

describe("idempotency keys are kept 24 hours", () => {
	it("replays within the day and processes anew after it, when the alarm has forgotten the key", async () => {
		const yakusu = service(instantPipeline().pipeline);
		const { apiKey, accountId } = await yakusu.customer("professional", 100);
		const headers = { "Idempotency-Key": "daily" };
		const first = await yakusu.translate(apiKey, await validBody(), headers);
		expect(first.status).toBe(200);
		await first.text();
		await yakusu.settled();
		const stub = await keyObject(apiKey);
		await age(stub, "UPDATE idempotency SET created_at = created_at - ?", 23 * 3600_000);
		expect((await yakusu.translate(apiKey, await validBody(), headers)).status).toBe(409);

		await age(stub, "UPDATE idempotency SET created_at = created_at - ?", 3600_000);
		expect(await runDurableObjectAlarm(stub)).toBe(true);
		const rows = await runInDurableObject(stub, (_, state) =>
			state.storage.sql.exec("SELECT * FROM idempotency").toArray(),
		);
		expect(rows).toHaveLength(0);
		expect((await yakusu.translate(apiKey, await validBody(), headers)).status).toBe(200);
		expect(await yakusu.balance(accountId)).toBe(80);
	});
});

describe("abandoned reservations", () => {
	it("are refunded by the account's alarm after 5 minutes", async () => {
		const yakusu = service(instantPipeline().pipeline);
		const { accountId, keyId } = await yakusu.customer("professional", 100);
		const account = env.ACCOUNT.get(env.ACCOUNT.idFromName(accountId));
		const call = { keyId, translator: "grok", mode: "general", sourceLanguage: "ja", targetLanguage: "en" };

		// A Worker reserved two calls and died: one long ago, one just now.
		const old = `rec_01JDQ3Z6Y8${accountId.slice(5)}AAAAAAAA`;
		const recent = `rec_01JDQ3Z6Y9${accountId.slice(5)}BBBBBBBB`;
		expect(await account.reserve({ ...call, recordId: old }, Date.now() - 5 * 60_000 - 1)).toEqual({ balance: 90 });
		expect(await account.reserve({ ...call, recordId: recent }, Date.now())).toEqual({ balance: 80 });

		// The overdue reservation made the alarm due at once; run it in case it has not fired yet.
		await runDurableObjectAlarm(account);
		expect(await yakusu.balance(accountId)).toBe(90);
		expect(await account.record(old)).toMatchObject({ status: "refunded", creditsRefunded: 10 });
		expect(await account.record(recent)).toMatchObject({ status: "reserved" });

		// A late settlement of the refunded call changes nothing.
		expect(await account.refund(old, { timings: {} }, Date.now())).toEqual({ changed: false, balance: 90 });
	});
});
