// Latency of the translate endpoint's answers against `wrangler dev` over loopback, with wrk as the
// load generator: 401, 429, 402, 409 and an accepted call (200) with an instant pipeline
// (bench/instant-worker.ts). Usage: node bench/http.mjs [--seconds 5] [--connections 1,8]
// Needs wrk (Debian: apt-get install wrk). Prints a Markdown table; writes bench/out/http.json.
//
// Every scenario runs on fresh accounts and keys made through the admin API, with a throwaway
// ADMIN_TOKEN and Durable Object storage in a temporary directory. A key allows 300 calls a minute
// (enterprise), so the scenarios that pass the rate limit rotate over enough keys for the run.

import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { freePort, provisionAccount, startDevServer } from "../scripts/dev-server.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const { values: options } = parseArgs({
	options: { seconds: { type: "string", default: "5" }, connections: { type: "string", default: "1,8" } },
});
const SECONDS = Number(options.seconds);
const CONNECTIONS = options.connections.split(",").map(Number);
const WARM_UP_SECONDS = 1;
const ENTERPRISE_PER_MINUTE = 300;
/** Calls a run can make at most, judged generously (loopback on a small machine stays far below). */
const MAX_CALLS_PER_SECOND = 2000;
const IDEMPOTENCY_KEY = "bench-replay";

if (spawnSync("wrk", ["--version"]).error) {
	console.error("bench/http.mjs needs wrk: apt-get install wrk (Debian/Ubuntu) or brew install wrk.");
	process.exit(1);
}

const ONE_PIXEL_PNG =
	"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const BODY = JSON.stringify({
	sourceLanguage: "ja",
	targetLanguage: "en",
	imageBase64: `data:image/png;base64,${ONE_PIXEL_PNG}`,
});

// wrangler dev closes idle keep-alive connections, and fetch may send on one just as it closes
// ("other side closed"). The bench's own set-up calls (including provisionAccount's) retry once.
const fetchOnce = globalThis.fetch;
/** @param {Parameters<typeof fetch>} args */
globalThis.fetch = async (...args) => {
	try {
		return await fetchOnce(...args);
	} catch (error) {
		if (error?.cause?.code !== "UND_ERR_SOCKET") throw error;
		return fetchOnce(...args);
	}
};

// Durable Object storage in memory where the machine offers it (tmpfs), so that the local disk's
// flushes, shared with whatever else runs, do not stand in for the service's latency.
const scratch = existsSync("/dev/shm") ? "/dev/shm" : tmpdir();
const work = mkdtempSync(join(scratch, "yakusu-bench-http-"));
const bodyFile = join(work, "body.json");
writeFileSync(bodyFile, BODY);
const adminToken = randomBytes(24).toString("base64url");
const server = await startDevServer({
	port: await freePort(),
	config: join(here, "wrangler.instant.toml"),
	persistTo: join(work, "state"),
	vars: { ADMIN_TOKEN: adminToken },
});

/** `count` accounts of one key each; returns their Authorization header values. */
async function keys(count, plan, credits) {
	const made = [];
	for (let index = 0; index < count; index++) made.push(provisionAccount(server.url, adminToken, { plan, credits }));
	return (await Promise.all(made)).map(({ apiKey }) => `Bearer ${apiKey}`);
}

function translate(authorization, headers = {}) {
	return fetch(`${server.url}/translate/image`, {
		method: "POST",
		headers: { Authorization: authorization, "Content-Type": "application/json", ...headers },
		body: BODY,
	});
}

/** Keys enough for `seconds` of calls at the most a run can make, within each key's rate limit. */
const keysFor = (seconds) => Math.ceil((seconds * MAX_CALLS_PER_SECOND) / ENTERPRISE_PER_MINUTE);

