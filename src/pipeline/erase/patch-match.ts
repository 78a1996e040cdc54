import type { Patch } from "../types";
import { fillByPushPull } from "./fill";

/** Half the side of the square patches compared (5×5): small enough for thin holes, large enough for grain. */
const R = 2;
/** Coarsest level worth matching at: fewer clean patches than this and the level is skipped. */
const MIN_SOURCES = 32;
const MAX_LEVELS = 4;

/**
 * Patch-based inpainting (Wexler et al. 2007 with Barnes et al.'s PatchMatch 2009 search), restricted
 * to the padded patch: every patch overlapping the hole is matched to the most similar patch lying
 * wholly in the known area, and each hole pixel becomes the vote of the matches covering it.
 * Coarse to fine, so the large structure is settled before the grain. Unlike smooth fills it
 * synthesises grain, at the cost of PSNR (the synthesised grain is not the lost grain) and time.
 * With `allowed`, patches are copied only from where it is 1 (the hole's side of a balloon outline).
 */
export function fillByPatchMatch(patch: Patch, mask: Uint8Array, allowed?: Uint8Array): void {
	const { width: w, height: h, data } = patch;
	if (w < 2 * R + 1 || h < 2 * R + 1) {
		fillByPushPull(patch, mask);
		return;
	}
	const barred = new Uint8Array(w * h);
	if (allowed) for (let i = 0; i < w * h; i++) barred[i] = mask[i] || allowed[i] ? 0 : 1;
	const finest: Level = { w, h, colour: Float32Array.from(data), hole: mask.slice(), barred };
	const levels = [finest];
	for (;;) {
		const coarse = halve(levels[levels.length - 1]!);
		if (levels.length >= MAX_LEVELS || !coarse || sources(coarse).length < MIN_SOURCES) break;
		levels.push(coarse);
	}
	const coarsest = levels[levels.length - 1]!;
	if (sources(coarsest).length === 0) {
		fillByPushPull(patch, mask);
		return;
	}
	startWithPushPull(coarsest);

	const random = mulberry32(0x9e3779b9);
	let nnf: Int32Array | undefined;
	let from: Level | undefined;
	for (let k = levels.length - 1; k >= 0; k--) {
		const level = levels[k]!;
		const valid = sources(level);
		const field = new Field(level, valid, random);
		field.start(nnf && from ? { nnf, level: from } : undefined);
		if (nnf) field.vote(false);
		const rounds = k === 0 ? 2 : 4;
		for (let round = 0; round < rounds; round++) {
			// The coarser levels settled where to copy from: the finest only refines nearby.
			field.search(round % 2 === 0, k === 0 && levels.length > 1 ? 4 : Math.max(level.w, level.h));
			field.vote(k === 0 && round === rounds - 1);
		}
		nnf = field.nnf;
		from = level;
	}
	for (let i = 0; i < w * h; i++) {
		if (!mask[i]) continue;
		for (let c = 0; c < 4; c++) data[i * 4 + c] = Math.max(0, Math.min(255, Math.round(finest.colour[i * 4 + c]!)));
	}
}

interface Level {
	w: number;
	h: number;
	/** RGBA as floats; hole pixels hold the current estimate. */
	colour: Float32Array;
	/** 1 where the pixel is to be filled. */
	hole: Uint8Array;
	/** 1 where the pixel is known but may not be copied from. */
	barred: Uint8Array;
}

/** Nearest-neighbour field of one level: for each patch centre overlapping the hole, its best clean source centre. */
class Field {
	/** Source centre per pixel index, -1 where the pixel is not a target centre. */
	readonly nnf: Int32Array;
	private readonly cost: Float32Array;
	private readonly targets: number[] = [];
	private readonly isSource: Uint8Array;

	constructor(
		private readonly level: Level,
		private readonly valid: number[],
		private readonly random: () => number,
	) {
		const { w, h } = level;
		this.nnf = new Int32Array(w * h).fill(-1);
		this.cost = new Float32Array(w * h);
		this.isSource = new Uint8Array(w * h);
		for (const s of valid) this.isSource[s] = 1;
		const holes = windowCounts(level.hole, level.w, level.h);
		for (let y = R; y < h - R; y++) for (let x = R; x < w - R; x++) if (holes[y * w + x]) this.targets.push(y * w + x);
	}

