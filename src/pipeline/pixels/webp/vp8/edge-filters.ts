/**
 * The loop filter's per-edge arithmetic (RFC 6386 §15.2-15.3, bit-exact). Each function filters
 * `count` segments straddling one edge: segment i has its first pixel after the edge (q0) at
 * at + i * along, and `step` is the distance between consecutive pixels across the edge (1 for a
 * vertical edge, the row stride for a horizontal one).
 */

/** Clamp to the signed 8-bit range (the RFC's c()). */
function c(v: number): number {
	return v < -128 ? -128 : v > 127 ? 127 : v;
}

/** Back from signed to a pixel value (s2u). */
function s2u(v: number): number {
	return c(v) + 128;
}

function abs(v: number): number {
	return v < 0 ? -v : v;
}

/** §15.2 simple filter: only the two pixels next to the edge move. */
export function simpleEdge(b: Uint8Array, at: number, step: number, along: number, count: number, limit: number): void {
	for (let i = 0; i < count; i++) {
		const q = at + i * along;
		const p1 = b[q - 2 * step]! - 128;
		const p0 = b[q - step]! - 128;
		const q0 = b[q]! - 128;
		const q1 = b[q + step]! - 128;
		if (abs(p0 - q0) * 2 + (abs(p1 - q1) >> 1) > limit) continue;
		const a = c(c(p1 - q1) + 3 * (q0 - p0));
		b[q] = s2u(q0 - (c(a + 4) >> 3));
		b[q - step] = s2u(p0 + (c(a + 3) >> 3));
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
		const p3 = b[q - 4 * step]! - 128;
		const p2 = b[q - 3 * step]! - 128;
		const p1 = b[q - 2 * step]! - 128;
		const p0 = b[q - step]! - 128;
		const q0 = b[q]! - 128;
		const q1 = b[q + step]! - 128;
		const q2 = b[q + 2 * step]! - 128;
		const q3 = b[q + 3 * step]! - 128;
		if (!filterYes(interiorLimit, edgeLimit, p3, p2, p1, p0, q0, q1, q2, q3)) continue;
		const hev = abs(p1 - p0) > hevThreshold || abs(q1 - q0) > hevThreshold;
		const base = c((hev ? c(p1 - q1) : 0) + 3 * (q0 - p0));
		const a = c(base + 4) >> 3;
		b[q] = s2u(q0 - a);
		b[q - step] = s2u(p0 + (c(base + 3) >> 3));
		if (!hev) {
			const outer = (a + 1) >> 1;
			b[q + step] = s2u(q1 - outer);
			b[q - 2 * step] = s2u(p1 + outer);
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
		const p3 = b[q - 4 * step]! - 128;
		const p2 = b[q - 3 * step]! - 128;
		const p1 = b[q - 2 * step]! - 128;
		const p0 = b[q - step]! - 128;
		const q0 = b[q]! - 128;
		const q1 = b[q + step]! - 128;
		const q2 = b[q + 2 * step]! - 128;
		const q3 = b[q + 3 * step]! - 128;
		if (!filterYes(interiorLimit, edgeLimit, p3, p2, p1, p0, q0, q1, q2, q3)) continue;
		const w = c(c(p1 - q1) + 3 * (q0 - p0));
		if (abs(p1 - p0) > hevThreshold || abs(q1 - q0) > hevThreshold) {
			// High edge variance: the simple filter's adjustment.
			b[q] = s2u(q0 - (c(w + 4) >> 3));
			b[q - step] = s2u(p0 + (c(w + 3) >> 3));
			continue;
		}
		let a = c((27 * w + 63) >> 7);
		b[q] = s2u(q0 - a);
		b[q - step] = s2u(p0 + a);
		a = c((18 * w + 63) >> 7);
		b[q + step] = s2u(q1 - a);
		b[q - 2 * step] = s2u(p1 + a);
		a = c((9 * w + 63) >> 7);
		b[q + 2 * step] = s2u(q2 - a);
		b[q - 3 * step] = s2u(p2 + a);
	}
}

function filterYes(
	interior: number,
	edge: number,
	p3: number,
	p2: number,
	p1: number,
	p0: number,
	q0: number,
	q1: number,
	q2: number,
	q3: number,
): boolean {
	return (
		abs(p0 - q0) * 2 + (abs(p1 - q1) >> 1) <= edge &&
		abs(p3 - p2) <= interior &&
		abs(p2 - p1) <= interior &&
		abs(p1 - p0) <= interior &&
		abs(q3 - q2) <= interior &&
		abs(q2 - q1) <= interior &&
		abs(q1 - q0) <= interior
	);
}
