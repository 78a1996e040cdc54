/**
 * Every failure ends in a PipelineError (the HTTP layer answers 500 and refunds it):
 * missing keys name the variable, bad keys say "translator authentication failed" and
 * are not retried, transient failures are retried once (honouring Retry-After), and a
 * client that goes away aborts the model call.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { PipelineError } from "../../src/pipeline/errors";
import { readAndTranslate } from "../../src/pipeline/read";
import { copiesOf, job, raster, withFake } from "./helpers";

afterEach(() => vi.restoreAllMocks());

const image = copiesOf(raster(1200, 900));

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

describe("authentication", () => {
	for (const status of [401, 403]) {
		it(`a vendor ${status} is "translator authentication failed", not retried, no key echoed`, async () => {
			const { ctx, fake } = withFake({}, { faults: [{ status }] });
			const error = await failure(readAndTranslate(image, job({ translator: "chatgpt" }), ctx));
			expect(error.detail).toBe("translator authentication failed");
			expect(fake.calls).toHaveLength(1);
			expect(JSON.stringify({ ...error, message: error.message })).not.toContain("test-openai-key");
		});
	}

	it("Gemini's 400 API_KEY_INVALID is an authentication failure too", async () => {
		const { ctx, fake } = withFake({ GEMINI_API_KEY: "invalid-key" });
		const error = await failure(readAndTranslate(image, job({ translator: "gemini" }), ctx));
		expect(error.detail).toBe("translator authentication failed");
		expect(fake.calls).toHaveLength(1);
	});

	it("Anthropic's 401 for a wrong key, checked by the fake against the expected key", async () => {
		const { ctx } = withFake({}, { keys: { claude: "the-right-key" } });
		const error = await failure(readAndTranslate(image, job({ translator: "claude" }), ctx));
		expect(error.detail).toBe("translator authentication failed");
	});
});

describe("retries", () => {
	it("a 429 is retried after the vendor's Retry-After, then succeeds", async () => {
		const { ctx, fake } = withFake({}, { faults: [{ status: 429, retryAfter: "1" }] });
		const started = Date.now();
		const result = await readAndTranslate(image, job({ translator: "grok" }), ctx);
		expect(Date.now() - started).toBeGreaterThanOrEqual(950);
		expect(fake.calls).toHaveLength(2);
		expect(result.regions).toHaveLength(3);
	});

	it("a 429 asking for a long wait fails at once rather than holding the client", async () => {
		const { ctx, fake } = withFake({}, { faults: [{ status: 429, retryAfter: "120" }] });
		const error = await failure(readAndTranslate(image, job({ translator: "grok" }), ctx));
		expect(error.detail).toBe("Translation failed: grok is rate limited (HTTP 429)");
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

	it("a 400 is not retried: the same request would fail the same way", async () => {
		const { ctx, fake } = withFake({}, { faults: [{ status: 400 }] });
		const error = await failure(readAndTranslate(image, job({ translator: "grok" }), ctx));
		expect(error.detail).toBe("Translation failed: grok answered HTTP 400");
		expect(fake.calls).toHaveLength(1);
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

	for (const malformed of ["garbage", "blank", "truncated", "wrong-shape"] as const) {
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
