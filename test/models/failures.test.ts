/**
 * Every failure ends in a PipelineError (the HTTP layer answers 500 and refunds it) whose detail
 * says what happened, and only what a retry can fix is retried: transient failures once
 * (honouring the vendor's stated wait), a reply cut at the token limit once with a smaller
 * output, never a refusal, a safety block, a refused key, an unknown model or a bad request.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { MODEL_WORK_DEADLINE_MS, RESERVATION_TIMEOUT_MS } from "../../src/call-limits";
import type { Env } from "../../src/env";
import { askModel } from "../../src/models/ask-model";
import { TRANSLATIONS_SCHEMA } from "../../src/models/contract";
import { ModelError } from "../../src/models/errors";
import { endpointFor } from "../../src/models/vendors";
import { PipelineError } from "../../src/pipeline/errors";
import { modelAskContext } from "../../src/pipeline/model-deadline";
import { readAndTranslate } from "../../src/pipeline/read";
import { createFakeVendor } from "../fakes/vendor.mjs";
import { ALL_KEYS, job, raster, readerImageOf, withFake } from "./helpers";

afterEach(() => vi.restoreAllMocks());

const image = await readerImageOf(raster(1200, 900));

async function failure(promise: Promise<unknown>): Promise<PipelineError> {
	const error = await promise.then(
		() => undefined,
		(e: unknown) => e,
	);
	expect(error).toBeInstanceOf(PipelineError);
	return error as PipelineError;
}

describe("configuration", () => {
	it("a missing key names the variable to set, before any model call", async () => {
		const { ctx, fake } = withFake({ XAI_API_KEY: undefined });
		const error = await failure(readAndTranslate(image, job({ translator: "grok" }), ctx));
		expect(error.detail).toBe("XAI_API_KEY is not set");
		expect(error.status).toBe(500);
		expect(fake.calls).toHaveLength(0);
	});

	it("DeepSeek's key is checked even when the reader's is present", async () => {
		const { ctx, fake } = withFake({ DEEPSEEK_API_KEY: "" });
		const error = await failure(readAndTranslate(image, job({ translator: "deepseek" }), ctx));
		expect(error.detail).toBe("DEEPSEEK_API_KEY is not set");
		expect(fake.calls).toHaveLength(0);
	});

	it("DeepSeek with no vision vendor keyed says which variables would give it a reader", async () => {
		const { ctx } = withFake({
			GEMINI_API_KEY: undefined,
			OPENAI_API_KEY: undefined,
			ANTHROPIC_API_KEY: undefined,
			XAI_API_KEY: undefined,
			MOONSHOT_API_KEY: undefined,
		});
		const error = await failure(readAndTranslate(image, job({ translator: "deepseek" }), ctx));
		expect(error.detail).toContain("GEMINI_API_KEY");
		expect(error.detail).toContain("READER");
	});

	it("the fallback reader is the first vision vendor with a key", async () => {
		const { ctx, fake } = withFake({ GEMINI_API_KEY: undefined, OPENAI_API_KEY: undefined });
		await readAndTranslate(image, job({ translator: "deepseek" }), ctx);
		expect(fake.calls[0]?.vendor).toBe("claude");
	});

	it("READER=deepseek is refused: it cannot see", async () => {
		const { ctx } = withFake({ READER: "deepseek" });
		const error = await failure(readAndTranslate(image, job({ translator: "grok" }), ctx));
		expect(error.detail).toContain("cannot read images");
	});

	it("READER=workers-ai without the AI binding says so", async () => {
		const { ctx } = withFake({ READER: "workers-ai", AI: undefined });
		const error = await failure(readAndTranslate(image, job({ translator: "grok" }), ctx));
		expect(error.detail).toContain("AI binding");
	});
});

describe("authentication: 'translator authentication failed', not retried, no key echoed", () => {
	for (const status of [401, 403]) {
		it(`a vendor's ${status}`, async () => {
			const { ctx, fake } = withFake({}, { faults: [{ status }] });
			const error = await failure(readAndTranslate(image, job({ translator: "chatgpt" }), ctx));
			expect(error.detail).toBe("translator authentication failed");
			expect(fake.calls).toHaveLength(1);
		});
	}

	it("xAI's 400 'Incorrect API key provided' (which echoes the key's start)", async () => {
		const { ctx, fake } = withFake({ XAI_API_KEY: "invalid-xai-key" });
		const error = await failure(readAndTranslate(image, job({ translator: "grok" }), ctx));
		expect(fake.calls[0]?.rejected).toBe(400);
		expect(error.detail).toBe("translator authentication failed");
		expect(fake.calls).toHaveLength(1);
		expect(JSON.stringify({ ...error, message: error.message, cause: String(error.cause) })).not.toContain("in***");
	});

	it("Gemini's 400 API_KEY_INVALID", async () => {
		const { ctx, fake } = withFake({ GEMINI_API_KEY: "invalid-key" });
		const error = await failure(readAndTranslate(image, job({ translator: "gemini" }), ctx));
		expect(error.detail).toBe("translator authentication failed");
		expect(fake.calls).toHaveLength(1);
	});

	it("Anthropic's 401 for a wrong key, checked by the fake against the expected key", async () => {
		const { ctx, fake } = withFake({}, { keys: { claude: "the-right-key" } });
		const error = await failure(readAndTranslate(image, job({ translator: "claude" }), ctx));
		expect(error.detail).toBe("translator authentication failed");
		expect(fake.calls).toHaveLength(1);
	});
});

describe("an unknown or retired model: each vendor's own error, named, not retried", () => {
	const cases = [
		["grok", "XAI_MODEL", "grok-2-vision-1212", 404],
		["gemini", "GEMINI_MODEL", "gemini-2.0-flash", 404],
		["deepseek", "DEEPSEEK_MODEL", "deepseek-chat", 400],
		["kimi", "MOONSHOT_MODEL", "kimi-k2-turbo-preview", 404],
		["chatgpt", "OPENAI_MODEL", "gpt-4o", 404],
		["claude", "ANTHROPIC_MODEL", "claude-3-5-sonnet-20241022", 404],
	] as const;
	for (const [translator, variable, model, status] of cases) {
		it(`${translator}: ${model} answers ${status}`, async () => {
			const { ctx, fake } = withFake({ [variable]: model });
			const error = await failure(readAndTranslate(image, job({ translator }), ctx));
			const asked = fake.calls.filter((c) => c.vendor === translator);
			expect(asked).toHaveLength(1);
			expect(asked[0]?.rejected).toBe(status);
			expect(error.detail).toBe(
				`Translation failed: ${translator} does not know the model "${model}" (it may be retired); set ${variable} to a current one`,
			);
		});
	}

	it("workers-ai: the binding's 5007 'No such model'", async () => {
		const { ctx, fake } = withFake({
			READER: "workers-ai",
			WORKERS_AI_MODEL: "@cf/meta/llama-3.2-11b-vision-instruct",
		});
		const error = await failure(readAndTranslate(image, job({ translator: "grok" }), ctx));
		expect(error.detail).toContain('workers-ai does not know the model "@cf/meta/llama-3.2-11b-vision-instruct"');
		expect(fake.calls).toHaveLength(1);
	});
});

describe("transient failures: retried once, after the vendor's stated wait", () => {
	it("a 429 is retried after the vendor's Retry-After, then succeeds", async () => {
		const { ctx, fake } = withFake({}, { faults: [{ status: 429, retryAfter: "1" }] });
		const started = Date.now();
		const result = await readAndTranslate(image, job({ translator: "grok" }), ctx);
		expect(Date.now() - started).toBeGreaterThanOrEqual(950);
		expect(fake.calls).toHaveLength(2);
		expect(result.regions).toHaveLength(3);
	});

	it("Gemini's 429 says its wait in the body (RetryInfo.retryDelay), and it is honoured", async () => {
		const { ctx, fake } = withFake({}, { faults: [{ status: 429, retryDelay: "1.2s" }] });
		const started = Date.now();
		const result = await readAndTranslate(image, job({ translator: "gemini" }), ctx);
		expect(Date.now() - started).toBeGreaterThanOrEqual(1150);
		expect(fake.calls).toHaveLength(2);
		expect(result.regions).toHaveLength(3);
	});

	it("a 429 asking for a long wait fails at once rather than holding the client", async () => {
		const { ctx, fake } = withFake({}, { faults: [{ status: 429, retryDelay: "120s" }] });
		const error = await failure(readAndTranslate(image, job({ translator: "gemini" }), ctx));
		expect(error.detail).toBe("Translation failed: gemini is rate limited (HTTP 429)");
		expect(fake.calls).toHaveLength(1);
	});

	it("two 5xx in a row fail with the status, after exactly one retry", async () => {
		const { ctx, fake } = withFake({}, { faults: [{ status: 503 }, { status: 500 }] });
		const error = await failure(readAndTranslate(image, job({ translator: "claude" }), ctx));
		expect(error.detail).toBe("Translation failed: claude answered HTTP 500");
		expect(fake.calls).toHaveLength(2);
	});

	it("Anthropic's 529 overloaded is retried", async () => {
		const { ctx, fake } = withFake({}, { faults: [{ status: 529 }] });
		await readAndTranslate(image, job({ translator: "claude" }), ctx);
		expect(fake.calls).toHaveLength(2);
	});

	it("a network failure is retried, then says the vendor could not be reached", async () => {
		const { ctx } = withFake();
		const fetch = vi.spyOn(globalThis, "fetch").mockRejectedValue(new TypeError("fetch failed"));
		const error = await failure(readAndTranslate(image, job({ translator: "kimi" }), ctx));
		expect(error.detail).toBe("Translation failed: kimi could not be reached");
		expect(fetch).toHaveBeenCalledTimes(2);
	});

	it("a hung call times out per MODEL_TIMEOUT_MS, is retried, and the retry's answer is used", async () => {
		const { ctx, fake } = withFake({ MODEL_TIMEOUT_MS: "200" }, { faults: [{ hang: true }] });
		const result = await readAndTranslate(image, job({ translator: "gemini" }), ctx);
		expect(fake.calls).toHaveLength(2);
		expect(result.regions).toHaveLength(3);
	});

	it("two timeouts fail with the timeout in the detail", async () => {
		const { ctx, fake } = withFake({ MODEL_TIMEOUT_MS: "200" }, { faults: [{ hang: true }, { hang: true }] });
		const error = await failure(readAndTranslate(image, job({ translator: "gemini" }), ctx));
		expect(error.detail).toBe("Translation failed: gemini did not answer within 0.2 s");
		expect(fake.calls).toHaveLength(2);
	});

	for (const malformed of ["garbage", "blank", "wrong-shape"] as const) {
		it(`a ${malformed} reply is retried once; twice fails as a broken output format`, async () => {
			const once = withFake({}, { faults: [{ malformed }] });
			await readAndTranslate(image, job({ translator: "kimi" }), once.ctx);
			expect(once.fake.calls).toHaveLength(2);
			vi.restoreAllMocks();
			const twice = withFake({}, { faults: [{ malformed }, { malformed }] });
			const error = await failure(readAndTranslate(image, job({ translator: "kimi" }), twice.ctx));
			expect(error.detail).toBe("Translation failed: kimi's reply did not follow the output format");
		});
	}

	it("a translation missing an id is retried, then fails", async () => {
		const { ctx, fake } = withFake({}, { faults: [{}, { fixture: "missing-ids" }, { fixture: "missing-ids" }] });
		const error = await failure(readAndTranslate(image, job({ translator: "deepseek" }), ctx));
		expect(error.detail).toBe("Translation failed: deepseek's reply did not follow the output format");
		expect(fake.calls.map((c) => c.task?.kind)).toEqual(["read", "translate", "translate"]);
	});

	it("Workers AI errors thrown by the binding are retried, then fail", async () => {
		const { ctx, fake } = withFake({ READER: "workers-ai" }, { faults: [{ status: 500 }, { status: 500 }] });
		const error = await failure(readAndTranslate(image, job({ translator: "grok" }), ctx));
		expect(error.detail).toBe("Translation failed: workers-ai could not be reached");
		expect(fake.calls).toHaveLength(2);
	});
});

describe("a reply cut off at the token limit: never sent again unchanged", () => {
	it("a read cut off is read again as two halves of the image, without lines", async () => {
		const { ctx, fake } = withFake({}, { faults: [{ malformed: "truncated" }] });
		const result = await readAndTranslate(image, job({ translator: "gemini" }), ctx);
		expect(fake.calls).toHaveLength(3);
		const [first, ...halves] = fake.calls;
		const fields = (call: typeof first) =>
			Object.keys(call?.body.generationConfig.responseJsonSchema.properties.regions.items.properties);
		expect(fields(first)).toContain("lines");
		for (const half of halves) expect(fields(half)).not.toContain("lines");
		const sent = (call: typeof first) => call?.body.contents[0].parts[0].inline_data.data.length as number;
		for (const half of halves) expect(sent(half)).toBeLessThan(sent(first));
		// The fixture answers its three blocks for whatever it is sent: three per half, placed in that half.
		expect(result.regions).toHaveLength(6);
		expect(Math.max(...result.regions.slice(0, 3).map((r) => r.box.x1))).toBeLessThanOrEqual(image.width * 0.575 + 1);
		expect(Math.min(...result.regions.slice(3).map((r) => r.box.x0))).toBeGreaterThanOrEqual(image.width * 0.425 - 1);
	});

	it("cut off again, it fails saying so", async () => {
		const truncated = { malformed: "truncated" } as const;
		const { ctx, fake } = withFake({}, { faults: [truncated, truncated, truncated] });
		const error = await failure(readAndTranslate(image, job({ translator: "claude" }), ctx));
		expect(error.detail).toBe("Translation failed: claude's reply was cut off at its output limit");
		expect(fake.calls.length).toBeLessThanOrEqual(3);
	});

	it("a translation cut off is sent again as two smaller chunks", async () => {
		const { ctx, fake } = withFake({}, { faults: [{}, { malformed: "truncated" }] });
		const result = await readAndTranslate(image, job({ translator: "deepseek" }), ctx);
		const translations = fake.calls.filter((c) => c.task?.kind === "translate");
		expect(translations).toHaveLength(3);
		const ids = (i: number) => JSON.parse(translations[i]?.body.messages[1].content.split("\n\n")[0]).items.length;
		expect([ids(1), ids(2)]).toEqual([2, 1]);
		expect(result.regions.map((r) => r.translation)).toHaveLength(3);
		expect(result.regions[2]?.translation).toBe("[en] SALE 50% OFF ¥1,980");
	});

	it("the fake cuts an answer longer than the request's limit, as a vendor does", async () => {
		const fake = createFakeVendor();
		const response = await fake.fetch("https://api.openai.com/v1/chat/completions", {
			method: "POST",
			headers: { authorization: "Bearer k", "content-type": "application/json" },
			body: JSON.stringify({
				model: "gpt-6.1-terra",
				max_completion_tokens: 10,
				messages: [{ role: "user", content: '{"source":"ja","target":"en","items":[{"id":0,"text":"こんにちは"}]}' }],
			}),
		});
		const reply = (await response.json()) as { choices: { finish_reason: string; message: { content: string } }[] };
		expect(reply.choices[0]?.finish_reason).toBe("length");
		expect(fake.calls[0]?.outputTokens).toBe(10);
		expect(() => JSON.parse(reply.choices[0]?.message.content ?? "")).toThrow();
	});
});

describe("the model declined: not retried, the detail says so", () => {
	const cases = [
		["chatgpt", "refusal", "OpenAI's message.refusal"],
		["grok", "safety", "finish_reason content_filter"],
		["claude", "refusal", 'Anthropic\'s stop_reason "refusal"'],
		["gemini", "refusal", "Gemini's promptFeedback.blockReason"],
		["gemini", "safety", 'Gemini\'s finishReason "SAFETY"'],
	] as const;
	for (const [translator, declined, how] of cases) {
		it(`${translator}: ${how}`, async () => {
			const { ctx, fake } = withFake({}, { faults: [{ declined }] });
			const error = await failure(readAndTranslate(image, job({ translator }), ctx));
			expect(error.detail).toBe(`Translation failed: ${translator}'s model declined to process this image`);
			expect(fake.calls).toHaveLength(1);
		});
	}
});

describe("a request the vendor rejects", () => {
	it("a 400 is not retried: the same request would fail the same way", async () => {
		const { ctx, fake } = withFake({}, { faults: [{ status: 400 }] });
		const error = await failure(readAndTranslate(image, job({ translator: "grok" }), ctx));
		expect(error.detail).toBe("Translation failed: grok rejected the request (HTTP 400)");
		expect(fake.calls).toHaveLength(1);
	});
});

describe("one deadline for all model work, under the reservation timeout", () => {
	const translationAsk = {
		system: "Translate.",
		text: '{"source":"ja","target":"en","items":[{"id":0,"text":"はい"}]}',
		root: "translations" as const,
		schema: TRANSLATIONS_SCHEMA,
		maxTokens: 100,
	};

	it("MODEL_TIMEOUT_MS cannot outlast the deadline, and the deadline ends before the reservation does", () => {
		const now = 1_000_000;
		const ctx = modelAskContext({ MODEL_TIMEOUT_MS: String(60 * 60 * 1000) } as Env, new AbortController().signal, now);
		expect(ctx.attemptTimeoutMs).toBe(MODEL_WORK_DEADLINE_MS);
		expect(ctx.deadline).toBe(now + MODEL_WORK_DEADLINE_MS);
		expect(ctx.deadline).toBeLessThan(now + RESERVATION_TIMEOUT_MS);
	});

	it("no retry is started that could not finish before the deadline", async () => {
		const { fake } = withFake({}, { faults: [{ status: 503 }] });
		const endpoint = endpointFor({ ...ALL_KEYS } as unknown as Env, "grok");
		const error = await askModel(
			endpoint,
			translationAsk,
			{ signal: new AbortController().signal, deadline: Date.now() + 1500, attemptTimeoutMs: 60_000 },
			(d) => d,
		).then(
			() => undefined,
			(e: unknown) => e,
		);
		expect(error).toBeInstanceOf(ModelError);
		expect((error as ModelError).kind).toBe("transient");
		expect(fake.calls).toHaveLength(1);
	});

	it("an attempt is cut at the deadline even when MODEL_TIMEOUT_MS allows more", async () => {
		const { fake } = withFake({}, { faults: [{ hang: true }] });
		const endpoint = endpointFor({ ...ALL_KEYS } as unknown as Env, "grok");
		const started = Date.now();
		const error = await askModel(
			endpoint,
			translationAsk,
			{ signal: new AbortController().signal, deadline: Date.now() + 300, attemptTimeoutMs: 60_000 },
			(d) => d,
		).then(
			() => undefined,
			(e: unknown) => e,
		);
		expect((error as ModelError).kind).toBe("timeout");
		expect(Date.now() - started).toBeLessThan(2000);
		expect(fake.calls).toHaveLength(1);
	});
});

describe("client disconnect", () => {
	it("aborts the outstanding model call and fails without a retry", async () => {
		const { ctx, fake, abort } = withFake({}, { faults: [{ hang: true }] });
		const signals: AbortSignal[] = [];
		vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
			if (init?.signal) signals.push(init.signal);
			setTimeout(() => abort.abort(), 10);
			return fake.fetch(input, init);
		});
		const error = await failure(readAndTranslate(image, job({ translator: "grok" }), ctx));
		expect(error.detail).toContain("client disconnected");
		expect(signals).toHaveLength(1);
		expect(signals[0]?.aborted).toBe(true);
		expect(fake.calls).toHaveLength(1);
	});
});
