// Peak memory added by reading a translate request that holds a 20 MB image, next to the image's
// size, and the reader's throughput. Usage: node bench/body-memory.mjs (Node 20).
//
// The reader (src/request/body.ts) is bundled with esbuild into bench/out/ and imported. The
// request body is generated chunk by chunk as it is read, the way it arrives from the network, so
// the memory measured is the reader's: its output buffer and whatever the chunks leave behind.
// For contrast, the same body is read the naive way: whole text, JSON.parse, then base64 decode.

import { spawnSync } from "node:child_process";
import { randomFillSync } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { freePort, provisionAccount, startDevServer } from "../scripts/dev-server.mjs";

if (typeof globalThis.gc !== "function") {
	// A steady baseline needs forced collections: run again with --expose-gc.
	const run = spawnSync(process.execPath, ["--expose-gc", fileURLToPath(import.meta.url)], { stdio: "inherit" });
	process.exit(run.status ?? 1);
}

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outFile = join(root, "bench", "out", "body.mjs");
mkdirSync(dirname(outFile), { recursive: true });
await build({
	entryPoints: [join(root, "src", "request", "body.ts")],
	bundle: true,
	format: "esm",
	platform: "neutral",
	outfile: outFile,
	logLevel: "warning",
});
const { readTranslateBody, MAX_IMAGE_BYTES } = await import(pathToFileURL(outFile).href);

const MB = 1024 * 1024;
const CHUNK_IMAGE_BYTES = 48 * 1024; // 64 KiB of base64 per chunk, like a network read
const HEAD = '{"sourceLanguage":"ja","targetLanguage":"en","mode":"manga","imageBase64":"data:image/png;base64,';
const TAIL = '","translator":"gemini"}';

const image = randomFillSync(Buffer.alloc(MAX_IMAGE_BYTES));
const bodyLength = HEAD.length + Math.ceil(image.length / 3) * 4 + TAIL.length;

/** The body's chunks, made one at a time from the image (under another field name if given). */
function* bodyChunks(field = "imageBase64") {
	yield Buffer.from(HEAD.replace("imageBase64", field), "latin1");
	for (let at = 0; at < image.length; at += CHUNK_IMAGE_BYTES) {
		yield Buffer.from(image.subarray(at, at + CHUNK_IMAGE_BYTES).toString("base64"), "latin1");
	}
	yield Buffer.from(TAIL, "latin1");
}

function snapshot() {
	const { rss, heapUsed, arrayBuffers } = process.memoryUsage();
	return { rss, heapUsed, arrayBuffers, js: heapUsed + arrayBuffers };
}

/** Tracks the highest value of each figure above a baseline taken after a full collection. */
function memoryProbe() {
	globalThis.gc();
	globalThis.gc();
	const base = snapshot();
	const peak = { rss: 0, heapUsed: 0, arrayBuffers: 0, js: 0 };
	return {
		sample() {
			const now = snapshot();
			for (const key of Object.keys(peak)) peak[key] = Math.max(peak[key], now[key] - base[key]);
		},
		peak,
	};
}

function streamFrom(chunks, onPull = () => {}) {
	return new ReadableStream(
		{
			pull(controller) {
				onPull();
				const next = chunks.next();
				if (next.done) controller.close();
				else controller.enqueue(next.value);
			},
		},
		{ highWaterMark: 0 },
	);
}

async function streamingPeak(declaredLength) {
	const probe = memoryProbe();
	const result = await readTranslateBody(
		streamFrom(bodyChunks(), () => probe.sample()),
		declaredLength,
	);
	probe.sample();
	if (result.image.kind !== "bytes" || !image.equals(result.image.bytes)) throw new Error("decoded image differs");
	return probe.peak;
}

/** The image's base64 under a field name the service does not know: skipped, so nothing should stay. */
async function skippedFieldPeak() {
	const probe = memoryProbe();
	const result = await readTranslateBody(
		streamFrom(bodyChunks("unknownField"), () => probe.sample()),
		null,
	);
	probe.sample();
	if (result.image.kind !== "missing" || "unknownField" in result.fields) throw new Error("the unknown field was kept");
	return probe.peak;
}

