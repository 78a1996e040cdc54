/**
 * One thing the fuzz harness (fuzz/run.mjs) exercises. Each module in fuzz/targets/ default-exports
 * one; the harness runs its seeds mutated, and its crafted inputs as they are and mutated, each in
 * a child process under a time and a memory limit.
 */
export interface FuzzTarget {
	name: string;
	/** Valid inputs of every kind the target takes: what mutations start from. */
	seeds(): Uint8Array[];
	/** Hostile inputs built on purpose: run as they are, then mutated like seeds. */
	crafted?(): { name: string; bytes: Uint8Array }[];
	/**
	 * Runs one input. Throws only for a defect (a crash, an untyped error, a wrong result);
	 * refusing bad input the way the service should is a clean outcome. May return the budget the
	 * input was given (what the code under test promised it would cost), which the harness then
	 * holds the measured CPU time and peak memory to; without one, its defaults apply.
	 */
	// biome-ignore lint/suspicious/noConfusingVoidType: a run that states no budget returns nothing, as the brief's shape has it
	run(input: Uint8Array): void | FuzzBudget | Promise<void | FuzzBudget>;
}

/** What one input may cost: CPU time of the run, and memory added at its peak (resident, all heaps). */
export interface FuzzBudget {
	cpuMs: number;
	memoryBytes: number;
	/** How the input ended, for the harness's tally: "decoded", "refused 422"... */
	outcome?: string;
}
