#!/usr/bin/env node
/**
 * The fake model vendor as a loopback HTTP server, for `wrangler dev`, the playground and
 * CLI end-to-end tests. Same checks and answers as the workerd tests' fake
 * (test/fakes/vendor.mjs); by default it answers any image with three text blocks whose
 * translations read "[<target>] <text>".
 *
 *   node scripts/fake-vendor.mjs --port 8788
 *
 * Point every base URL at it, with the vendor's name as the first path segment:
 *   XAI_BASE_URL=http://127.0.0.1:8788/grok/v1          GEMINI_BASE_URL=http://127.0.0.1:8788/gemini/v1beta
 *   DEEPSEEK_BASE_URL=http://127.0.0.1:8788/deepseek    MOONSHOT_BASE_URL=http://127.0.0.1:8788/kimi/v1
 *   OPENAI_BASE_URL=http://127.0.0.1:8788/chatgpt/v1    ANTHROPIC_BASE_URL=http://127.0.0.1:8788/claude
 * Any key works except one starting with "invalid" (the vendor's 401; Gemini's and xAI's 400). Each
 * vendor knows its current models (test/fakes/models.mjs) and answers any other with its own error;
 * GET .../models lists them.
 *
 * Switches, as path segments before the vendor name (so one server plays many scenarios),
 * or as CLI flags for every request:
 *   fixture=NAME        default | empty | pixels | fractions | swapped | duplicates | minimal | missing-ids
 *   form=FORM           plain | fence | prose | text      how a correct answer is written
 *   latency=MS          wait before answering (the time to a first token)
 *   rate=N              write answers at N output tokens a second (a thinking model unasked to stop: twice the tokens)
 *   fail=STATUS         answer this HTTP error (in the vendor's error shape)
 *   retry-after=S       with fail: send Retry-After
 *   retry-delay=2s      with fail=429 on gemini: the wait in the body (RetryInfo), as Gemini sends it
 *   declined=KIND       refusal | safety: the model refuses, or the safety filter blocks, in the vendor's shape
 *   times=N             with fail/hang/malformed/declined: only the first N requests of this path are faulty
 *   hang                never answer (the client's timeout fires)
 *   malformed=KIND      garbage | blank | truncated | wrong-shape
 *   reader=ocr          read the image sent with a real OCR engine (scripts/local-reader: tesseract.js,
 *                       loaded on the first read) and translate with its stand-in, instead of fixtures
 *   rough=SEED          boxes as rough as a real vision model's (test/fakes/rough.mjs), deterministic per seed
 * Example: XAI_BASE_URL=http://127.0.0.1:8788/fail=429/retry-after=1/times=1/grok/v1
 * (a 429 once, then normal answers). CLI: --fixture empty --latency 300 --fail 500 --times 1 --reader ocr --rough 7 ...
 * Requests are logged as one line each (method, path, status); keys and images never are.
 */
import { createServer } from "node:http";
import { parseArgs } from "node:util";
import { createFakeVendor } from "../test/fakes/vendor.mjs";

const { values: flags } = parseArgs({
	options: {
		port: { type: "string", default: "8788" },
		host: { type: "string", default: "127.0.0.1" },
		fixture: { type: "string" },
		form: { type: "string" },
		latency: { type: "string" },
		rate: { type: "string" },
		fail: { type: "string" },
		"retry-after": { type: "string" },
		"retry-delay": { type: "string" },
		declined: { type: "string" },
		times: { type: "string" },
		hang: { type: "boolean" },
		malformed: { type: "string" },
		reader: { type: "string" },
		rough: { type: "string" },
		quiet: { type: "boolean" },
	},
});

const fake = createFakeVendor();
/** How many faulty answers each switch path has given, for `times`. */
const faultsGiven = new Map();

