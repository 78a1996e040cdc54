/**
 * A faithful fake of every model vendor yakusu calls: OpenAI-compatible chat completions
 * (xAI, DeepSeek, Moonshot, OpenAI), Gemini generateContent, Anthropic Messages, and the
 * Workers AI binding. It checks each request as the vendor would (protocols.mjs) and
 * answers from fixtures (fixtures.mjs), with switches for latency, HTTP errors, hangs
 * (timeouts), reply forms and malformed replies.
 *
 * In workerd tests:
 *   const fake = createFakeVendor({ fixture: "default", faults: [{ status: 429, retryAfter: "1" }] });
 *   vi.spyOn(globalThis, "fetch").mockImplementation(fake.fetch);   // every vendor URL
 *   env.AI = fake.ai;                                                // Workers AI
 *   ... fake.calls holds every request seen, with its protocol, vendor and parsed body.
 * The loopback server (scripts/fake-vendor.mjs) wraps the same `handle`.
 *
 * Options:
 *   fixture     name from fixtures.mjs (default "default")
 *   form        how a correct answer is written: "plain" (default), "fence" (```json ...```),
 *               "prose" (a sentence before, a remark after), "text" (Anthropic: no tool call)
 *   latencyMs   delay before every answer (aborts with the caller's signal)
 *   keys        { [vendor]: expected key }; otherwise any key passes unless it starts with "invalid"
 *   reader      (task, image) => document (or its promise): answers reads and translations instead
 *               of the fixtures, e.g. a real OCR engine (scripts/local-reader); `image` is { mime, base64 }
 *   rough       boxes of every read moved, scaled, cut short, merged, split and repeated like a real
 *               vision model's (rough.mjs): true, a seed, or { seed, ...shares } to set how often
 *   faults      consumed one per request, in order, then answers are normal again:
 *                 { status: 429, retryAfter: "2" }   an HTTP error in the vendor's shape
 *                 { hang: true }                      never answers (until the caller aborts)
 *                 { malformed: "garbage" | "blank" | "truncated" | "wrong-shape" }
 *                 { fixture: "missing-ids" }          one answer from another fixture
 */
import { answerFor } from "./fixtures.mjs";
import { knownModel, modelList, unknownModelError } from "./models.mjs";
import {
	authError,
	checkAnthropic,
	checkGemini,
	checkOpenAiChat,
	checkWorkersAi,
	errorAnthropic,
	errorGemini,
	errorOpenAiChat,
	replyAnthropic,
	replyGemini,
	replyOpenAiChat,
} from "./protocols.mjs";
import { roughDocument } from "./rough.mjs";

/** Vendor by host, for real base URLs; by first path segment on the loopback server. */
const HOSTS = {
	"api.x.ai": "grok",
	"api.deepseek.com": "deepseek",
	"api.moonshot.ai": "kimi",
	"api.moonshot.cn": "kimi",
	"api.openai.com": "chatgpt",
	"generativelanguage.googleapis.com": "gemini",
	"api.anthropic.com": "claude",
};
const SEGMENTS = {
	grok: "grok",
	xai: "grok",
	deepseek: "deepseek",
	kimi: "kimi",
	moonshot: "kimi",
	chatgpt: "chatgpt",
	openai: "chatgpt",
	gemini: "gemini",
	claude: "claude",
	anthropic: "claude",
};

