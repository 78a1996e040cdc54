import type { Patch } from "./patch";

/** How far (px) around a hole pixel the known pixels that predict it are taken from. */
const RADIUS = 5;

const KNOWN = 0;
const BAND = 1;
const INSIDE = 2;

/**
 * Fast-marching inpainting (Telea 2004): the hole is filled from its rim inwards, in order of
 * distance to the rim, so every pixel is predicted only from pixels already known. Each pixel is
 * a weighted mean of the known pixels within RADIUS, each extrapolated along its own gradient;
 * neighbours along the marching direction, close by, and at the same distance from the rim count most.
 * Linear ramps continue exactly; texture is smeared along the marching direction.
 */
export function fillByFastMarching(patch: Patch, mask: Uint8Array): void {
	const { width: w, height: h, data } = patch;
	const n = w * h;
	const flag = new Uint8Array(n);
	const dist = new Float32Array(n);
	const heap = new MinHeap(n);
	for (let i = 0; i < n; i++) {
		if (!mask[i]) continue;
		flag[i] = INSIDE;
		dist[i] = Number.POSITIVE_INFINITY;
	}
	// The rim: known pixels touching the hole, at distance 0.
	for (let i = 0; i < n; i++) {
		if (mask[i]) continue;
		const x = i % w;
		const y = (i - x) / w;
		const touches =
			(x > 0 && mask[i - 1]) || (x < w - 1 && mask[i + 1]) || (y > 0 && mask[i - w]) || (y < h - 1 && mask[i + w]);
		if (touches) {
			flag[i] = BAND;
			heap.push(i, 0);
		}
	}
	const colour = new Float32Array(n * 4);
	for (let i = 0; i < n * 4; i++) colour[i] = data[i]!;

	while (heap.size > 0) {
		const i = heap.pop();
		flag[i] = KNOWN;
		const x = i % w;
		const y = (i - x) / w;
		for (const [nx, ny] of [
			[x - 1, y],
			[x + 1, y],
			[x, y - 1],
			[x, y + 1],
		] as const) {
			if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
			const j = ny * w + nx;
			if (flag[j] !== INSIDE) continue;
			dist[j] = Math.min(
				solve(dist, flag, w, h, nx - 1, ny, nx, ny - 1),
				solve(dist, flag, w, h, nx + 1, ny, nx, ny - 1),
				solve(dist, flag, w, h, nx - 1, ny, nx, ny + 1),
				solve(dist, flag, w, h, nx + 1, ny, nx, ny + 1),
			);
			predict(colour, dist, flag, w, h, nx, ny);
			flag[j] = BAND;
			heap.push(j, dist[j]!);
		}
	}
	for (let i = 0; i < n; i++) {
		if (!mask[i]) continue;
		for (let c = 0; c < 4; c++) data[i * 4 + c] = Math.max(0, Math.min(255, Math.round(colour[i * 4 + c]!)));
	}
}

/** Eikonal update |∇T| = 1 from a horizontal and a vertical neighbour (either may be unknown). */
function solve(
	dist: Float32Array,
	flag: Uint8Array,
	w: number,
	h: number,
	x1: number,
	y1: number,
	x2: number,
	y2: number,
): number {
	const t = (x: number, y: number) =>
		x < 0 || y < 0 || x >= w || y >= h || flag[y * w + x] === INSIDE ? Number.POSITIVE_INFINITY : dist[y * w + x]!;
	const a = t(x1, y1);
	const b = t(x2, y2);
	if (a === Number.POSITIVE_INFINITY && b === Number.POSITIVE_INFINITY) return Number.POSITIVE_INFINITY;
	if (Math.abs(a - b) >= 1) return Math.min(a, b) + 1;
	return (a + b + Math.sqrt(2 - (a - b) * (a - b))) / 2;
}

