import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/state/credentials";
import { instantPipeline, service, validBody } from "../support/service";

describe("authentication", () => {
	it("answers 401 for a missing, empty, malformed or unknown key, without reading the body", async () => {
		const double = instantPipeline();
		const yakusu = service(double.pipeline);
		const body = JSON.stringify(await validBody());
		const cases: Record<string, string>[] = [
			{},
			{ Authorization: "" },
			{ Authorization: "Bearer" },
			{ Authorization: "Bearer " },
			{ Authorization: "Basic dXNlcjpwYXNz" },
			{ Authorization: "sk_yakusu_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" },
			{ Authorization: "Bearer sk_yakusu_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" },
			{ Authorization: "Bearer sk_other_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" },
		];
		for (const headers of cases) {
			const res = await yakusu.call("/translate/image", { method: "POST", headers, body });
			expect(res.status, JSON.stringify(headers)).toBe(401);
			expect(await res.json()).toEqual({ detail: expect.any(String) });
			expect(res.headers.get("RateLimit-Limit")).toBeNull();
		}
		expect(double.jobs).toHaveLength(0);
	});

	it("stores nothing for a well-formed key nobody made", async () => {
		const yakusu = service(instantPipeline().pipeline);
		const guess = `sk_yakusu_${"Q".repeat(43)}`;
		expect((await yakusu.translate(guess, await validBody())).status).toBe(401);
		const stub = env.API_KEY.get(env.API_KEY.idFromName(await sha256Hex(guess)));
		const tables = await runInDurableObject(stub, (_, state) =>
			state.storage.sql.exec("SELECT name FROM sqlite_master").toArray(),
		);
		expect(tables).toEqual([]);
	});

	it("accepts the Bearer scheme in any case", async () => {
		const yakusu = service(instantPipeline().pipeline);
		const { apiKey } = await yakusu.customer();
		for (const scheme of ["bearer", "BEARER", "Bearer"]) {
			const res = await yakusu.call("/translate/image", {
				method: "POST",
				headers: { Authorization: `${scheme} ${apiKey}` },
				body: JSON.stringify(await validBody()),
			});
			expect(res.status).toBe(200);
		}
	});

	it("stores only the key's SHA-256, never the key, in either object", async () => {
		const yakusu = service(instantPipeline().pipeline);
		const { apiKey, accountId } = await yakusu.customer();
		expect(apiKey).toMatch(/^sk_yakusu_[A-Za-z0-9_-]{43}$/);
		const answer = await yakusu.translate(apiKey, await validBody(), { "Idempotency-Key": "stored-nowhere" });
		expect(answer.status).toBe(200);
		await answer.text();
		await yakusu.settled();

		/** Every row of every table of an object, as text. */
		const everything = (stub: DurableObjectStub) =>
			runInDurableObject(stub, (_, state) => {
				const tables = state.storage.sql
					.exec<{ name: string }>(
						"SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\'",
					)
					.toArray();
				return JSON.stringify(tables.map(({ name }) => state.storage.sql.exec(`SELECT * FROM "${name}"`).toArray()));
			});
		const hash = await sha256Hex(apiKey);
		const stored = {
			apiKeyObject: await everything(env.API_KEY.get(env.API_KEY.idFromName(hash))),
			accountObject: await everything(env.ACCOUNT.get(env.ACCOUNT.idFromName(accountId))),
		};
		for (const [where, text] of Object.entries(stored)) {
			expect(text, where).toContain(hash);
			expect(text, where).not.toContain(apiKey);
			expect(text, where).not.toContain(apiKey.slice("sk_yakusu_".length));
		}
		// The rows were really read: the call's record and its idempotency key are there.
		expect(stored.accountObject).toContain("committed");
		expect(stored.apiKeyObject).toContain("stored-nowhere");
	});

	it("answers 401 from the request after a revocation", async () => {
		const yakusu = service(instantPipeline().pipeline);
		const { apiKey, keyId } = await yakusu.customer();
		expect((await yakusu.translate(apiKey, await validBody())).status).toBe(200);
		expect((await yakusu.adminCall("DELETE", `/keys/${keyId}`)).status).toBe(204);
		expect((await yakusu.translate(apiKey, await validBody())).status).toBe(401);
	});
});

describe("plans", () => {
	it("answers 403 for free and starter accounts, and follows plan changes on the next request", async () => {
		const yakusu = service(instantPipeline().pipeline);
		for (const plan of ["free", "starter"]) {
			const { apiKey, accountId } = await yakusu.customer(plan, 100);
			const res = await yakusu.translate(apiKey, await validBody());
			expect(res.status).toBe(403);
			expect(await res.json()).toEqual({ detail: expect.stringContaining("Professional") });
			expect(await yakusu.balance(accountId)).toBe(100);
		}

		const { apiKey, accountId } = await yakusu.customer("professional", 100);
		expect((await yakusu.translate(apiKey, await validBody())).status).toBe(200);
		await yakusu.adminCall("PATCH", `/accounts/${accountId}`, { plan: "starter" });
		expect((await yakusu.translate(apiKey, await validBody())).status).toBe(403);
		await yakusu.adminCall("PATCH", `/accounts/${accountId}`, { plan: "enterprise" });
		const back = await yakusu.translate(apiKey, await validBody());
		expect(back.status).toBe(200);
		expect(back.headers.get("RateLimit-Limit")).toBe("300");
	});
});

describe("credits", () => {
	it("answers 402 below 10 credits, charges nothing and leaves the idempotency key free", async () => {
		const double = instantPipeline();
		const yakusu = service(double.pipeline);
		const { apiKey, accountId } = await yakusu.customer("professional", 9);
		const headers = { "Idempotency-Key": "first-try" };
		const res = await yakusu.translate(apiKey, await validBody(), headers);
		expect(res.status).toBe(402);
		expect(await res.json()).toEqual({ detail: expect.any(String) });
		expect(await yakusu.balance(accountId)).toBe(9);
		expect(double.jobs).toHaveLength(0);

		await yakusu.adminCall("POST", `/accounts/${accountId}/credits`, { amount: 1 });
		const retried = await yakusu.translate(apiKey, await validBody(), headers);
		expect(retried.status).toBe(200);
		expect(await yakusu.balance(accountId)).toBe(0);
	});
});
