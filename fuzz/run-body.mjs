// The body reader's differential fuzz for as long as asked: node fuzz/run-body.mjs [--seconds 300] [--seed N]
// Bundles fuzz/body-runner.ts with esbuild (as bench/body-memory.mjs does) and prints any input on which
// the reader and the reference disagree, as base64, to replay through bodyTarget.run.
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { build } from "esbuild";

const { values } = parseArgs({ options: { seconds: { type: "string", default: "300" }, seed: { type: "string" } } });
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outFile = join(root, "bench", "out", "fuzz-body.mjs");
mkdirSync(dirname(outFile), { recursive: true });
await build({
	entryPoints: [join(root, "fuzz", "body-runner.ts")],
	bundle: true,
	format: "esm",
	platform: "neutral",
	outfile: outFile,
	logLevel: "warning",
});
const { fuzzBody } = await import(pathToFileURL(outFile).href);

const seed = Number(values.seed ?? Date.now() % 2 ** 31);
const report = await fuzzBody({
	seed,
	runs: Number.POSITIVE_INFINITY,
	until: Date.now() + Number(values.seconds) * 1000,
});
console.log(`seed ${seed}: ${report.runs} bodies, ${report.failures.length} disagreements`);
for (const { message, input } of report.failures)
	console.log(`${message}\n  input (base64): ${Buffer.from(input).toString("base64")}`);
process.exit(report.failures.length ? 1 : 0);