export function createFakeVendor(options = {}) {
	const faults = [...(options.faults ?? [])];
	const calls = [];

	/** Answers one HTTP request; `overrides` (loopback path switches) win over the options. */
	async function handle(request, overrides = {}) {
		const settings = { ...options, ...overrides };
		const url = new URL(request.url);
		const protocol = protocolOf(url.pathname);
		const vendor =
			HOSTS[url.hostname] ??
			SEGMENTS[url.pathname.split("/")[1]] ??
			(protocol === "openai-chat" || protocol === "models" ? "openai-compatible" : protocol);
		if (request.method === "GET" && protocol === "models") {
			calls.push({ protocol, vendor, url: request.url, headers: Object.fromEntries(request.headers), body: undefined });
			return listModels(request, vendor, settings);
		}
		const body = await request.json().catch(() => undefined);
		const call = { protocol, vendor, url: request.url, headers: Object.fromEntries(request.headers), body };
		calls.push(call);
		if (!protocol || protocol === "models")
			return new Response(JSON.stringify({ error: { message: `fake vendor: no route ${url.pathname}` } }), {
				status: 404,
			});
		if (body === undefined)
			return new Response(JSON.stringify({ error: { message: "body is not JSON" } }), { status: 400 });

		const expect = { vendor, key: settings.keys?.[vendor] };
		const checked =
			protocol === "gemini"
				? checkGemini(request, body, expect)
				: protocol === "anthropic"
					? checkAnthropic(request, body, expect)
					: checkOpenAiChat(request, body, expect);
		if (checked.error) {
			call.rejected = checked.error.status;
			return checked.error;
		}
		const model = protocol === "gemini" ? /\/models\/([^/:]+):/.exec(url.pathname)?.[1] : body.model;
		if (!knownModel(vendor, model)) {
			const error = unknownModelError(vendor, model);
			call.rejected = error.status;
			return error;
		}

		const fault = overrides.fault ?? faults.shift() ?? {};
		await wait(settings.latencyMs ?? 0, request.signal);
		if (fault.hang) await wait(Number.POSITIVE_INFINITY, request.signal);
		if (fault.status) {
			const headers = fault.retryAfter !== undefined ? { "retry-after": String(fault.retryAfter) } : {};
			return protocol === "gemini"
				? errorGemini(fault.status, headers, fault.retryDelay)
				: protocol === "anthropic"
					? errorAnthropic(fault.status, headers)
					: errorOpenAiChat(fault.status, headers, vendor);
		}
		let answered;
		try {
			answered = await answer(checked.asked, fault, settings);
		} catch (error) {
			// A request no vendor could make sense of: a 400, so the client under test fails loudly.
			call.rejected = 400;
			return new Response(JSON.stringify({ error: { message: String(error.message) } }), { status: 400 });
		}
		const { task, document, text, truncated, outputTokens } = answered;
		call.task = task;
		call.outputTokens = outputTokens;
		// A model writes at its own pace: the answer (and any thinking before it) takes its time.
		await wait(writingMs(outputTokens, checked.asked.thinks, settings), request.signal);
		const declined = fault.declined;
		if (protocol === "gemini") return replyGemini(text, { truncated, declined, outputTokens });
		if (protocol === "anthropic") {
			return replyAnthropic(text, fault.malformed ? undefined : document, {
				tool: checked.asked.tool,
				truncated,
				declined,
				outputTokens,
				asText: settings.form === "text",
			});
		}
		return replyOpenAiChat(text, { truncated, declined, outputTokens });
	}

	/** The Workers AI binding: `AI.run(model, inputs, { signal })`. */
	const ai = {
		async run(model, inputs, runOptions = {}) {
			const call = { protocol: "workers-ai", vendor: "workers-ai", model, body: inputs };
			calls.push(call);
			const asked = checkWorkersAi(model, inputs);
			if (!knownModel("workers-ai", model)) throw new Error(`AiError: 5007: No such model ${model} or task`);
			const fault = faults.shift() ?? {};
			await wait(options.latencyMs ?? 0, runOptions.signal);
			if (fault.hang) await wait(Number.POSITIVE_INFINITY, runOptions.signal);
			if (fault.status) throw new Error(`AiError: 3040: Capacity temporarily exceeded (fake ${fault.status})`);
			const { task, document, text, truncated, outputTokens } = await answer(asked, fault, options);
			call.task = task;
			call.outputTokens = outputTokens;
			await wait(writingMs(outputTokens, false, options), runOptions.signal);
			// Newer models answer in the OpenAI shape; older ones as { response }, the document parsed or as text.
			if (options.aiShape === "choices") {
				return {
					choices: [
						{ index: 0, message: { role: "assistant", content: text }, finish_reason: truncated ? "length" : "stop" },
					],
				};
			}
			return { response: fault.malformed || options.form ? text : document };
		},
	};

	return {
		calls,
		handle,
		ai,
		/** Drop-in for globalThis.fetch. */
		fetch: (input, init) => handle(new Request(input, init)),
	};
}

/** GET .../models, with the same key check as the vendor's other endpoints. */
function listModels(request, vendor, settings) {
	return authError(request, { vendor, key: settings.keys?.[vendor] }) ?? modelList(vendor);
}

/**
 * How long writing `tokens` takes at `tokensPerSecond` (0: instantly). A model that thinks by
 * default, when the request did not turn it off, first writes as many tokens again of thought.
 */
function writingMs(tokens, thinks, settings) {
	const rate = Number(settings.tokensPerSecond ?? 0);
	if (!(rate > 0)) return 0;
	return ((thinks ? 2 : 1) * tokens * 1000) / rate;
}

function protocolOf(pathname) {
	if (pathname.endsWith("/models")) return "models";
	if (pathname.endsWith("/chat/completions")) return "openai-chat";
	if (pathname.endsWith(":generateContent")) return "gemini";
	if (pathname.endsWith("/v1/messages")) return "anthropic";
	return undefined;
}

/**
 * Works out the task from what was asked and writes the answer text in the requested form; an
 * answer longer than the request's output limit is cut there, as a vendor does.
 */
