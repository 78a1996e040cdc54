/**
 * One fuzz worker (a child process of fuzz/run.mjs): generates its share of a target's inputs
 * (index offset, offset + stride, ...; input i is a function of the seed and i alone), runs each,
 * and reports per input its outcome, CPU time and peak added resident memory, measured after a
 * full collection with the kernel's high-water mark reset (/proc/self/clear_refs).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fuzzInputs } from "./inputs.mjs";

const { targetModule, mutateModule, seed, offset, stride, until } = JSON.parse(process.argv[2]);
const target = (await import(targetModule)).default;
const inputs = fuzzInputs(target, await import(mutateModule), seed);
/**
 * For a target whose run states no budget: generous, as such a target (the body reader's differential
 * check, whose reference decodes base64 into arrays of numbers) may cost far more than the code under
 * test; the hard limits of fuzz/run.mjs still catch what spins or explodes.
 */
const DEFAULT_BUDGET = { cpuMs: 5000, memoryBytes: 512 * 1024 * 1024 };

/** Whether this kernel lets a process reset its high-water mark; without it, memory is not checked. */
function canResetPeak() {
	try {
		writeFileSync("/proc/self/clear_refs", "5");
		return true;
	} catch {
		console.error("fuzz worker: /proc/self/clear_refs is not writable here; memory budgets are not checked");
		return false;
	}
}
const measuresMemory = canResetPeak();

function status() {
	const text = readFileSync("/proc/self/status", "utf8");
	const kb = (key) => Number(text.match(new RegExp(`${key}:\\s+(\\d+)`))[1]) * 1024;
	return { rss: kb("VmRSS"), peak: kb("VmHWM") };
}

/**
 * Garbage left by earlier runs would hide a run's own allocations from the high-water mark: a full
 * collection clears it, but costs more than most runs, so it runs when that garbage could matter.
 */
const GARBAGE_BYTES = 8 * 1024 * 1024;
let collected = process.memoryUsage();
function collectIfNeeded() {
	const now = process.memoryUsage();
	if (
		now.arrayBuffers - collected.arrayBuffers > GARBAGE_BYTES ||
		now.heapUsed - collected.heapUsed > 2 * GARBAGE_BYTES
	) {
		globalThis.gc();
		collected = process.memoryUsage();
	}
}

for (let index = offset; Date.now() < until; index += stride) {
	const input = inputs.at(index);
	collectIfNeeded();
	const before = status().rss;
	if (measuresMemory) writeFileSync("/proc/self/clear_refs", "5");
	process.send({ type: "start", index });
	const cpu = process.cpuUsage();
	let budget = DEFAULT_BUDGET;
	let defect;
	try {
		budget = (await target.run(input)) ?? DEFAULT_BUDGET;
	} catch (error) {
		defect = `threw ${error?.stack ?? error}`;
	}
	const used = process.cpuUsage(cpu);
	const cpuMs = (used.user + used.system) / 1000;
	const peakBytes = measuresMemory ? Math.max(0, status().peak - before) : 0;
	if (!defect && cpuMs > budget.cpuMs)
		defect = `took ${cpuMs.toFixed(0)} ms of CPU, over its budget of ${budget.cpuMs.toFixed(0)}`;
	if (!defect && peakBytes > budget.memoryBytes) {
		defect = `added ${(peakBytes / 2 ** 20).toFixed(1)} MB at its peak, over its budget of ${(budget.memoryBytes / 2 ** 20).toFixed(1)}`;
	}
	const name = inputs.nameOf(index);
	process.send({
		type: "done",
		index,
		name,
		outcome: defect ? "defect" : budget.outcome,
		cpuMs,
		peakBytes,
		budgetCpuMs: budget.cpuMs,
		budgetBytes: budget.memoryBytes,
		defect,
	});
}
process.exit(0);