	/** From the coarser level's field (sources doubled, offsets kept), or at random. */
	start(coarser?: { nnf: Int32Array; level: Level }): void {
		const { w } = this.level;
		for (const p of this.targets) {
			let s = -1;
			if (coarser) {
				const px = p % w;
				const py = (p - px) / w;
				const cx = Math.min(coarser.level.w - 1, px >> 1);
				const cy = Math.min(coarser.level.h - 1, py >> 1);
				const cs = coarser.nnf[cy * coarser.level.w + cx]!;
				if (cs >= 0) {
					const sx = (cs % coarser.level.w) * 2 + (px & 1);
					const sy = Math.floor(cs / coarser.level.w) * 2 + (py & 1);
					if (sx < w && sy < this.level.h && this.isSource[sy * w + sx]) s = sy * w + sx;
				}
			}
			if (s < 0) s = this.valid[Math.floor(this.random() * this.valid.length)]!;
			this.nnf[p] = s;
			this.cost[p] = this.distance(p, s, Number.POSITIVE_INFINITY);
		}
	}

	/**
	 * One PatchMatch pass: take a neighbour's match shifted by one if better, then try random ones
	 * around the best, from `reach` pixels away down to one.
	 */
	search(forward: boolean, reach: number): void {
		const { w, h } = this.level;
		const step = forward ? 1 : -1;
		const order = forward ? this.targets : [...this.targets].reverse();
		for (const p of order) {
			// A perfect match (common on screentone and other exact patterns) cannot be improved.
			if (this.cost[p] === 0) continue;
			this.propagate(p, step);
			this.propagate(p, step * w);
			const best = this.nnf[p]!;
			const bx = best % w;
			const by = (best - bx) / w;
			for (let radius = reach; radius >= 1; radius >>= 1) {
				const sx = Math.round(bx + (this.random() * 2 - 1) * radius);
				const sy = Math.round(by + (this.random() * 2 - 1) * radius);
				if (sx < 0 || sy < 0 || sx >= w || sy >= h) continue;
				const s = sy * w + sx;
				if (this.isSource[s]) this.consider(p, s);
			}
		}
	}

	/**
	 * Each hole pixel becomes the mean of what the matched patches covering it say. On the last vote
	 * the closer matches count much more, so grain is not averaged away.
	 */
	vote(sharp: boolean): void {
		const { w, h, colour, hole } = this.level;
		const sum = new Float32Array(w * h * 4);
		const weight = new Float32Array(w * h);
		const spread = sharp ? median(this.targets.map((p) => this.cost[p]!)) / 2 + 1 : Number.POSITIVE_INFINITY;
		for (const p of this.targets) {
			const s = this.nnf[p]!;
			const wt = Math.exp(-this.cost[p]! / spread);
			for (let dy = -R; dy <= R; dy++) {
				for (let dx = -R; dx <= R; dx++) {
					const x = p + dy * w + dx;
					if (!hole[x]) continue;
					const from = s + dy * w + dx;
					weight[x]! += wt;
					for (let c = 0; c < 4; c++) sum[x * 4 + c]! += wt * colour[from * 4 + c]!;
				}
			}
		}
		for (let x = 0; x < w * h; x++) {
			if (!hole[x] || weight[x] === 0) continue;
			for (let c = 0; c < 4; c++) colour[x * 4 + c] = sum[x * 4 + c]! / weight[x]!;
		}
		for (const p of this.targets) this.cost[p] = this.distance(p, this.nnf[p]!, Number.POSITIVE_INFINITY);
	}

	/** The match of the neighbour `shift` back, moved by `shift`: neighbours tend to copy neighbours. */
	private propagate(p: number, shift: number): void {
		const qs = this.nnf[p - shift];
		if (qs === undefined || qs < 0) return;
		const s = qs + shift;
		if (s >= 0 && s < this.isSource.length && this.isSource[s]) this.consider(p, s);
	}