async function answer(asked, fault, settings) {
	const input = firstJson(asked.text);
	// Items to translate make a translation, even with the image attached for context.
	const kind = input?.items ? "translate" : asked.image ? (input?.target ? "read-translate" : "read") : undefined;
	if (!kind) throw new Error("fake vendor: the request is neither a read (image) nor a translation (items)");
	const root = kind === "translate" ? "translations" : "regions";
	const schemaText = JSON.stringify(asked.schema ?? "") + asked.system;
	if (asked.schema && !(root in (asked.schema.properties ?? {}))) {
		throw new Error(`fake vendor: a ${kind} request must carry a schema rooted at "${root}"`);
	}
	const task = {
		kind,
		source: input?.source,
		target: input?.target,
		items: input?.items,
		boxField: schemaText.includes("box_2d") ? "box_2d" : "box",
		sent: asked.image ? imageSize(asked.image.base64) : undefined,
	};
	const fixture = fault.fixture ?? settings.fixture ?? "default";
	let document =
		settings.reader && !fault.fixture ? await settings.reader(task, asked.image) : answerFor(task, fixture);
	if (settings.rough && task.kind !== "translate")
		document = roughDocument(document, roughSetting(task, fixture, settings.rough));
	const plain = JSON.stringify(document);
	switch (fault.malformed) {
		case "garbage":
			return written(task, "I'm sorry, but I can't help with identifying text in this image.");
		case "blank":
			return written(task, "   ");
		case "truncated":
			return { ...written(task, plain.slice(0, Math.floor(plain.length / 2))), truncated: true };
		case "wrong-shape":
			return written(task, JSON.stringify({ [root === "regions" ? "blocks" : "result"]: [] }));
	}
	const text =
		settings.form === "fence"
			? `\`\`\`json\n${JSON.stringify(document, null, 2)}\n\`\`\``
			: settings.form === "prose"
				? `Here is the JSON you asked for:\n\`\`\`json\n${plain}\n\`\`\`\nLet me know if you need anything else {or more}.`
				: plain;
	const tokens = tokenize(text);
	if (asked.maxTokens > 0 && tokens.length > asked.maxTokens) {
		return { ...written(task, tokens.slice(0, asked.maxTokens).join("")), truncated: true };
	}
	return { task, document, text, outputTokens: tokens.length };
}

function written(task, text) {
	return { task, text, outputTokens: tokenize(text).length };
}

/**
 * The answer split roughly as a BPE tokenizer would: a word with the space before it, up to three
 * digits, one CJK character, up to three punctuation marks, a run of other white space.
 */
export function tokenize(text) {
	return (
		text.match(
			/ ?[\p{L}--\p{Script=Han}--\p{Script=Hiragana}--\p{Script=Katakana}--\p{Script=Hangul}]+|\p{N}{1,3}|[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]|[^\s\p{L}\p{N}]{1,3}|\s+/gv,
		) ?? []
	);
}

/** How the rough reader sees this answer's boxes: their field, their unit's extent, and the setting. */
function roughSetting(task, fixture, rough) {
	const bound =
		fixture === "pixels" && task.sent
			? task.sent
			: fixture === "fractions"
				? { width: 1, height: 1 }
				: { width: 1000, height: 1000 };
	const options = typeof rough === "object" ? rough : { seed: typeof rough === "number" ? rough : 1 };
	return { field: task.boxField, bound, options };
}

function firstJson(text) {
	const start = text.indexOf("{");
	if (start < 0) return undefined;
	for (let end = text.lastIndexOf("}"); end > start; end = text.lastIndexOf("}", end - 1)) {
		try {
			return JSON.parse(text.slice(start, end + 1));
		} catch {}
	}
	return undefined;
}

/** Width and height from a JPEG's SOF marker or a PNG's IHDR, so "pixels" fixtures match the image sent. */
export function imageSize(base64) {
	const bytes = Uint8Array.from(atob(base64.slice(0, 65536 - (65536 % 4))), (c) => c.charCodeAt(0));
	if (bytes[0] === 0x89 && bytes[1] === 0x50) {
		const view = new DataView(bytes.buffer);
		return { width: view.getUint32(16), height: view.getUint32(20) };
	}
	for (let i = 2; i + 9 < bytes.length; ) {
		if (bytes[i] !== 0xff) return undefined;
		const marker = bytes[i + 1];
		const length = (bytes[i + 2] << 8) | bytes[i + 3];
		if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
			return { height: (bytes[i + 5] << 8) | bytes[i + 6], width: (bytes[i + 7] << 8) | bytes[i + 8] };
		}
		i += 2 + length;
	}
	return undefined;
}

function wait(ms, signal) {
	return new Promise((resolve, reject) => {
		if (signal?.aborted) return reject(signal.reason ?? new DOMException("aborted", "AbortError"));
		const timer = Number.isFinite(ms) ? setTimeout(resolve, ms) : undefined;
		signal?.addEventListener("abort", () => {
			clearTimeout(timer);
			reject(signal.reason ?? new DOMException("aborted", "AbortError"));
		});
	});
}
