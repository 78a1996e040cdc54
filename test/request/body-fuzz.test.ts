import { describe, expect, it } from "vitest";
import { fuzzBody } from "../../fuzz/body-runner";
import { bodyTarget } from "../../fuzz/targets/body";

/**
 * The body reader against JSON.parse and a plain base64 decode (fuzz/targets/body.ts): a short,
 * seeded run in every test run; `node fuzz/run-body.mjs` runs longer.
 */
describe("body reader, differential fuzz", () => {
	it("agrees with the reference on every crafted case", async () => {
		for (const { name, bytes } of bodyTarget.crafted?.() ?? []) {
			await expect(bodyTarget.run(bytes), name).resolves.toBeUndefined();
		}
	});

	it("agrees with the reference on 3000 mutated bodies", async () => {
		const report = await fuzzBody({ seed: 20261124, runs: 3000 });
		const shown = report.failures.map(
			(f) => `${f.message}\n  input (base64): ${btoa(String.fromCharCode(...f.input))}`,
		);
		expect(shown).toEqual([]);
		expect(report.runs).toBe(3000);
	});
});
