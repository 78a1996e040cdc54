import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PipelineError } from "../../src/pipeline/errors";
import type { Pipeline } from "../../src/pipeline/run";
import { sha256Hex } from "../../src/state/credentials";
import { service, validBody } from "../support/service";

/**
 * Never charge for what the client didn't get: a failure injected at each step of a call's
 * settlement (before the commit, at it, between it and the stream, mid-stream, a client that
 * leaves) ends refunded once, with the Idempotency-Key free for a retry.
 */

const piece = (length: number, seed: number) => Uint8Array.from({ length }, (_, i) => (i + seed) % 251);

/** A pipeline whose image comes in pieces, failing where it is told to. */
function piecesPipeline(fail: { atPiece?: number; before?: boolean } = {}): Pipeline {
	return async () => {
		if (fail.before) throw new PipelineError("The translator failed");
		async function* png() {
			for (let i = 0; i < 6; i++) {
				if (i === fail.atPiece) throw new Error("band failed");
				yield piece(60_000, i);
			}
		}
		return { png: png(), overflow: [] };
	};
}

const KEY = { "Idempotency-Key": "page-001" };

/** Models that keep working until told to finish; `started` resolves once they are asked. */
function held() {
	let started = () => {};
	let finish = () => {};
	const finished = new Promise<void>((resolve) => (finish = resolve));
	return {
		started: new Promise<void>((resolve) => (started = resolve)),
		running: () => {
			started();
			return finished;
		},
		finish: () => finish(),
	};
}

/** The account's only record, read from its object (a failed call's answer carries no recordId). */
async function onlyRecordId(accountId: string): Promise<string> {
	const stub = env.ACCOUNT.get(env.ACCOUNT.idFromName(accountId));
	return runInDurableObject(
		stub,
		(_, state) => state.storage.sql.exec<{ record_id: string }>("SELECT record_id FROM records").one().record_id,
	);
}

describe("a delivered call", () => {
	it("is committed before its image streams, and final once the body was read to its end", async () => {
		const yakusu = service(piecesPipeline());
		const { apiKey, accountId } = await yakusu.customer("professional", 100);
		const res = await yakusu.translate(apiKey, await validBody(), KEY);
		expect(res.status).toBe(200);
		const reader = res.body!.getReader();
		const head = new TextDecoder().decode((await reader.read()).value);
		expect(head).toContain('"remainingCredit":90');
		const recordId = JSON.parse(`${head.slice(0, head.indexOf(',"resultImage"'))}}`).recordId;
		// Charged already while the image streams, but not yet final.
		expect(await (await yakusu.adminCall("GET", `/records/${recordId}`)).json()).toMatchObject({
			status: "committed",
			creditsCharged: 10,
			deliveredAt: null,
		});
		while (!(await reader.read()).done);
		expect(await yakusu.record(recordId)).toMatchObject({
			status: "committed",
			creditsCharged: 10,
			deliveredAt: expect.any(String),
		});
		expect(await yakusu.balance(accountId)).toBe(90);

		const again = await yakusu.translate(apiKey, await validBody(), KEY);
		expect(again.status).toBe(409);
		expect(await again.json()).toMatchObject({ recordId, message: expect.stringMatching(/^Already done/) });
	});
});