/** Telea's weighted, gradient-corrected mean of the known neighbours, written into `colour` at (x, y). */
function predict(
	colour: Float32Array,
	dist: Float32Array,
	flag: Uint8Array,
	w: number,
	h: number,
	x: number,
	y: number,
): void {
	const i = y * w + x;
	const known = (qx: number, qy: number) => qx >= 0 && qy >= 0 && qx < w && qy < h && flag[qy * w + qx] !== INSIDE;
	// The marching direction at the pixel: the gradient of the distance, from whichever side is known.
	const gradDist = (axis: 0 | 1) => {
		const [ax, ay] = axis === 0 ? [1, 0] : [0, 1];
		const after = known(x + ax, y + ay) ? dist[i + ax + ay * w]! : undefined;
		const before = known(x - ax, y - ay) ? dist[i - ax - ay * w]! : undefined;
		if (after !== undefined && before !== undefined) return (after - before) / 2;
		if (after !== undefined) return after - dist[i]!;
		if (before !== undefined) return dist[i]! - before;
		return 0;
	};
	const nx = gradDist(0);
	const ny = gradDist(1);
	const sum = [0, 0, 0, 0];
	let total = 0;
	for (let qy = Math.max(0, y - RADIUS); qy <= Math.min(h - 1, y + RADIUS); qy++) {
		for (let qx = Math.max(0, x - RADIUS); qx <= Math.min(w - 1, x + RADIUS); qx++) {
			const q = qy * w + qx;
			if (flag[q] === INSIDE) continue;
			const rx = x - qx;
			const ry = y - qy;
			const len2 = rx * rx + ry * ry;
			if (len2 === 0 || len2 > RADIUS * RADIUS) continue;
			const len = Math.sqrt(len2);
			const direction = Math.max(1e-6, Math.abs(rx * nx + ry * ny) / len);
			const closeness = 1 / len2;
			const level = 1 / (1 + Math.abs(dist[q]! - dist[i]!));
			const weight = direction * closeness * level;
			for (let c = 0; c < 4; c++) {
				// First-order extrapolation from q along its colour gradient (central where both sides are known).
				const gx = gradient(colour, flag, w, h, qx, qy, 1, 0, c);
				const gy = gradient(colour, flag, w, h, qx, qy, 0, 1, c);
				sum[c]! += weight * (colour[q * 4 + c]! + gx * rx + gy * ry);
			}
			total += weight;
		}
	}
	if (total === 0) return;
	for (let c = 0; c < 4; c++) colour[i * 4 + c] = sum[c]! / total;
}

function gradient(
	colour: Float32Array,
	flag: Uint8Array,
	w: number,
	h: number,
	x: number,
	y: number,
	ax: number,
	ay: number,
	c: number,
): number {
	const ok = (qx: number, qy: number) => qx >= 0 && qy >= 0 && qx < w && qy < h && flag[qy * w + qx] !== INSIDE;
	const at = (qx: number, qy: number) => colour[(qy * w + qx) * 4 + c]!;
	const after = ok(x + ax, y + ay);
	const before = ok(x - ax, y - ay);
	if (after && before) return (at(x + ax, y + ay) - at(x - ax, y - ay)) / 2;
	if (after) return at(x + ax, y + ay) - at(x, y);
	if (before) return at(x, y) - at(x - ax, y - ay);
	return 0;
}

/** Binary min-heap of pixel indices keyed by distance; a pixel is pushed once. */
class MinHeap {
	private readonly items: Int32Array;
	private readonly keys: Float32Array;
	size = 0;

	constructor(capacity: number) {
		this.items = new Int32Array(capacity);
		this.keys = new Float32Array(capacity);
	}

	push(item: number, key: number): void {
		let at = this.size++;
		while (at > 0) {
			const parent = (at - 1) >> 1;
			if (this.keys[parent]! <= key) break;
			this.items[at] = this.items[parent]!;
			this.keys[at] = this.keys[parent]!;
			at = parent;
		}
		this.items[at] = item;
		this.keys[at] = key;
	}

	pop(): number {
		const top = this.items[0]!;
		const lastItem = this.items[--this.size]!;
		const lastKey = this.keys[this.size]!;
		let at = 0;
		for (;;) {
			let child = at * 2 + 1;
			if (child >= this.size) break;
			if (child + 1 < this.size && this.keys[child + 1]! < this.keys[child]!) child++;
			if (this.keys[child]! >= lastKey) break;
			this.items[at] = this.items[child]!;
			this.keys[at] = this.keys[child]!;
			at = child;
		}
		this.items[at] = lastItem;
		this.keys[at] = lastKey;
		return top;
	}
}
