/**
 * Mutations for the fuzz harness: byte-level ones for any input, and structure-aware ones that
 * move whole PNG chunks, RIFF chunks and JPEG marker segments, so that the container walkers see
 * duplicated, dropped and reordered headers, not only noise inside them. Deterministic: the same
 * seed gives the same input, so a finding is replayed from its (target, seed, index).
 */
import { concat } from "../test/support/png";
import { seededRandom } from "./seeded-random";

/** Draws from a seeded generator, so that an input is replayed from its seed. */
export class Rng {
	readonly next: () => number;

	constructor(seed: number) {
		this.next = seededRandom(seed);
	}

	below(n: number): number {
		return Math.floor(this.next() * n);
	}

	pick<T>(items: readonly T[]): T {
		return items[this.below(items.length)]!;
	}
}

/** Inputs grow no larger than this by mutation (a repeated range may make floods of a few MB). */
const MAX_SIZE = 4 * 1024 * 1024;

const INTERESTING_BYTES = [0, 1, 0x7f, 0x80, 0xfe, 0xff];
const INTERESTING_WORDS = [0, 1, 2, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff, 0xffffffff];

type Mutation = (input: Uint8Array, rng: Rng, others: readonly Uint8Array[]) => Uint8Array;

const flipBits: Mutation = (input, rng) => {
	const out = input.slice();
	for (let n = 1 + rng.below(8); n > 0 && out.length; n--) out[rng.below(out.length)]! ^= 1 << rng.below(8);
	return out;
};

const setBytes: Mutation = (input, rng) => {
	const out = input.slice();
	for (let n = 1 + rng.below(4); n > 0 && out.length; n--) out[rng.below(out.length)] = rng.pick(INTERESTING_BYTES);
	return out;
};

/** A 16- or 32-bit field, either byte order, set to a boundary value: sizes, lengths, counts. */
const setWord: Mutation = (input, rng) => {
	if (input.length < 4) return flipBits(input, rng, []);
	const out = input.slice();
	const view = new DataView(out.buffer);
	const at = rng.below(out.length - 3);
	const value = rng.next() < 0.8 ? rng.pick(INTERESTING_WORDS) : rng.below(0x100000000);
	const little = rng.next() < 0.5;
	if (rng.next() < 0.5) view.setUint16(at, value & 0xffff, little);
	else view.setUint32(at, value >>> 0, little);
	return out;
};

const truncate: Mutation = (input, rng) => input.slice(0, rng.below(input.length + 1));

const deleteRange: Mutation = (input, rng) => {
	const from = rng.below(input.length + 1);
	const to = Math.min(input.length, from + 1 + rng.below(64));
	return concat([input.subarray(0, from), input.subarray(to)]);
};

const duplicateRange: Mutation = (input, rng) => {
	const from = rng.below(input.length + 1);
	const to = Math.min(input.length, from + 1 + rng.below(256));
	const at = rng.below(input.length + 1);
	return concat([input.subarray(0, at), input.subarray(from, to), input.subarray(at)]);
};

/** A range repeated many times: floods of chunks, blocks, markers or scans. */
const repeatRange: Mutation = (input, rng) => {
	const from = rng.below(input.length + 1);
	const range = input.subarray(from, Math.min(input.length, from + 1 + rng.below(32)));
	const times = Math.min(1 + rng.below(100_000), Math.floor(MAX_SIZE / Math.max(1, range.length)));
	const repeated = new Uint8Array(range.length * times);
	for (let i = 0; i < times; i++) repeated.set(range, i * range.length);
	return concat([input.subarray(0, from), repeated, input.subarray(from)]);
};

/** The start of this input and the rest of another. */
const splice: Mutation = (input, rng, others) => {
	const other = rng.pick(others);
	return concat([input.subarray(0, rng.below(input.length + 1)), other.subarray(rng.below(other.length + 1))]);
};

/** One of the input's structural units (chunk, segment) dropped, doubled or moved. */
const moveUnit: Mutation = (input, rng) => {
	const units = unitsOf(input);
	if (units.length < 2) return duplicateRange(input, rng, []);
	const unit = rng.pick(units);
	const piece = input.subarray(unit[0], unit[1]);
	const rest = concat([input.subarray(0, unit[0]), input.subarray(unit[1])]);
	const choice = rng.below(3);
	if (choice === 0) return rest;
	const target = rng.pick(units)[0];
	const at = choice === 1 ? unit[0] : target > unit[0] ? target - piece.length : target;
	const base = choice === 1 ? input : rest;
	return concat([base.subarray(0, at), piece, base.subarray(at)]);
};

const MUTATIONS: Mutation[] = [
	flipBits,
	flipBits,
	setBytes,
	setWord,
	setWord,
	truncate,
	deleteRange,
	duplicateRange,
	repeatRange,
	splice,
	moveUnit,
	moveUnit,
];

/** One to four stacked mutations of `input`. */
export function mutate(input: Uint8Array, rng: Rng, others: readonly Uint8Array[]): Uint8Array {
	let out = input;
	for (let n = 1 + rng.below(4); n > 0; n--) {
		out = rng.pick(MUTATIONS)(out, rng, others);
		if (out.length > MAX_SIZE) out = out.subarray(0, MAX_SIZE);
	}
	return out;
}

/** [start, end) of each PNG chunk, RIFF chunk or JPEG marker segment, as far as the framing holds. */
function unitsOf(bytes: Uint8Array): [number, number][] {
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const units: [number, number][] = [];
	if (bytes[0] === 0x89 && bytes[1] === 0x50) {
		for (let at = 8; at + 12 <= bytes.length && units.length < 10_000; ) {
			const end = at + 12 + view.getUint32(at);
			if (end > bytes.length) break;
			units.push([at, end]);
			at = end;
		}
	} else if (bytes[0] === 0x52 && bytes[1] === 0x49) {
		for (let at = 12; at + 8 <= bytes.length && units.length < 10_000; ) {
			const size = view.getUint32(at + 4, true);
			const end = at + 8 + size + (size & 1);
			if (end > bytes.length) break;
			units.push([at, end]);
			at = end;
		}
	} else if (bytes[0] === 0xff && bytes[1] === 0xd8) {
		// Every marker (0xff then not 0 or 0xff) to the next one: segments with their data.
		let start = 2;
		for (let at = 2; at + 1 < bytes.length && units.length < 10_000; at++) {
			if (bytes[at] === 0xff && bytes[at + 1] !== 0 && bytes[at + 1] !== 0xff && at > start) {
				units.push([start, at]);
				start = at;
			}
		}
	}
	return units;
}
