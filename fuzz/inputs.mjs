/**
 * The inputs of a fuzz run, shared by the harness and its workers: input i of a target is a
 * function of the run's seed and i alone, so a finding is replayed from (target, seed, i).
 */
const MUTATED_MAX = 1024 * 1024;

export function fuzzInputs(target, { Rng, mutate }, seed) {
	const seeds = target.seeds();
	const crafted = target.crafted?.() ?? [];
	// Crafted floods of many MB run as they are; copying them for every mutation would cost more than the run.
	const pool = [...seeds, ...crafted.map((c) => c.bytes).filter((bytes) => bytes.length <= MUTATED_MAX)];
	return {
		seeds: seeds.length,
		crafted,
		/** The crafted inputs as they are first, then mutations of a seed or a crafted input. */
		at(index) {
			if (index < crafted.length) return crafted[index].bytes;
			const rng = new Rng(Math.imul(seed, 0x9e3779b1) ^ index);
			return mutate(rng.pick(pool), rng, pool);
		},
		nameOf: (index) => crafted[index]?.name,
	};
}