describe("failures, each refunded once with the Idempotency-Key released", () => {
	it("before the commit: the pipeline fails", async () => {
		const yakusu = service(piecesPipeline({ before: true }));
		const { apiKey, accountId } = await yakusu.customer("professional", 100);
		const res = await yakusu.translate(apiKey, await validBody(), KEY);
		expect(res.status).toBe(500);
		expect(await yakusu.balance(accountId)).toBe(100);
		expect(await yakusu.record(await onlyRecordId(accountId))).toMatchObject({
			status: "refunded",
			creditsCharged: 0,
			creditsRefunded: 10,
			error: "The translator failed",
		});
	});

	it("before the commit: the image's first piece fails, answered as a clean 500", async () => {
		const yakusu = service(piecesPipeline({ atPiece: 0 }));
		const { apiKey, accountId } = await yakusu.customer("professional", 100);
		const res = await yakusu.translate(apiKey, await validBody(), KEY);
		expect(res.status).toBe(500);
		expect(await res.json()).toEqual({ detail: "Translation failed" });
		expect(await yakusu.balance(accountId)).toBe(100);
	});

	it("at the commit: it landed but its answer was lost, and the refund undoes it", async () => {
		let commits = 0;
		// Every Account stub the app gets commits, then loses the answer.
		const accounts = {
			idFromName: (name: string) => env.ACCOUNT.idFromName(name),
			get: (id: DurableObjectId) =>
				new Proxy(env.ACCOUNT.get(id), {
					get: (stub, method) =>
						method !== "commit"
							? Reflect.get(stub, method)
							: async (...args: Parameters<typeof stub.commit>) => {
									await stub.commit(...args);
									commits += 1;
									throw new Error("Network connection lost");
								},
				}),
		};
		const yakusu = service(piecesPipeline(), { ACCOUNT: accounts });
		const { apiKey, accountId } = await yakusu.customer("professional", 100);
		const res = await yakusu.translate(apiKey, await validBody(), KEY);
		expect(commits).toBe(1);
		expect(res.status).toBe(500);
		expect(await yakusu.balance(accountId)).toBe(100);
		expect(await yakusu.record(await onlyRecordId(accountId))).toMatchObject({ status: "refunded", creditsCharged: 0 });

		const retried = service(piecesPipeline());
		const ok = await retried.translate(apiKey, await validBody(), KEY);
		expect(ok.status).toBe(200);
		await ok.text();
		expect(await retried.balance(accountId)).toBe(90);
	});

	it("after the commit: the image fails mid-stream, so the client sees a cut body and pays nothing", async () => {
		const yakusu = service(piecesPipeline({ atPiece: 3 }));
		const { apiKey, accountId } = await yakusu.customer("professional", 100);
		const res = await yakusu.translate(apiKey, await validBody(), KEY);
		expect(res.status).toBe(200);
		await expect(res.text()).rejects.toThrow("band failed");
		expect(await yakusu.balance(accountId)).toBe(100);
		expect(await yakusu.record(await onlyRecordId(accountId))).toMatchObject({
			status: "refunded",
			creditsCharged: 0,
			creditsRefunded: 10,
			deliveredAt: null,
			error: "The image failed while it streamed to the client",
		});

		// The key was released: the same request is processed anew, and charged once.
		const fixed = service(piecesPipeline());
		const retry = await fixed.translate(apiKey, await validBody(), KEY);
		expect(retry.status).toBe(200);
		expect(JSON.parse(await retry.text()).remainingCredit).toBe(90);
		expect(await fixed.balance(accountId)).toBe(90);
	});

	it("after the commit: the client goes away mid-stream", async () => {
		const yakusu = service(piecesPipeline());
		const { apiKey, accountId } = await yakusu.customer("professional", 100);
		const res = await yakusu.translate(apiKey, await validBody(), KEY);
		const reader = res.body!.getReader();
		await reader.read();
		await reader.read();
		await reader.cancel();
		expect(await yakusu.balance(accountId)).toBe(100);
		expect(await yakusu.record(await onlyRecordId(accountId))).toMatchObject({
			status: "refunded",
			error: "The client disconnected before it had the whole image",
		});
		expect((await yakusu.translate(apiKey, await validBody(), KEY)).status).toBe(200);
	});

	it("before the commit: the client went away while the models worked", async () => {
		const client = new AbortController();
		const models = held();
		const yakusu = service(async () => {
			await models.running();
			return { png: [piece(10, 1)], overflow: [] };
		});
		const { apiKey, accountId } = await yakusu.customer("professional", 100);
		const answer = yakusu.call("/translate/image", {
			method: "POST",
			headers: { Authorization: `Bearer ${apiKey}`, ...KEY },
			body: JSON.stringify(await validBody()),
			signal: client.signal,
		});
		await models.started;
		client.abort();
		models.finish();
		expect((await answer).status).toBe(500);
		expect(await yakusu.balance(accountId)).toBe(100);
		expect(await yakusu.record(await onlyRecordId(accountId))).toMatchObject({
			status: "refunded",
			error: "The client disconnected before the translation was delivered",
		});
	});
});

describe("a refund that changes nothing", () => {
	it("does not release the Idempotency-Key of a delivered call", async () => {
		const yakusu = service(piecesPipeline());
		const { apiKey, accountId } = await yakusu.customer("professional", 100);
		const body = JSON.parse(await (await yakusu.translate(apiKey, await validBody(), KEY)).text());
		await yakusu.settled();
		const account = env.ACCOUNT.get(env.ACCOUNT.idFromName(accountId));
		expect(await account.refund(body.recordId, { timings: {}, error: "late" }, Date.now())).toEqual({
			changed: false,
			balance: 90,
		});
		expect((await yakusu.translate(apiKey, await validBody(), KEY)).status).toBe(409);
	});
});

