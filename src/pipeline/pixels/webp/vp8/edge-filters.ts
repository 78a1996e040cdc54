/**
 * The loop filter's per-edge arithmetic (RFC 6386 §15.2-15.3, bit-exact). Each function filters
 * `count` segments straddling one edge: segment i has its first pixel after the edge (q0) at
 * at + i * along, and `step` is the distance between consecutive pixels across the edge (1 for a
 * vertical edge, the row stride for a horizontal one).
 */

/** Clamp to the signed 8-bit range (the RFC's c()). */
function c(v: number): number {
	return v < -128 ? -128 : Math.min(v, 127);
}

/**
 * A pixel moved by a signed amount. The RFC converts pixels to signed (v - 128), adjusts, clamps
 * to -128..127 and converts back; clamping the unsigned sum to 0..255 is the same.
 */
function px(v: number): number {
	return v < 0 ? 0 : Math.min(v, 255);
}

/** Math.abs compiles branch-free; a conditional mispredicts on noisy pixels. */
const abs = Math.abs;

/** §15.2 simple filter: only the two pixels next to the edge move. */
export function simpleEdge(b: Uint8Array, at: number, step: number, along: number, count: number, limit: number): void {
	for (let i = 0; i < count; i++) {
		const q = at + i * along;
		const p1 = b[q - 2 * step]!;
		const p0 = b[q - step]!;
		const q0 = b[q]!;
		const q1 = b[q + step]!;
		if (abs(p0 - q0) * 2 + (abs(p1 - q1) >> 1) > limit) continue;
		const a = c(c(p1 - q1) + 3 * (q0 - p0));
		b[q] = px(q0 - (c(a + 4) >> 3));
		b[q - step] = px(p0 + (c(a + 3) >> 3));
	}
}

/** §15.3 filter between subblocks inside an MB (normal filter). */
export function subblockEdge(
	b: Uint8Array,
	at: number,
	step: number,
	along: number,
	count: number,
	edgeLimit: number,
	interiorLimit: number,
	hevThreshold: number,
): void {
	for (let i = 0; i < count; i++) {
		const q = at + i * along;
		const p1 = b[q - 2 * step]!;
		const p0 = b[q - step]!;
		const q0 = b[q]!;
		const q1 = b[q + step]!;
		if (abs(p0 - q0) * 2 + (abs(p1 - q1) >> 1) > edgeLimit) continue;
		if (!interiorFlat(b, q, step, interiorLimit, p1, p0, q0, q1)) continue;
		const hev = abs(p1 - p0) > hevThreshold || abs(q1 - q0) > hevThreshold;
		const base = c((hev ? c(p1 - q1) : 0) + 3 * (q0 - p0));
		const a = c(base + 4) >> 3;
		b[q] = px(q0 - a);
		b[q - step] = px(p0 + (c(base + 3) >> 3));
		if (!hev) {
			const outer = (a + 1) >> 1;
			b[q + step] = px(q1 - outer);
			b[q - 2 * step] = px(p1 + outer);
		}
	}
}

/** §15.3 filter across the edge between two MBs (normal filter): up to three pixels each side move. */
export function macroblockEdge(
	b: Uint8Array,
	at: number,
	step: number,
	along: number,
	count: number,
	edgeLimit: number,
	interiorLimit: number,
	hevThreshold: number,
): void {
	for (let i = 0; i < count; i++) {
		const q = at + i * along;
		const p1 = b[q - 2 * step]!;
		const p0 = b[q - step]!;
		const q0 = b[q]!;
		const q1 = b[q + step]!;
		if (abs(p0 - q0) * 2 + (abs(p1 - q1) >> 1) > edgeLimit) continue;
		if (!interiorFlat(b, q, step, interiorLimit, p1, p0, q0, q1)) continue;
		const w = c(c(p1 - q1) + 3 * (q0 - p0));
		if (abs(p1 - p0) > hevThreshold || abs(q1 - q0) > hevThreshold) {
			// High edge variance: the simple filter's adjustment.
			b[q] = px(q0 - (c(w + 4) >> 3));
			b[q - step] = px(p0 + (c(w + 3) >> 3));
			continue;
		}
		let a = c((27 * w + 63) >> 7);
		b[q] = px(q0 - a);
		b[q - step] = px(p0 + a);
		a = c((18 * w + 63) >> 7);
		b[q + step] = px(q1 - a);
		b[q - 2 * step] = px(p1 + a);
		a = c((9 * w + 63) >> 7);
		b[q + 2 * step] = px(b[q + 2 * step]! - a);
		b[q - 3 * step] = px(b[q - 3 * step]! + a);
	}
}

/** The interior half of the RFC's filter_yes: no step between neighbours on either side exceeds the limit. */
function interiorFlat(
	b: Uint8Array,
	q: number,
	step: number,
	limit: number,
	p1: number,
	p0: number,
	q0: number,
	q1: number,
): boolean {
	const p3 = b[q - 4 * step]!;
	const p2 = b[q - 3 * step]!;
	const q2 = b[q + 2 * step]!;
	const q3 = b[q + 3 * step]!;
	return (
		abs(p3 - p2) <= limit &&
		abs(p2 - p1) <= limit &&
		abs(p1 - p0) <= limit &&
		abs(q3 - q2) <= limit &&
		abs(q2 - q1) <= limit &&
		abs(q1 - q0) <= limit
	);
}