/** What `await request.json()` then a base64 decode would hold: the bytes, the text, the parsed copy, the image. */
async function naivePeak() {
	const probe = memoryProbe();
	const chunks = [];
	for (const chunk of bodyChunks()) {
		chunks.push(chunk);
		probe.sample();
	}
	const bytes = Buffer.concat(chunks);
	chunks.length = 0;
	probe.sample();
	const text = new TextDecoder().decode(bytes);
	probe.sample();
	const parsed = JSON.parse(text);
	probe.sample();
	const decoded = Buffer.from(parsed.imageBase64.slice(parsed.imageBase64.indexOf(",") + 1), "base64");
	probe.sample();
	if (!image.equals(decoded)) throw new Error("naive decode differs");
	return probe.peak;
}

/**
 * Requests that declare a 28 MB body, send its first 4 KB and stall: what the reader holds for them
 * (RSS: Node's arrayBuffers figure does not count resizable buffers).
 */
async function stalledPeak(count) {
	const probe = memoryProbe();
	const stalls = [];
	const reads = [];
	for (let i = 0; i < count; i++) {
		let sent = false;
		const stream = new ReadableStream(
			{
				pull(controller) {
					if (!sent) {
						sent = true;
						controller.enqueue(Buffer.from(`${HEAD}${"A".repeat(4096 - HEAD.length)}`, "latin1"));
						return;
					}
					return new Promise((resolve) => stalls.push(() => resolve(controller.close())));
				},
			},
			{ highWaterMark: 0 },
		);
		reads.push(readTranslateBody(stream, 28 * MB).catch(() => {}));
	}
	while (stalls.length < count) await new Promise((resolve) => setTimeout(resolve, 1));
	probe.sample();
	for (const release of stalls) release();
	await Promise.all(reads);
	return probe.peak;
}

/** Wall time and CPU time per read: CPU time stays meaningful when other work shares the machine. */
async function throughput(runs) {
	const chunks = [...bodyChunks()];
	const wall = [];
	const cpu = [];
	for (let run = 0; run < runs; run++) {
		const cpuBefore = process.cpuUsage();
		const started = process.hrtime.bigint();
		await readTranslateBody(streamFrom(chunks.values()), bodyLength);
		wall.push(Number(process.hrtime.bigint() - started) / 1e9);
		const used = process.cpuUsage(cpuBefore);
		cpu.push((used.user + used.system) / 1e6);
	}
	const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
	return { wall: median(wall), cpu: median(cpu) };
}

const mb = (bytes) => (bytes / MB).toFixed(1);
const ratio = (bytes) => (bytes / image.length).toFixed(2);
function report(name, peak) {
	console.log(
		`| ${name} | ${mb(peak.js)} MB (${ratio(peak.js)}x) | ${mb(peak.heapUsed)} MB | ${mb(peak.arrayBuffers)} MB | ${mb(peak.rss)} MB (${ratio(peak.rss)}x) |`,
	);
}

console.log(`Node ${process.version}, ${process.platform}/${process.arch}`);
console.log(`Image ${mb(image.length)} MB decoded; body ${mb(bodyLength)} MB in 64 KiB chunks.\n`);
console.log(
	"The reader's buffer is a resizable ArrayBuffer, which Node's `arrayBuffers` figure does not count: RSS is the column that shows it.\n",
);
console.log("| Peak memory added while reading | heap + buffers | heap | buffers | RSS |");
console.log("|---|---|---|---|---|");
report("streaming, Content-Length known", await streamingPeak(bodyLength));
report("streaming, length unknown (chunked)", await streamingPeak(null));
report("streaming, the 26.7 MB of base64 under an unknown field", await skippedFieldPeak());
report("naive: text + JSON.parse + decode", await naivePeak());
const STALLED = 40;
const stalled = await stalledPeak(STALLED);
console.log(
	`\n${STALLED} requests that declare 28 MB, send 4 KB and stall hold ${mb(stalled.rss)} MB of RSS together (${mb(stalled.rss / STALLED)} MB each).`,
);