describe("409 says whether the first call is in progress or done", () => {
	it("in progress while the first call runs, done once delivered", async () => {
		const models = held();
		const yakusu = service(async () => {
			await models.running();
			return { png: [piece(10, 1)], overflow: [] };
		});
		const { apiKey } = await yakusu.customer("professional", 100);
		const first = yakusu.translate(apiKey, await validBody(), KEY);
		await models.started;
		const during = await yakusu.translate(apiKey, await validBody(), KEY);
		expect(during.status).toBe(409);
		const replay = await during.json<{ recordId: string; message: string }>();
		expect(replay.message).toMatch(/^Still in progress: .*Try again shortly/);
		models.finish();
		expect(JSON.parse(await (await first).text()).recordId).toBe(replay.recordId);
		await yakusu.settled();
		const after = await yakusu.translate(apiKey, await validBody(), KEY);
		expect((await after.json<{ message: string }>()).message).toMatch(/^Already done: .*nothing was charged/);
	});
});

describe("a Worker that died", () => {
	it("mid-stream leaves a committed, undelivered call that the alarm refunds; delivered calls stay charged", async () => {
		const yakusu = service(piecesPipeline());
		const { accountId, keyId } = await yakusu.customer("professional", 100);
		const account = env.ACCOUNT.get(env.ACCOUNT.idFromName(accountId));
		const call = { keyId, translator: "grok", mode: "general", sourceLanguage: "ja", targetLanguage: "en" };
		const cut = `rec_01JDQ3Z6Y8${accountId.slice(5)}AAAAAAAA`;
		const whole = `rec_01JDQ3Z6Y9${accountId.slice(5)}BBBBBBBB`;
		for (const recordId of [cut, whole]) {
			await account.reserve({ ...call, recordId }, Date.now());
			await account.commit(recordId, { timings: {} }, Date.now());
		}
		await account.delivered(whole, Date.now());
		expect(await yakusu.balance(accountId)).toBe(80);

		// Five minutes on, the Worker that streamed `cut` is long gone.
		await runInDurableObject(account, (_, state) => {
			state.storage.sql.exec("UPDATE records SET created_at = created_at - ?", 5 * 60_000 + 1);
		});
		await runDurableObjectAlarm(account);
		expect(await yakusu.balance(accountId)).toBe(90);
		expect(await account.record(cut)).toMatchObject({
			status: "refunded",
			error: expect.stringMatching(/^Undelivered/),
		});
		expect(await account.record(whole)).toMatchObject({ status: "committed", creditsCharged: 10 });
	});
});

describe("revocation and plan changes are fail-closed", () => {
	it("keeps a key listed as live when its ApiKey object could not be told", async () => {
		const yakusu = service(piecesPipeline());
		const { apiKey, accountId, keyId } = await yakusu.customer();
		const keyObject = env.API_KEY.get(env.API_KEY.idFromName(await sha256Hex(apiKey)));
		// The object fails every write from now on.
		await runInDurableObject(keyObject, (_, state) => {
			state.storage.sql.exec("ALTER TABLE key RENAME TO key_broken");
		});
		const res = await yakusu.adminCall("DELETE", `/keys/${keyId}`);
		expect(res.status).toBe(500);
		const view = await (await yakusu.adminCall("GET", `/accounts/${accountId}`)).json<{
			keys: { revokedAt: string | null }[];
		}>();
		expect(view.keys[0]?.revokedAt).toBeNull();

		// Once the object works again, the revocation goes through, and the key is refused.
		await runInDurableObject(keyObject, (_, state) => {
			state.storage.sql.exec("ALTER TABLE key_broken RENAME TO key");
		});
		expect((await yakusu.adminCall("DELETE", `/keys/${keyId}`)).status).toBe(204);
		expect((await yakusu.translate(apiKey, await validBody())).status).toBe(401);
	});

	it("keeps the old plan on the account when a key could not be told the new one", async () => {
		const yakusu = service(piecesPipeline());
		const { apiKey, accountId } = await yakusu.customer();
		const keyObject = env.API_KEY.get(env.API_KEY.idFromName(await sha256Hex(apiKey)));
		await runInDurableObject(keyObject, (_, state) => {
			state.storage.sql.exec("ALTER TABLE key RENAME TO key_broken");
		});
		expect((await yakusu.adminCall("PATCH", `/accounts/${accountId}`, { plan: "starter" })).status).toBe(500);
		expect(await (await yakusu.adminCall("GET", `/accounts/${accountId}`)).json()).toMatchObject({
			plan: "professional",
		});
	});
});
