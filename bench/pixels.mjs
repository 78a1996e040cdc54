#!/usr/bin/env node
/**
 * The whole call in workerd, as a client meets it (issue 11): POST /translate/image through
 * `wrangler dev`, with the model answering from bench/pixels/vendor.mjs, fonts, HarfBuzz and resvg
 * loaded by a warm-up call first. Measured for this tree ("after") and, in the same run, for the
 * tree of BEFORE, the last commit whose pipeline held the decoded image whole ("before").
 *
 * Each case runs in a fresh `wrangler dev`: a warm-up call, then the Worker's workerd (the one
 * started with --inspector-addr) is measured over its idle RSS: while the call waits for its model
 * (the vendor holds the read until the bench has looked) and at its peak (VmHWM) over the whole
 * call. Then RUNS calls without waiting give the time our code takes: from sending the request
 * to the model's request (upload, decode, reader copy), and from the model's answer to the
 * response's last byte (layout, erase, typeset, compose, encode, streaming).
 *
 * Usage: node bench/pixels.mjs [--runs N] [--only <substring>[,<substring>...]] [--before <git ref> | --before none]
 */
import { execSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { CASES, input, PHONE_PHOTO, WARMUP } from "./pixels/inputs.mjs";
import { memory, resetPeak, startService } from "./pixels/server.mjs";
import { startVendor } from "./pixels/vendor.mjs";

// The inspector is reached over WebSocket, which Node 20 offers behind a flag.
if (typeof WebSocket === "undefined") {
	const again = spawnSync(process.execPath, ["--experimental-websocket", ...process.argv.slice(1)], {
		stdio: "inherit",
	});
	process.exit(again.status ?? 1);
}

/** The last commit of the one-raster pipeline (decode whole, erase, typeset, compose, encode). */
const BEFORE = "557db43";

const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const RUNS = Number(option("--runs") ?? 3) || 3;
const only = option("--only");
const beforeRef = option("--before") ?? BEFORE;
const MB = 1024 * 1024;
const OUT = "bench/out/pixels";
mkdirSync(OUT, { recursive: true });

/** The tree of `ref` beside this one, sharing its node_modules. */
function treeOf(ref) {
	const dir = resolve(`bench/out/before-${ref}`);
	if (!existsSync(dir)) {
		mkdirSync(dir, { recursive: true });
		execSync(`git archive ${ref} | tar -x -C ${JSON.stringify(dir)}`, { stdio: ["ignore", "ignore", "inherit"] });
		symlinkSync(resolve("node_modules"), join(dir, "node_modules"));
	}
	return dir;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];

async function bodyOf(spec) {
	const sample = await input(spec);
	return {
		spec,
		sample,
		body: JSON.stringify({
			imageBase64: sample.bytes.toString("base64"),
			sourceLanguage: "ja",
			targetLanguage: "en",
			mode: "manga",
		}),
	};
}

/** One call; resolves to its timings around the model and the PNG it answered. */
async function call(service, vendor, request) {
	vendor.setPage(request.sample);
	const started = performance.now();
	const seen = vendor.received();
	const res = await fetch(`${service.url}/translate/image`, {
		method: "POST",
		headers: { Authorization: `Bearer ${service.apiKey}`, "Content-Type": "application/json" },
		body: request.body,
	});
	const text = await res.text();
	const ended = performance.now();
	if (res.status !== 200) throw new Error(`${request.spec.name}: ${res.status} ${text.slice(0, 300)}`);
	const { resultImage } = JSON.parse(text);
	const visit = vendor.visits[seen];
	return {
		beforeModel: visit ? visit.arrived - started : Number.NaN,
		afterModel: visit ? ended - visit.answered : Number.NaN,
		png: Buffer.from(resultImage.slice(resultImage.indexOf(",") + 1), "base64"),
	};
}

/**
 * Runs `requests` at once in a fresh service of `dir`: memory while all of them wait for the
 * model and at the peak, then (for a single request) RUNS more calls for time.
 */
async function measure(dir, vendor, requests, warmup, label) {
	const service = await startService({ dir, vars: vendor.vars });
	/** Starts the requests at once and resolves when all of them wait for the model. */
	const startWaiting = async () => {
		vendor.hold();
		const waiting = vendor.received() + requests.length;
		const calls = requests.map((request) => call(service, vendor, request));
		await vendor.arrived(waiting);
		await sleep(500);
		return { copyBytes: vendor.visits.slice(-requests.length).reduce((sum, v) => sum + v.imageBytes, 0), calls };
	};
	try {
		await call(service, vendor, warmup);
		await sleep(500);
		// RSS first, untouched by the inspector (its heap snapshots take memory of their own).
		const idle = memory(service.worker).rss;
		resetPeak(service.worker);
		const first = await startWaiting();
		const heldRss = memory(service.worker).rss - idle;
		vendor.release();
		const answers = await Promise.all(first.calls);
		const peak = memory(service.worker).peak - idle;
		writeFileSync(join(OUT, `${label}.png`), answers[0].png);

		const times = [];
		if (requests.length === 1) for (let i = 0; i < RUNS; i++) times.push(await call(service, vendor, requests[0]));

		// Live memory last: the same calls again, garbage collected before each reading.
		const idleLive = await service.liveBytes();
		const again = await startWaiting();
		const held = (await service.liveBytes()) - idleLive;
		vendor.release();
		await Promise.all(again.calls);
		return {
			idle,
			held,
			heldRss,
			peak,
			copyBytes: first.copyBytes,
			pngBytes: answers[0].png.length,
			beforeModel: times.length ? median(times.map((t) => t.beforeModel)) : undefined,
			afterModel: times.length ? median(times.map((t) => t.afterModel)) : undefined,
		};
	} finally {
		await service.stop();
	}
}

const trees = [{ name: "after", dir: resolve(".") }];
if (beforeRef !== "none") {
	try {
		trees.unshift({ name: "before", dir: treeOf(beforeRef) });
	} catch (error) {
		console.error(`no tree for ${beforeRef} (${error.message}): after only`);
	}
}

const vendor = await startVendor();
const warmup = await bodyOf(WARMUP);
const scenarios = [
	...CASES.map((spec) => ({ name: spec.name, specs: [spec], single: true })),
	{ name: "two 25 MP calls at once (5000×5000 PNG)", specs: [CASES[2], CASES[2]], target: 128 },
	{ name: "eight 3 MP calls waiting on a slow model", specs: Array(8).fill(PHONE_PHOTO), target: 64 },
];
const loadAtStart = loadavg()[0];
const results = [];
for (const scenario of scenarios) {
	if (only && !only.split(",").some((part) => scenario.name.includes(part))) continue;
	const requests = await Promise.all(scenario.specs.map(bodyOf));
	const row = { scenario, fileBytes: requests.reduce((sum, r) => sum + r.sample.bytes.length, 0) };
	for (const tree of trees) {
		console.error(`${scenario.name}: ${tree.name}…`);
		const label = `${tree.name}-${scenario.specs[0].file.replace(".", "-")}${scenario.single ? "" : "-together"}`;
		row[tree.name] = await measure(tree.dir, vendor, requests, warmup, label).catch((error) => ({
			error: String(error.message).slice(0, 300),
		}));
	}
	results.push(row);
}
await vendor.stop();
writeFileSync(join(OUT, "results.json"), JSON.stringify(results, null, 1));

// Markdown on stdout (npm run bench puts it in docs/benchmarks.md).
const mb = (v) => (v === undefined || Number.isNaN(v) ? "" : `${(v / MB).toFixed(1)} MB`);
const ms = (v) => (v === undefined || Number.isNaN(v) ? "" : v.toFixed(0));
const names = trees.map((t) => t.name);
console.log(
	`The whole call through \`wrangler dev\`, each case in a fresh one after a warm-up call (fonts, HarfBuzz and resvg loaded). ` +
		`"before" is ${beforeRef} (the decoded image held whole), "after" this tree. ` +
		`Memory is measured on the Worker's workerd over its idle level after the warm-up. While the calls wait for the model: the live memory (JS heap in use and ArrayBuffers still referenced, after a full collection through the inspector: "held") and the RSS ("held RSS", garbage not yet collected included). Over the whole call: the RSS high-water ("peak"). ` +
		`Times are the median of ${RUNS} calls with the model answering at once: request sent to model asked (upload, decode, reader copy), and model answered to last byte received. ` +
		`Load average ${loadAtStart.toFixed(1)} at start, ${loadavg()[0].toFixed(1)} at the end.\n`,
);
console.log(
	`| case | file | ${names.map((n) => `${n}: to model ms | ${n}: after model ms | ${n}: ms/MP`).join(" | ")} |`,
);
console.log(`|---|---|${names.map(() => "---|---|---|").join("")}`);
for (const { scenario, fileBytes, ...byTree } of results) {
	if (!scenario.single) continue;
	const mp = (scenario.specs[0].width * scenario.specs[0].height) / 1e6;
	const cells = names.map((n) => {
		const r = byTree[n];
		if (r.error) return `${r.error} | | `;
		return `${ms(r.beforeModel)} | ${ms(r.afterModel)} | ${((r.beforeModel + r.afterModel) / mp).toFixed(1)}`;
	});
	console.log(`| ${scenario.name} | ${mb(fileBytes)} | ${cells.join(" | ")} |`);
}
console.log(
	"\nMemory of one call. Targets (issue 11): held at most the file and the reader copy (the JPEG the model was sent); peak under 60 MB at 25 MP.\n",
);
console.log(
	`| case | file + reader copy | PNG out | ${names.map((n) => `${n}: held | ${n}: held RSS | ${n}: peak`).join(" | ")} |`,
);
console.log(`|---|---|---|${names.map(() => "---|---|---|").join("")}`);
for (const { scenario, fileBytes, ...byTree } of results) {
	if (!scenario.single) continue;
	const after = byTree.after;
	const cells = names.map((n) => memoryCells(byTree[n]));
	console.log(
		`| ${scenario.name} | ${mb(fileBytes + after.copyBytes)} | ${mb(after.pngBytes)} | ${cells.join(" | ")} |`,
	);
}
console.log("\nCalls at the same moment in one isolate (held: all of them waiting for the model):\n");
console.log(`| calls | files | target | ${names.map((n) => `${n}: held | ${n}: held RSS | ${n}: peak`).join(" | ")} |`);
console.log(`|---|---|---|${names.map(() => "---|---|---|").join("")}`);
for (const { scenario, fileBytes, ...byTree } of results) {
	if (scenario.single) continue;
	const cells = names.map((n) => memoryCells(byTree[n]));
	console.log(`| ${scenario.name} | ${mb(fileBytes)} | under ${scenario.target} MB | ${cells.join(" | ")} |`);
}
function memoryCells(r) {
	return r.error ? "failed | | " : `${mb(r.held)} | ${mb(r.heldRss)} | ${mb(r.peak)}`;
}

const idle = results.find((r) => r.after && !r.after.error)?.after.idle;
if (idle) console.log(`\nIdle RSS of the Worker's workerd after the warm-up (this tree): ${mb(idle)}.`);