const timing = await throughput(9);
const rate = (seconds) => `${(bodyLength / MB / seconds).toFixed(0)} MB/s (${(seconds * 1000).toFixed(0)} ms)`;
console.log(
	`\nThroughput, median of 9 reads of the body held in memory: ${rate(timing.wall)} wall, ${rate(timing.cpu)} CPU.`,
);
await workerdFigures();
console.log(`Load average ${loadavg()[0].toFixed(2)} on ${cpus().length} x ${cpus()[0]?.model}.`);

/** The workerd process that runs the Worker (the one with an inspector), among wrangler's descendants. */
function workerProcess(root) {
	const children = new Map();
	for (const entry of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
		try {
			const parent = Number(readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1].split(" ")[1]);
			children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
		} catch {
			// gone already
		}
	}
	const queue = [root];
	while (queue.length) {
		const pid = queue.shift();
		const args = readFileSync(`/proc/${pid}/cmdline`, "utf8");
		if (args.includes("workerd") && args.includes("--inspector-addr")) return pid;
		queue.push(...(children.get(pid) ?? []));
	}
	throw new Error("no workerd process with an inspector under wrangler dev");
}

function status(pid, field) {
	return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]) * 1024;
}

/**
 * The same through `wrangler dev`: workerd's resident memory with 40 requests that declare 28 MB,
 * send 4 KB and stall, and its high-water mark while one 20 MB image is read (then refused with 422,
 * so that only the reader's memory counts).
 */
async function workerdFigures() {
	const work = mkdtempSync(join(tmpdir(), "yakusu-body-"));
	const adminToken = "bench-body-memory";
	const server = await startDevServer({ port: await freePort(), persistTo: work, vars: { ADMIN_TOKEN: adminToken } });
	try {
		const { apiKey } = await provisionAccount(server.url, adminToken);
		const pid = workerProcess(server.pid);
		const { hostname, port } = new URL(server.url);
		const post = (length) =>
			`POST /translate/image HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${apiKey}\r\nContent-Length: ${length}\r\n\r\n`;
		const settle = () => new Promise((resolve) => setTimeout(resolve, 2000));
		await fetch(`${server.url}/translate/image`, {
			method: "POST",
			headers: { Authorization: `Bearer ${apiKey}` },
			body: "{}",
		});
		await settle();

		writeFileSync(`/proc/${pid}/clear_refs`, "5");
		const before = status(pid, "VmRSS");
		// 20 MB of zero bytes: read whole, then refused as not an image.
		const zeros = Buffer.concat([
			Buffer.from(HEAD, "latin1"),
			Buffer.alloc(Math.floor(image.length / 3) * 4, 0x41),
			Buffer.from(TAIL),
		]);
		const res = await fetch(`${server.url}/translate/image`, {
			method: "POST",
			headers: { Authorization: `Bearer ${apiKey}` },
			body: zeros,
		});
		await res.text();
		const peak = status(pid, "VmHWM") - before;
		await settle();
		const idleAgain = status(pid, "VmRSS");
		const sockets = [];
		for (let i = 0; i < STALLED; i++) {
			const socket = net.connect(Number(port), hostname);
			socket.on("error", () => {});
			socket.write(post(28 * MB));
			socket.write(`${HEAD}${"A".repeat(4096 - HEAD.length)}`);
			sockets.push(socket);
		}
		await settle();
		const heldByStalled = status(pid, "VmRSS") - idleAgain;
		for (const socket of sockets) socket.destroy();
		await settle();

		console.log(
			`\nThrough \`wrangler dev\` (workerd resident memory over idle): reading one 20 MB image (answered ${res.status}) peaks at +${mb(peak)} MB; ${STALLED} requests that declare 28 MB, send 4 KB and stall hold ${mb(heldByStalled)} MB together.`,
		);
	} finally {
		await server.stop();
		rmSync(work, { recursive: true, force: true });
	}
}