const server = createServer(async (req, res) => {
	const { switches, path, scenario } = splitSwitches(req.url ?? "/");
	const settings = {
		...definedFlags(),
		...switches,
	};
	const abort = new AbortController();
	res.on("close", () => abort.abort());
	const body = await new Promise((resolve) => {
		const chunks = [];
		req.on("data", (c) => chunks.push(c));
		req.on("end", () => resolve(Buffer.concat(chunks)));
	});
	const request = new Request(`http://${req.headers.host ?? "127.0.0.1"}${path}`, {
		method: req.method,
		headers: Object.entries(req.headers).flatMap(([k, v]) => (typeof v === "string" ? [[k, v]] : [])),
		body: req.method === "GET" || req.method === "HEAD" ? undefined : body,
		signal: abort.signal,
	});
	let response;
	try {
		response = await fake.handle(request, await overridesFor(settings, scenario));
	} catch (error) {
		if (abort.signal.aborted) return; // The client gave up (timeout or disconnect): nobody to answer.
		response = new Response(JSON.stringify({ error: { message: String(error?.message ?? error) } }), { status: 500 });
	}
	res.writeHead(response.status, Object.fromEntries(response.headers));
	res.end(Buffer.from(await response.arrayBuffer()));
	if (!flags.quiet) console.log(`${req.method} ${req.url} -> ${response.status}`);
});

server.listen(Number(flags.port), flags.host, () => {
	console.log(`fake model vendor on http://${flags.host}:${flags.port} (vendor name as first path segment)`);
});

let localReader;
/** The OCR reader, made on first use: tesseract.js itself loads on the first read. */
async function ocrReader() {
	if (!localReader) localReader = (await import("./local-reader/index.mjs")).localReader();
	return localReader;
}

/** Path segments of the form name=value (or `hang`) before the vendor's path. */
function splitSwitches(url) {
	const [pathname, query = ""] = url.split("?");
	const segments = pathname.split("/").filter((s) => s !== "");
	const switches = {};
	let i = 0;
	for (; i < segments.length; i++) {
		const segment = decodeURIComponent(segments[i]);
		if (segment === "hang") switches.hang = true;
		else if (/^[a-z-]+=/.test(segment)) {
			const [name, ...rest] = segment.split("=");
			switches[name] = rest.join("=");
		} else break;
	}
	const path = `/${segments.slice(i).join("/")}${query ? `?${query}` : ""}`;
	return { switches, path, scenario: segments.slice(0, i).join("/") || "flags" };
}

function definedFlags() {
	const out = {};
	for (const [name, value] of Object.entries(flags)) {
		if (value !== undefined && !["port", "host", "quiet"].includes(name)) out[name] = value;
	}
	return out;
}

/** Turns switches into the fake's per-request settings, counting faulty answers per scenario for `times`. */
async function overridesFor(settings, scenario) {
	const overrides = {};
	if (settings.fixture) overrides.fixture = settings.fixture;
	if (settings.form) overrides.form = settings.form;
	if (settings.latency) overrides.latencyMs = Number(settings.latency);
	if (settings.rate) overrides.tokensPerSecond = Number(settings.rate);
	if (settings.reader === "ocr") overrides.reader = await ocrReader();
	else if (settings.reader) throw new Error(`unknown reader "${settings.reader}" (ocr is the one there is)`);
	if (settings.rough) overrides.rough = Number(settings.rough) || 1;
	const faulty = settings.fail || settings.hang || settings.malformed || settings.declined;
	if (!faulty) return overrides;
	const given = faultsGiven.get(scenario) ?? 0;
	if (settings.times !== undefined && given >= Number(settings.times)) return overrides;
	faultsGiven.set(scenario, given + 1);
	if (settings.fail) {
		overrides.fault = {
			status: Number(settings.fail),
			...(settings["retry-after"] ? { retryAfter: settings["retry-after"] } : {}),
			...(settings["retry-delay"] ? { retryDelay: settings["retry-delay"] } : {}),
		};
	} else if (settings.hang) overrides.fault = { hang: true };
	else if (settings.declined) overrides.fault = { declined: settings.declined };
	else overrides.fault = { malformed: settings.malformed };
	return overrides;
}
