import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/http/app";
import { instantPipeline, service } from "../support/service";

const yakusu = service(instantPipeline().pipeline);

describe("admin API", () => {
	it("refuses a missing or wrong token with 401, and is absent without ADMIN_TOKEN", async () => {
		const attempts: Record<string, string>[] = [
			{},
			{ Authorization: "Bearer wrong" },
			{ Authorization: "test-admin-token" },
		];
		for (const headers of attempts) {
			const res = await yakusu.call("/admin/accounts", { method: "POST", headers, body: "{}" });
			expect(res.status).toBe(401);
		}
		const disabled = await createApp(instantPipeline().pipeline).fetch(
			new Request("https://yakusu.test/admin/accounts", {
				method: "POST",
				headers: { Authorization: "Bearer test-admin-token" },
				body: JSON.stringify({ plan: "professional" }),
			}),
			{ ...env, ADMIN_TOKEN: undefined },
		);
		expect(disabled.status).toBe(404);
	});

	it("creates, reads and changes an account", async () => {
		const created = await yakusu.adminCall("POST", "/accounts", { plan: "professional", credits: 50 });
		expect(created.status).toBe(201);
		const account = await created.json<{ accountId: string; plan: string; credits: number }>();
		expect(account).toEqual({
			accountId: expect.stringMatching(/^acct_[0-9A-Z]{8}$/),
			plan: "professional",
			credits: 50,
		});

		const read = await (await yakusu.adminCall("GET", `/accounts/${account.accountId}`)).json();
		expect(read).toEqual({ ...account, keys: [] });

		const patched = await yakusu.adminCall("PATCH", `/accounts/${account.accountId}`, { plan: "enterprise" });
		expect(await patched.json()).toMatchObject({ plan: "enterprise", credits: 50 });
	});

	it("adds and removes credits, never below zero", async () => {
		const { accountId } = await yakusu.customer("professional", 30);
		const add = await yakusu.adminCall("POST", `/accounts/${accountId}/credits`, { amount: 20 });
		expect(await add.json()).toEqual({ credits: 50 });
		const take = await yakusu.adminCall("POST", `/accounts/${accountId}/credits`, { amount: -50 });
		expect(await take.json()).toEqual({ credits: 0 });
		const below = await yakusu.adminCall("POST", `/accounts/${accountId}/credits`, { amount: -1 });
		expect(below.status).toBe(422);
		expect(await below.json()).toEqual({ detail: "Invalid field: amount" });
		expect(await yakusu.balance(accountId)).toBe(0);
	});

	it("makes keys shown once and lists them without the secret; revokes them", async () => {
		const { accountId } = await yakusu.customer("professional", 0);
		const made = await yakusu.adminCall("POST", `/accounts/${accountId}/keys`);
		expect(made.status).toBe(201);
		const key = await made.json<{ keyId: string; apiKey: string }>();
		expect(key.apiKey).toMatch(/^sk_yakusu_[A-Za-z0-9_-]{43}$/);

		const listed = await (await yakusu.adminCall("GET", `/accounts/${accountId}`)).json<{ keys: unknown[] }>();
		expect(JSON.stringify(listed)).not.toContain(key.apiKey);
		expect(listed.keys).toContainEqual({ keyId: key.keyId, createdAt: expect.any(String), revokedAt: null });

		expect((await yakusu.adminCall("DELETE", `/keys/${key.keyId}`)).status).toBe(204);
		const after = await (await yakusu.adminCall("GET", `/accounts/${accountId}`)).json<{
			keys: { keyId: string; revokedAt: string | null }[];
		}>();
		expect(after.keys.find((k) => k.keyId === key.keyId)?.revokedAt).toEqual(expect.any(String));
	});

	it("validates bodies and answers 404 for what does not exist", async () => {
		expect((await yakusu.adminCall("POST", "/accounts", { plan: "gold" })).status).toBe(422);
		expect(await (await yakusu.adminCall("POST", "/accounts", { plan: "starter", credits: -5 })).json()).toEqual({
			detail: "Invalid field: credits",
		});
		expect((await yakusu.adminCall("GET", "/accounts/acct_00000000")).status).toBe(404);
		expect((await yakusu.adminCall("GET", "/accounts/nonsense")).status).toBe(404);
		expect((await yakusu.adminCall("DELETE", "/keys/key_00000000_00000000")).status).toBe(404);
		expect((await yakusu.adminCall("GET", "/records/rec_01JDQ3Z6Y800000000AAAAAAAA")).status).toBe(404);
	});
});