	private consider(p: number, s: number): void {
		const d = this.distance(p, s, this.cost[p]!);
		if (d < this.cost[p]!) {
			this.cost[p] = d;
			this.nnf[p] = s;
		}
	}

	/** Sum of squared differences of the two patches, given up once past `limit`. */
	private distance(p: number, s: number, limit: number): number {
		const { w, colour } = this.level;
		let d = 0;
		for (let dy = -R; dy <= R; dy++) {
			let a = (p + dy * w - R) * 4;
			let b = (s + dy * w - R) * 4;
			for (let k = 0; k < (2 * R + 1) * 4; k++, a++, b++) {
				const e = colour[a]! - colour[b]!;
				d += e * e;
			}
			if (d >= limit) return d;
		}
		return d;
	}
}

/** Per pixel, whether the patch centred there touches a set pixel (summed-area table of the set). */
function windowCounts(hole: Uint8Array, w: number, h: number): Uint8Array {
	const table = new Int32Array((w + 1) * (h + 1));
	for (let y = 0; y < h; y++) {
		let row = 0;
		for (let x = 0; x < w; x++) {
			row += hole[y * w + x]!;
			table[(y + 1) * (w + 1) + x + 1] = table[y * (w + 1) + x + 1]! + row;
		}
	}
	const out = new Uint8Array(w * h);
	for (let y = R; y < h - R; y++) {
		for (let x = R; x < w - R; x++) {
			const x0 = x - R;
			const y0 = y - R;
			const x1 = x + R + 1;
			const y1 = y + R + 1;
			const n =
				table[y1 * (w + 1) + x1]! - table[y0 * (w + 1) + x1]! - table[y1 * (w + 1) + x0]! + table[y0 * (w + 1) + x0]!;
			out[y * w + x] = n > 0 ? 1 : 0;
		}
	}
	return out;
}

/** Centres of the patches lying wholly in the known area that may be copied from. */
function sources(level: Level): number[] {
	const touches = windowCounts(
		level.hole.map((v, i) => v | level.barred[i]!),
		level.w,
		level.h,
	);
	const out: number[] = [];
	for (let y = R; y < level.h - R; y++) {
		for (let x = R; x < level.w - R; x++) if (!touches[y * level.w + x]) out.push(y * level.w + x);
	}
	return out;
}

/** Half-size level: known pixels averaged; a coarse pixel is hole (or barred) if any of its four is. */
function halve(level: Level): Level | undefined {
	const w = level.w >> 1;
	const h = level.h >> 1;
	if (w < 2 * R + 1 || h < 2 * R + 1) return undefined;
	const colour = new Float32Array(w * h * 4);
	const hole = new Uint8Array(w * h);
	const barred = new Uint8Array(w * h);
	for (let y = 0; y < h; y++) {
		for (let x = 0; x < w; x++) {
			const i = y * w + x;
			for (const [fx, fy] of [
				[0, 0],
				[1, 0],
				[0, 1],
				[1, 1],
			] as const) {
				const f = (2 * y + fy) * level.w + 2 * x + fx;
				if (level.hole[f]) hole[i] = 1;
				if (level.barred[f]) barred[i] = 1;
				for (let c = 0; c < 4; c++) colour[i * 4 + c]! += level.colour[f * 4 + c]! / 4;
			}
		}
	}
	return { w, h, colour, hole, barred };
}

/** The coarsest level's hole gets a smooth first guess, so the first matches compare like with like. */
function startWithPushPull(level: Level): void {
	const data = Uint8Array.from(level.colour, (v) => Math.max(0, Math.min(255, Math.round(v))));
	fillByPushPull(
		{ box: { x0: 0, y0: 0, x1: level.w, y1: level.h }, width: level.w, height: level.h, data },
		level.hole,
	);
	for (let i = 0; i < level.w * level.h; i++) {
		if (level.hole[i]) for (let c = 0; c < 4; c++) level.colour[i * 4 + c] = data[i * 4 + c]!;
	}
}

function median(values: number[]): number {
	if (values.length === 0) return 0;
	const sorted = Float64Array.from(values).sort();
	return sorted[sorted.length >> 1]!;
}

/** Seeded PRNG, so the same image always gets the same fill. */
function mulberry32(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}
