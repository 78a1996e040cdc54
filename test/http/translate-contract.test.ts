import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PipelineError } from "../../src/pipeline/errors";
import type { Pipeline } from "../../src/pipeline/run";
import { instantPipeline, service, validBody } from "../support/service";

interface Success {
	success: boolean;
	recordId: string;
	resultImage: string;
	remainingCredit: number;
}

describe("POST /translate/image, success", () => {
	it("answers 200 with the spec's body, charges 10 credits and logs the record", async () => {
		const { pipeline, png } = instantPipeline();
		const yakusu = service(pipeline);
		const { apiKey, accountId } = await yakusu.customer("professional", 100);

		const res = await yakusu.translate(apiKey, await validBody());
		expect(res.status).toBe(200);
		expect(res.headers.get("content-type")).toContain("application/json");
		const body = await res.json<Success>();
		expect(Object.keys(body).sort()).toEqual(["recordId", "remainingCredit", "resultImage", "success"]);
		expect(body.success).toBe(true);
		expect(body.recordId).toMatch(/^rec_[0-9A-HJKMNP-TV-Z]{26}$/);
		expect(body.remainingCredit).toBe(90);
		expect(body.resultImage.startsWith("data:image/png;base64,")).toBe(true);
		const decoded = Uint8Array.from(atob(body.resultImage.slice(22)), (ch) => ch.charCodeAt(0));
		expect(decoded).toEqual(png);
		expect(await yakusu.balance(accountId)).toBe(90);

		const record = await (await yakusu.adminCall("GET", `/records/${body.recordId}`)).json<{
			status: string;
			creditsCharged: number;
			translator: string;
			mode: string;
		}>();
		expect(record).toMatchObject({ status: "committed", creditsCharged: 10, translator: "grok", mode: "general" });
	});

	it("streams a large result as one valid base64 data URL", async () => {
		const big = new Uint8Array(200_001).map((_, i) => (i * 7919) % 256);
		const yakusu = service(instantPipeline(big).pipeline);
		const { apiKey } = await yakusu.customer();
		const body = await (await yakusu.translate(apiKey, await validBody())).json<Success>();
		const decoded = Uint8Array.from(atob(body.resultImage.slice(22)), (ch) => ch.charCodeAt(0));
		expect(decoded).toEqual(big);
	});

	it("fills defaults and normalises codes before the pipeline sees the job", async () => {
		const double = instantPipeline();
		const yakusu = service(double.pipeline);
		const { apiKey } = await yakusu.customer();
		await yakusu.translate(apiKey, await validBody({ sourceLanguage: "AUTO", targetLanguage: "zh-Hans" }));
		await yakusu.translate(
			apiKey,
			await validBody({
				sourceLanguage: "iw",
				targetLanguage: "PT-br",
				mode: "Manga",
				translator: "GEMINI",
				customPrompt: "x",
			}),
		);
		expect(double.jobs[0]).toMatchObject({
			sourceLanguage: "auto",
			targetLanguage: "zh-cn",
			mode: "general",
			translator: "grok",
			image: { format: "png", width: 8, height: 6 },
		});
		expect(double.jobs[1]).toMatchObject({
			sourceLanguage: "he",
			targetLanguage: "pt",
			mode: "manga",
			translator: "gemini",
			customPrompt: "x",
		});
	});

	it("carries RateLimit headers on answers after the plan check", async () => {
		const yakusu = service(instantPipeline().pipeline);
		const { apiKey } = await yakusu.customer();
		const first = await yakusu.translate(apiKey, await validBody());
		expect(first.headers.get("RateLimit-Limit")).toBe("60");
		expect(first.headers.get("RateLimit-Remaining")).toBe("59");
		expect(Number(first.headers.get("RateLimit-Reset"))).toBeGreaterThan(0);
		const bad = await yakusu.translate(apiKey, "{");
		expect(bad.status).toBe(400);
		expect(bad.headers.get("RateLimit-Remaining")).toBe("58");
	});
});

