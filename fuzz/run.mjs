#!/usr/bin/env node
/**
 * The fuzz harness. Every module in fuzz/targets/ default-exports a FuzzTarget (fuzz/target.ts);
 * each is bundled for node, then its crafted inputs and mutations of its seeds and crafted inputs
 * run in worker processes (fuzz/worker.mjs), each input under:
 *   - its budget: the CPU time and peak added memory the target's run returned (defaults otherwise),
 *     measured by the worker: a run over budget is a defect;
 *   - hard limits, watched from here: a run past HANG_SECONDS of wall time or a worker past
 *     MEMORY_LIMIT_MB of resident memory is killed, and that is a defect too.
 * A run that throws is a defect. Each defect's input is written to fuzz/out/findings/ with why.
 *
 *   npm run fuzz                               ten minutes, every target, a seed from the clock
 *   node fuzz/run.mjs --seconds 60 --seed 1    what `npm test` runs: the same inputs every time
 *   node fuzz/run.mjs --target image --workers 1 --seconds 300
 *   node fuzz/run.mjs --replay file.bin --target image-decode     one input, in this process
 * Exit status 1 when anything was found.
 */
import { fork } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { basename, join } from "node:path";
import { bundleFile } from "../bench/pixels/bundle.mjs";
import { fuzzInputs } from "./inputs.mjs";

const HANG_SECONDS = 20;
const MEMORY_LIMIT_MB = 1536;
const ROOT = join(import.meta.dirname, "..");
const OUT = join(ROOT, "fuzz/out");

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const seconds = Number(option("--seconds", 600));
const seed = Number(option("--seed", Date.now() % 1e9));
const workers = Number(option("--workers", Math.max(1, availableParallelism() - (seconds <= 120 ? 1 : 0))));
const only = option("--target");
const replay = option("--replay");

/** Bundles a TypeScript module for node (the targets import src/ and test/ fixtures). */
const bundle = (entry, name) => bundleFile(entry, join(OUT, "bundles", `${name}.mjs`));

const mutateModule = await bundle(join(ROOT, "fuzz/mutate.ts"), "mutate");
const targets = [];
for (const file of readdirSync(join(ROOT, "fuzz/targets")).filter((f) => f.endsWith(".ts"))) {
	const name = basename(file, ".ts");
	if (only && !name.includes(only)) continue;
	targets.push({ name, module: await bundle(join(ROOT, "fuzz/targets", file), `target-${name}`) });
}
if (targets.length === 0) {
	console.error(`no fuzz target matches ${only}`);
	process.exit(2);
}

if (replay) {
	const target = (await import(targets[0].module)).default;
	const started = process.cpuUsage();
	const budget = await target.run(new Uint8Array(readFileSync(replay)));
	const used = process.cpuUsage(started);
	console.log({ target: target.name, ...budget, cpuMsTaken: (used.user + used.system) / 1000 });
	process.exit(0);
}

let found = 0;
console.log(`fuzz: ${targets.map((t) => t.name).join(", ")}; seed ${seed}; ${workers} workers; ${seconds} s`);
for (const target of targets) {
	const share = (seconds * 1000) / targets.length;
	found += await fuzz(target, Date.now() + share);
}
console.log(found ? `fuzz: ${found} finding(s) in ${join("fuzz/out/findings")}` : "fuzz: nothing found");
process.exit(found ? 1 : 0);