/** Each scenario: what it sends, the status every answer must have, and its keys made fresh per run. */
const SCENARIOS = [
	{
		// The floor: the Worker answers from its router, no state and no body read.
		name: "405, GET (no state touched)",
		status: 405,
		method: "GET",
		authorizations: async () => [],
	},
	{ name: "401, no Authorization header", status: 401, authorizations: async () => [] },
	{
		name: "401, unknown API key",
		status: 401,
		authorizations: async () => [`Bearer sk_yakusu_${randomBytes(32).toString("base64url")}`],
	},
	{
		name: "429, rate limit exceeded",
		status: 429,
		authorizations: async () => {
			const [authorization] = await keys(1, "professional", 0);
			// Use up the minute's 60 calls: every call past the gate counts.
			for (let call = 0; call < 60; call++) await translate(authorization);
			return [authorization];
		},
	},
	{
		name: "402, no credits",
		status: 402,
		authorizations: (seconds) => keys(keysFor(seconds), "enterprise", 0),
	},
	{
		name: "409, Idempotency-Key replayed",
		status: 409,
		headers: { "Idempotency-Key": IDEMPOTENCY_KEY },
		authorizations: async (seconds) => {
			const authorizations = await keys(keysFor(seconds), "enterprise", 10);
			for (const authorization of authorizations) {
				const first = await translate(authorization, { "Idempotency-Key": IDEMPOTENCY_KEY });
				if (first.status !== 200) throw new Error(`priming the idempotency key answered ${first.status}`);
			}
			return authorizations;
		},
	},
	{
		name: "200, accepted (instant pipeline)",
		status: 200,
		authorizations: (seconds) => keys(keysFor(seconds), "enterprise", 10 * ENTERPRISE_PER_MINUTE),
	},
];

/** One wrk run; returns its RESULT line, parsed. */
async function run(scenario, connections, seconds) {
	const authorizations = await scenario.authorizations(seconds);
	const perKey = [401, 405, 429].includes(scenario.status) ? Number.POSITIVE_INFINITY : ENTERPRISE_PER_MINUTE;
	const spec = [
		scenario.method === "GET" ? "method GET" : `body ${bodyFile}`,
		"header Content-Type: application/json",
		...Object.entries(scenario.headers ?? {}).map(([name, value]) => `header ${name}: ${value}`),
		...authorizations.map((authorization) => `authorization ${authorization}`),
	];
	// Stop before any key passes its rate limit, should the run be faster than planned.
	if (Number.isFinite(perKey)) spec.unshift(`limit ${authorizations.length * (perKey - 10)}`);
	const specFile = join(work, "spec.txt");
	writeFileSync(specFile, `${spec.join("\n")}\n`, { mode: 0o600 });
	const wrk = spawnSync(
		"wrk",
		[
			"-t1",
			`-c${connections}`,
			`-d${seconds}s`,
			"--timeout",
			"10s",
			"-s",
			join(here, "http.lua"),
			server.url,
			"--",
			specFile,
		],
		{ encoding: "utf8" },
	);
	const line = wrk.stdout.split("\n").find((text) => text.startsWith("RESULT "));
	if (!line) throw new Error(`wrk gave no result:\n${wrk.stdout}\n${wrk.stderr}`);
	const result = JSON.parse(line.slice("RESULT ".length));
	const unexpected = Object.entries(result.statuses).filter(([status]) => Number(status) !== scenario.status);
	if (unexpected.length > 0 || result.socketErrors > 0) {
		throw new Error(`${scenario.name}: unexpected answers ${JSON.stringify(result)}`);
	}
	return result;
}

const ms = (microseconds) => (microseconds / 1000).toFixed(2);
const results = [];
try {
	// Other work on the machine shares its cores with workerd and wrk: the load average says how much.
	const machine = `${cpus().length} x ${cpus()[0]?.model}, load average ${loadavg()[0].toFixed(2)} at start`;
	console.log(`wrk against wrangler dev (bench/wrangler.instant.toml) on ${server.url}, ${SECONDS} s per row`);
	console.log(`Node ${process.version}, ${machine}\n`);
	console.log("| Answer | Connections | Requests | Calls/s | p50 ms | p90 ms | p99 ms | max ms |");
	console.log("|---|---|---|---|---|---|---|---|");
	for (const connections of CONNECTIONS) {
		for (const scenario of SCENARIOS) {
			await run(scenario, connections, WARM_UP_SECONDS);
			const result = await run(scenario, connections, SECONDS);
			results.push({ scenario: scenario.name, connections, ...result });
			const rate = result.requests / (result.durationUs / 1e6);
			console.log(
				`| ${scenario.name} | ${connections} | ${result.requests} | ${rate.toFixed(0)} | ${ms(result.p50Us)} | ${ms(result.p90Us)} | ${ms(result.p99Us)} | ${ms(result.maxUs)} |`,
			);
		}
	}
	console.log(`\nLoad average ${loadavg()[0].toFixed(2)} at the end.`);
	mkdirSync(join(here, "out"), { recursive: true });
	writeFileSync(join(here, "out", "http.json"), `${JSON.stringify({ machine, results }, null, "\t")}\n`);
} finally {
	await server.stop();
	rmSync(work, { recursive: true, force: true });
}
