#!/usr/bin/env node
/**
 * `npm run vendors`: tells an operator, in one command, which configured vendors work today.
 * Reads the keys, base URLs and models from `.dev.vars` in the current directory and from the
 * environment (which wins), and for each translator and the reader: lists the vendor's models
 * where it has a models endpoint, sends one tiny read (the image test/e2e/fixtures/hello-ja.png)
 * and one tiny translation, exactly as the Worker sends them (src/models, bundled here), and
 * prints a table. A vendor without a key is said so and skipped. Keys are never printed.
 *
 *   npm run vendors                 every vendor
 *   npm run vendors -- grok claude  only these
 *   npm run vendors -- --slow 5     call a read or translation slower than 5 s slow (default 10)
 *
 * Workers AI is reached through the Cloudflare REST API when CLOUDFLARE_ACCOUNT_ID and
 * CLOUDFLARE_API_TOKEN are set (the Worker uses its AI binding instead). Exit status: 0 when
 * every vendor with a key works, 1 otherwise.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { PhotonImage } from "@cf-wasm/photon";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** One request's limit here; the Worker's is MODEL_TIMEOUT_MS. */
const TIMEOUT_MS = 60_000;

const models = await bundledModels();
const env = { ...devVars(".dev.vars"), ...definedEnv() };
const { values: flags, positionals } = parseArgs({ options: { slow: { type: "string" } }, allowPositionals: true });
/** A read or a translation slower than this is marked slow: a client waits for both. */
const SLOW_MS = Number(flags.slow ?? 10) * 1000;
const only = positionals.map((a) => a.toLowerCase());
const names = [...Object.keys(models.VENDORS)].filter((name) => only.length === 0 || only.includes(name));
const image = testImage();

const rows = [];
for (const name of names) rows.push(await check(name));
printTable(rows);
process.exit(rows.every((r) => r.verdict === "works" || r.verdict.startsWith("no key")) ? 0 : 1);

/** One vendor: its models list, a read (when it can see), a translation, and what they say together. */
async function check(name) {
	const spec = models.VENDORS[name];
	const row = {
		name,
		model: env[spec.modelVar] || spec.defaultModel,
		listed: "",
		read: "",
		translate: "",
		verdict: "",
	};
	const keyVar = spec.keyVar ?? "CLOUDFLARE_API_TOKEN";
	if (name === "workers-ai" && !(env.CLOUDFLARE_ACCOUNT_ID && env.CLOUDFLARE_API_TOKEN)) {
		return { ...row, verdict: "no key (set CLOUDFLARE_ACCOUNT_ID and CLOUDFLARE_API_TOKEN to check it)" };
	}
	if (name !== "workers-ai" && !env[keyVar]) return { ...row, verdict: `no key (set ${keyVar})` };
	const endpoint = models.endpointFor({ ...env, ...(name === "workers-ai" ? { AI: restRunner(env) } : {}) }, name);
	row.listed = await listed(endpoint);
	const outcomes = [];
	if (spec.canSee) {
		const read = await timed(() => tinyRead(endpoint));
		row.read = cell(read);
		outcomes.push(read);
	} else row.read = "text only";
	const translation = await timed(() => tinyTranslation(endpoint));
	row.translate = cell(translation);
	outcomes.push(translation);
	row.verdict = verdict(outcomes, row.listed);
	return row;
}

async function tinyRead(endpoint) {
	const boxField = endpoint.spec.boxField;
	return models.askModel(
		endpoint,
		{
			system: models.readingSystemPrompt(boxField, "ja", { withDetail: false }),
			text: models.readingUserText(undefined),
			image,
			root: "regions",
			schema: models.regionsSchema({ boxField, withTranslation: false, withDetail: false }),
			maxTokens: 1024,
		},
		askContext(),
		(document) => {
			const regions = models.parseRegions(document, {
				withTranslation: false,
				sentWidth: image.width,
				sentHeight: image.height,
			});
			if (regions.length === 0) throw new models.ModelError("contract", "read no text in a picture of text");
			return regions;
		},
	);
}

async function tinyTranslation(endpoint) {
	const options = { mode: "general", source: "ja", target: "en" };
	return models.askModel(
		endpoint,
		{
			system: models.translationSystemPrompt(options, false),
			text: models.translationUserText(options, [{ id: 0, text: "こんにちは" }]),
			root: "translations",
			schema: models.TRANSLATIONS_SCHEMA,
			maxTokens: 256,
		},
		askContext(),
		(document) => models.parseTranslations(document, [0]),
	);
}

function askContext() {
	return { signal: new AbortController().signal, deadline: Date.now() + 2 * TIMEOUT_MS, attemptTimeoutMs: TIMEOUT_MS };
}

async function timed(run) {
	const started = Date.now();
	try {
		await run();
		return { ok: true, ms: Date.now() - started };
	} catch (error) {
		return { ok: false, ms: Date.now() - started, error };
	}
}

/** What one request's outcome says, in the table's words. */
function cell(outcome) {
	if (outcome.ok) return `ok ${(outcome.ms / 1000).toFixed(1)} s`;
	return problem(outcome.error);
}

function problem(error) {
	if (!(error instanceof models.ModelError)) return "failed";
	switch (error.kind) {
		case "auth":
			return "key refused";
		case "unknown-model":
			return "model unknown or retired";
		case "rejected":
			if (error.details.about === "image") return "can't see images";
			if (error.details.about === "output-format") return "no structured output";
			return `rejected (HTTP ${error.details.status ?? "?"})`;
		case "contract":
			return "no structured output";
		case "truncated":
			return "answer cut off";
		case "declined":
			return "model declined";
		case "timeout":
			return "no answer in time";
		case "transient":
			return error.details.status ? `unavailable (HTTP ${error.details.status})` : "unreachable";
		default:
			return error.kind;
	}
}