/** Runs one target until `until` in `workers` processes; returns how many defects it found. */
async function fuzz(target, until) {
	const inputs = fuzzInputs((await import(target.module)).default, await import(mutateModule), seed);
	const tally = new Map();
	const worst = { cpu: { ratio: 0 }, memory: { ratio: 0 } };
	const findings = [];
	let runs = 0;

	const finding = (index, why) => {
		const dir = join(OUT, "findings");
		mkdirSync(dir, { recursive: true });
		const file = join(dir, `${target.name}-${seed}-${index}`);
		writeFileSync(`${file}.bin`, inputs.at(index));
		writeFileSync(
			`${file}.txt`,
			`${target.name}, seed ${seed}, input ${index}${inputs.nameOf(index) ? ` (${inputs.nameOf(index)})` : ""}\n${why}\n`,
		);
		findings.push(`input ${index}${inputs.nameOf(index) ? ` (${inputs.nameOf(index)})` : ""}: ${why.split("\n")[0]}`);
	};

	/** A worker taking inputs offset, offset + workers, ...; restarted after the input that killed it. */
	const start = (offset) =>
		new Promise((resolve) => {
			const config = { targetModule: target.module, mutateModule, seed, offset, stride: workers, until };
			const child = fork(join(ROOT, "fuzz/worker.mjs"), [JSON.stringify(config)], {
				execArgv: ["--expose-gc", `--max-old-space-size=${MEMORY_LIMIT_MB}`],
				stdio: ["ignore", "ignore", "inherit", "ipc"],
			});
			let current;
			let startedAt = 0;
			child.on("message", (/** @type {any} */ message) => {
				if (message.type === "start") {
					current = message.index;
					startedAt = Date.now();
					return;
				}
				current = undefined;
				runs++;
				tally.set(message.outcome ?? "ran", (tally.get(message.outcome ?? "ran") ?? 0) + 1);
				if (message.defect) finding(message.index, message.defect);
				note(worst, message);
			});
			const watch = setInterval(() => {
				if (current === undefined) return;
				const why =
					Date.now() - startedAt > HANG_SECONDS * 1000
						? `ran over ${HANG_SECONDS} s of wall time`
						: residentMb(child.pid) > MEMORY_LIMIT_MB
							? `held over ${MEMORY_LIMIT_MB} MB`
							: undefined;
				if (why) {
					finding(current, `${why}: killed`);
					child.kill("SIGKILL");
				}
			}, 50);
			child.on("exit", (code, signal) => {
				clearInterval(watch);
				const died = current;
				if (died !== undefined && signal !== "SIGKILL") finding(died, `the worker died (${signal ?? code}) on it`);
				// A worker that fails between inputs (it could not load the target) is the harness's failure.
				if (died === undefined && code !== 0) findings.push(`a worker exited with ${signal ?? code} between inputs`);
				resolve(died === undefined || Date.now() >= until ? undefined : died + workers);
			});
		});

	await Promise.all(
		Array.from({ length: workers }, async (_, k) => {
			for (let offset = k; offset !== undefined; ) offset = await start(offset);
		}),
	);
	const outcomes = [...tally].map(([outcome, n]) => `${n} ${outcome}`).join(", ");
	console.log(
		`\n${target.name}: ${runs} inputs (${inputs.crafted.length} crafted, ${inputs.seeds} seeds): ${outcomes}`,
	);
	for (const [what, w] of Object.entries(worst)) {
		if (w.index !== undefined) {
			console.log(
				`  most of its ${what} budget: ${(w.ratio * 100).toFixed(0)}% (${w.detail}), input ${w.index}${w.name ? ` (${w.name})` : ""}`,
			);
		}
	}
	for (const line of findings) console.log(`  FOUND ${line}`);
	return findings.length;
}

/** Keeps the inputs that came nearest their CPU and memory budgets. */
function note(worst, { index, name, cpuMs, peakBytes, budgetCpuMs, budgetBytes }) {
	const cpu = cpuMs / budgetCpuMs;
	const memory = peakBytes / budgetBytes;
	if (cpu > worst.cpu.ratio)
		worst.cpu = { ratio: cpu, index, name, detail: `${cpuMs.toFixed(0)} of ${budgetCpuMs.toFixed(0)} ms` };
	if (memory > worst.memory.ratio) {
		worst.memory = { ratio: memory, index, name, detail: `${mb(peakBytes)} of ${mb(budgetBytes)} MB` };
	}
}

function mb(bytes) {
	return (bytes / 2 ** 20).toFixed(1);
}

function residentMb(pid) {
	try {
		const status = readFileSync(`/proc/${pid}/status`, "utf8");
		return Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? 0) / 1024;
	} catch {
		return 0;
	}
}