describe("POST /translate/image, idempotency", () => {
	it("answers a repeated Idempotency-Key with 409 and the first recordId, charging nothing", async () => {
		const double = instantPipeline();
		const yakusu = service(double.pipeline);
		const { apiKey, accountId } = await yakusu.customer("professional", 100);
		const headers = { "Idempotency-Key": "6f1c7a2e-9a43-4b8e-9d0e-8b7d2c1f0a11" };

		const first = await (await yakusu.translate(apiKey, await validBody(), headers)).json<Success>();
		const again = await yakusu.translate(apiKey, await validBody({ targetLanguage: "fr" }), headers);
		expect(again.status).toBe(409);
		expect(await again.json()).toEqual({
			error: "idempotency_replay",
			recordId: first.recordId,
			message: expect.any(String),
		});
		expect(double.jobs).toHaveLength(1);
		expect(await yakusu.balance(accountId)).toBe(90);
	});

	it("scopes idempotency keys per API key", async () => {
		const yakusu = service(instantPipeline().pipeline);
		const a = await yakusu.customer();
		const b = await yakusu.customer();
		const headers = { "Idempotency-Key": "shared" };
		expect((await yakusu.translate(a.apiKey, await validBody(), headers)).status).toBe(200);
		expect((await yakusu.translate(b.apiKey, await validBody(), headers)).status).toBe(200);
	});

	it("charges every retry without an Idempotency-Key as a new call", async () => {
		const yakusu = service(instantPipeline().pipeline);
		const { apiKey, accountId } = await yakusu.customer("professional", 100);
		for (let i = 0; i < 3; i++) expect((await yakusu.translate(apiKey, await validBody())).status).toBe(200);
		expect(await yakusu.balance(accountId)).toBe(70);
	});

	it("refuses a malformed Idempotency-Key with 422 before charging", async () => {
		const yakusu = service(instantPipeline().pipeline);
		const { apiKey, accountId } = await yakusu.customer("professional", 100);
		for (const key of ["x".repeat(256), "caf\u00e9", "tab\there"]) {
			const res = await yakusu.translate(apiKey, await validBody(), { "Idempotency-Key": key });
			expect(res.status).toBe(422);
			expect(await res.json()).toEqual({ detail: "Invalid field: Idempotency-Key" });
		}
		expect((await yakusu.translate(apiKey, await validBody(), { "Idempotency-Key": "x".repeat(255) })).status).toBe(
			200,
		);
		expect(await yakusu.balance(accountId)).toBe(90);
	});
});

describe("POST /translate/image, failures after acceptance", () => {
	const failing =
		(error: unknown): Pipeline =>
		async () => {
			throw error;
		};

	it("answers 500 with the pipeline's detail, refunds, and releases the idempotency key", async () => {
		let fail = true;
		const double = instantPipeline();
		const pipeline: Pipeline = async (job, ctx) => {
			if (fail) throw new PipelineError("XAI_API_KEY is not set");
			return double.pipeline(job, ctx);
		};
		const yakusu = service(pipeline);
		const { apiKey, accountId } = await yakusu.customer("professional", 100);
		const headers = { "Idempotency-Key": "retry-me" };

		const failed = await yakusu.translate(apiKey, await validBody(), headers);
		expect(failed.status).toBe(500);
		expect(await failed.json()).toEqual({ detail: "XAI_API_KEY is not set" });
		expect(await yakusu.balance(accountId)).toBe(100);

		fail = false;
		const retried = await yakusu.translate(apiKey, await validBody(), headers);
		expect(retried.status).toBe(200);
		expect((await retried.json<Success>()).remainingCredit).toBe(90);
	});

	it("hides unexpected errors behind a generic detail and still refunds", async () => {
		const yakusu = service(failing(new Error("socket hang up sk-secret-vendor-key")));
		const { apiKey, accountId } = await yakusu.customer("professional", 100);
		const res = await yakusu.translate(apiKey, await validBody());
		expect(res.status).toBe(500);
		const text = await res.text();
		expect(text).not.toContain("secret");
		expect(JSON.parse(text)).toEqual({ detail: "Translation failed" });
		expect(await yakusu.balance(accountId)).toBe(100);
	});

	it("answers 422 on imageBase64 for an image found corrupt while decoding, refunded", async () => {
		const yakusu = service(failing(new PipelineError("Invalid field: imageBase64", 422)));
		const { apiKey, accountId } = await yakusu.customer("professional", 100);
		const res = await yakusu.translate(apiKey, await validBody());
		expect(res.status).toBe(422);
		expect(await res.json()).toEqual({ detail: "Invalid field: imageBase64" });
		expect(await yakusu.balance(accountId)).toBe(100);
	});

	it("records the failure with its detail and the refund", async () => {
		const yakusu = service(async () => {
			throw new PipelineError("translator authentication failed");
		});
		const { apiKey, accountId } = await yakusu.customer("professional", 100);
		await yakusu.translate(apiKey, await validBody());
		// A 500 body carries no recordId: read the account's only record from its object.
		const stub = env.ACCOUNT.get(env.ACCOUNT.idFromName(accountId));
		const recordId = await runInDurableObject(stub, (_, state) => {
			return state.storage.sql.exec<{ record_id: string }>("SELECT record_id FROM records").one().record_id;
		});
		const record = await (await yakusu.adminCall("GET", `/records/${recordId}`)).json();
		expect(record).toMatchObject({
			status: "refunded",
			creditsCharged: 0,
			creditsRefunded: 10,
			error: "translator authentication failed",
		});
	});
});

describe("routing", () => {
	it("answers 405 for another method on the endpoint and 404 for unknown paths, in JSON", async () => {
		const yakusu = service(instantPipeline().pipeline);
		const wrongMethod = await yakusu.call("/translate/image", { method: "GET" });
		expect(wrongMethod.status).toBe(405);
		expect(await wrongMethod.json()).toEqual({ detail: expect.any(String) });
		const unknown = await yakusu.call("/translate/video", { method: "POST" });
		expect(unknown.status).toBe(404);
		expect(await unknown.json()).toEqual({ detail: "Not found" });
	});
});