function verdict(outcomes, listed) {
	const failed = outcomes.find((o) => !o.ok);
	if (failed) return problem(failed.error);
	const slowest = Math.max(...outcomes.map((o) => o.ms));
	if (slowest > SLOW_MS) return `slow (${(slowest / 1000).toFixed(1)} s)`;
	return listed === "not listed" ? "works (model not in the vendor's list)" : "works";
}

/** Whether the configured model is in the vendor's list, for vendors with a models endpoint. */
async function listed(endpoint) {
	const { spec, baseUrl, model } = endpoint;
	let url;
	let headers;
	if (spec.protocol === "openai-chat") {
		url = `${baseUrl}/models`;
		headers = models.openAiHeaders(endpoint);
	} else if (spec.protocol === "gemini") {
		url = `${baseUrl}/models?pageSize=1000`;
		headers = models.geminiHeaders(endpoint);
	} else if (spec.protocol === "anthropic") {
		url = `${baseUrl}/v1/models?limit=1000`;
		headers = models.anthropicHeaders(endpoint);
	} else return "no list";
	try {
		const response = await fetch(url, { headers, signal: AbortSignal.timeout(TIMEOUT_MS) });
		if (!response.ok) return problem(models.errorFromReply(response.status, await response.text(), null));
		const body = await response.json();
		const ids = [...(body.data ?? []), ...(body.models ?? [])].map((m) =>
			String(m.id ?? m.name ?? "").replace(/^models\//, ""),
		);
		return ids.includes(model.replace(/^models\//, "")) ? "listed" : "not listed";
	} catch {
		return "no list";
	}
}

/** The AI binding's one method over Cloudflare's REST API, throwing as the binding does. */
function restRunner(vars) {
	return {
		async run(model, inputs, options = {}) {
			const response = await fetch(
				`https://api.cloudflare.com/client/v4/accounts/${vars.CLOUDFLARE_ACCOUNT_ID}/ai/run/${model}`,
				{
					method: "POST",
					headers: { authorization: `Bearer ${vars.CLOUDFLARE_API_TOKEN}`, "content-type": "application/json" },
					body: JSON.stringify(inputs),
					signal: options.signal,
				},
			);
			const body = await response.json().catch(() => ({}));
			if (!response.ok || body.success === false) {
				const first = body.errors?.[0] ?? {};
				throw new Error(
					`AiError: ${first.code ?? response.status}: ${response.status === 401 ? "authentication" : "request failed"}`,
				);
			}
			return body.result;
		},
	};
}

function printTable(table) {
	const header = ["vendor", "model", "models endpoint", "read", "translation", "verdict"];
	const lines = table.map((r) => [r.name, r.model, r.listed || "-", r.read || "-", r.translate || "-", r.verdict]);
	const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
	const format = (cells) =>
		cells
			.map((c, i) => c.padEnd(widths[i]))
			.join("  ")
			.trimEnd();
	console.log(format(header));
	console.log(format(widths.map((w) => "-".repeat(w))));
	for (const line of lines) console.log(format(line));
}

/** KEY="value" lines; comments and blank lines skipped. */
function devVars(path) {
	if (!existsSync(path)) return {};
	const vars = {};
	for (const line of readFileSync(path, "utf8").split("\n")) {
		const m = /^\s*([A-Z0-9_]+)\s*=\s*(.*?)\s*$/.exec(line);
		if (!m || line.trim().startsWith("#")) continue;
		vars[m[1]] = m[2].replace(/^(["'])(.*)\1$/, "$2");
	}
	return vars;
}

function definedEnv() {
	return Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== undefined && v !== ""));
}

/** The test page as the JPEG reader copy the Worker would send. */
function testImage() {
	const png = PhotonImage.new_from_byteslice(readFileSync(join(root, "test/e2e/fixtures/hello-ja.png")));
	try {
		const base64 = Buffer.from(png.get_bytes_jpeg(85)).toString("base64");
		return { mime: "image/jpeg", base64, width: png.get_width(), height: png.get_height() };
	} finally {
		png.free();
	}
}

/** src/models as the Worker runs it, bundled for Node. */
async function bundledModels() {
	const out = mkdtempSync(join(tmpdir(), "yakusu-vendors-"));
	try {
		const file = join(out, "models.mjs");
		await build({
			stdin: {
				contents: [
					'export { askModel } from "./src/models/ask-model.ts";',
					'export { parseRegions, parseTranslations, regionsSchema, TRANSLATIONS_SCHEMA } from "./src/models/contract.ts";',
					'export { ModelError } from "./src/models/errors.ts";',
					'export { errorFromReply } from "./src/models/http.ts";',
					'export { readingSystemPrompt, readingUserText, translationSystemPrompt, translationUserText } from "./src/models/prompts.ts";',
					'export { anthropicHeaders } from "./src/models/protocol-anthropic.ts";',
					'export { geminiHeaders } from "./src/models/protocol-gemini.ts";',
					'export { openAiHeaders } from "./src/models/protocol-openai-chat.ts";',
					'export { endpointFor, VENDORS } from "./src/models/vendors.ts";',
				].join("\n"),
				resolveDir: root,
				loader: "ts",
			},
			bundle: true,
			format: "esm",
			platform: "node",
			outfile: file,
			logLevel: "warning",
		});
		return await import(pathToFileURL(file).href);
	} finally {
		rmSync(out, { recursive: true, force: true });
	}
}
