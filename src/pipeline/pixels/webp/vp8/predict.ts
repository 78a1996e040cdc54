import {
	B_DC_PRED,
	B_HD_PRED,
	B_HE_PRED,
	B_HU_PRED,
	B_LD_PRED,
	B_RD_PRED,
	B_TM_PRED,
	B_VE_PRED,
	B_VL_PRED,
	B_VR_PRED,
	DC_PRED,
	H_PRED,
	TM_PRED,
	V_PRED,
} from "./modes";

/**
 * Intra prediction (RFC 6386 §12) in a work buffer of row stride `s`: the block starts at `o`, its
 * above row at o - s, its left column at o - 1, the corner at o - s - 1. The caller has filled
 * those with the unfiltered neighbours, or 127 above / 129 left of the frame.
 */

function clamp255(v: number): number {
	return v < 0 ? 0 : Math.min(v, 255);
}

/** A whole-block mode (DC, V, H or TM) over an n x n block; DC averages only neighbours inside the frame. */
export function predictBlock(
	b: Uint8Array,
	o: number,
	s: number,
	n: number,
	mode: number,
	hasTop: boolean,
	hasLeft: boolean,
): void {
	switch (mode) {
		case DC_PRED: {
			const shift = n === 16 ? 3 : 2;
			let sum = 0;
			let count = 0;
			if (hasTop) for (let i = 0; i < n; i++) sum += b[o - s + i]!;
			if (hasLeft) for (let i = 0; i < n; i++) sum += b[o + i * s - 1]!;
			if (hasTop) count++;
			if (hasLeft) count++;
			// 2n, n or no neighbours: shift by log2 of their count, or 128 for the top-left MB.
			const dc = count === 0 ? 128 : (sum + ((n * count) >> 1)) >> (shift + count);
			fillBlock(b, o, s, n, dc);
			return;
		}
		case V_PRED:
			for (let y = 0; y < n; y++) {
				const row = o + y * s;
				for (let x = 0; x < n; x++) b[row + x] = b[o - s + x]!;
			}
			return;
		case H_PRED:
			for (let y = 0; y < n; y++) {
				const row = o + y * s;
				const v = b[row - 1]!;
				for (let x = 0; x < n; x++) b[row + x] = v;
			}
			return;
		case TM_PRED: {
			const p = b[o - s - 1]!;
			for (let y = 0; y < n; y++) {
				const d = b[o + y * s - 1]! - p;
				const row = o + y * s;
				for (let x = 0; x < n; x++) b[row + x] = clamp255(b[o - s + x]! + d);
			}
			return;
		}
	}
}

/** Subblock prediction (§12.3): A = 8 pixels above (4 above-right), L = 4 left, P = corner. */
export function predictSubblock(b: Uint8Array, o: number, s: number, mode: number): void {
	const a = o - s;
	const P = b[a - 1]!;
	const A0 = b[a]!;
	const A1 = b[a + 1]!;
	const A2 = b[a + 2]!;
	const A3 = b[a + 3]!;
	const L0 = b[o - 1]!;
	const L1 = b[o + s - 1]!;
	const L2 = b[o + 2 * s - 1]!;
	const L3 = b[o + 3 * s - 1]!;
	const r0 = o;
	const r1 = o + s;
	const r2 = o + 2 * s;
	const r3 = o + 3 * s;
	switch (mode) {
		case B_DC_PRED: {
			const dc = (A0 + A1 + A2 + A3 + L0 + L1 + L2 + L3 + 4) >> 3;
			fillBlock(b, o, s, 4, dc);
			return;
		}
		case B_TM_PRED:
			for (let y = 0; y < 4; y++) {
				const d = b[o + y * s - 1]! - P;
				const row = o + y * s;
				b[row] = clamp255(A0 + d);
				b[row + 1] = clamp255(A1 + d);
				b[row + 2] = clamp255(A2 + d);
				b[row + 3] = clamp255(A3 + d);
			}
			return;
		case B_VE_PRED: {
			const A4 = b[a + 4]!;
			const v0 = avg3(P, A0, A1);
			const v1 = avg3(A0, A1, A2);
			const v2 = avg3(A1, A2, A3);
			const v3 = avg3(A2, A3, A4);
			for (let y = 0; y < 4; y++) {
				const row = o + y * s;
				b[row] = v0;
				b[row + 1] = v1;
				b[row + 2] = v2;
				b[row + 3] = v3;
			}
			return;
		}
		case B_HE_PRED: {
			const h0 = avg3(P, L0, L1);
			const h1 = avg3(L0, L1, L2);
			const h2 = avg3(L1, L2, L3);
			const h3 = avg3(L2, L3, L3);
			set4(b, r0, h0, h0, h0, h0);
			set4(b, r1, h1, h1, h1, h1);
			set4(b, r2, h2, h2, h2, h2);
			set4(b, r3, h3, h3, h3, h3);
			return;
		}
		case B_LD_PRED: {
			const A4 = b[a + 4]!;
			const A5 = b[a + 5]!;
			const A6 = b[a + 6]!;
			const A7 = b[a + 7]!;
			const d0 = avg3(A0, A1, A2);
			const d1 = avg3(A1, A2, A3);
			const d2 = avg3(A2, A3, A4);
			const d3 = avg3(A3, A4, A5);
			const d4 = avg3(A4, A5, A6);
			const d5 = avg3(A5, A6, A7);
			const d6 = avg3(A6, A7, A7);
			set4(b, r0, d0, d1, d2, d3);
			set4(b, r1, d1, d2, d3, d4);
			set4(b, r2, d2, d3, d4, d5);
			set4(b, r3, d3, d4, d5, d6);
			return;
		}
		case B_RD_PRED: {
			// Edge E runs from L3 up the left column, through P, along the above row.
			const e1 = avg3(L3, L2, L1);
			const e2 = avg3(L2, L1, L0);
			const e3 = avg3(L1, L0, P);
			const e4 = avg3(L0, P, A0);
			const e5 = avg3(P, A0, A1);
			const e6 = avg3(A0, A1, A2);
			const e7 = avg3(A1, A2, A3);
			set4(b, r0, e4, e5, e6, e7);
			set4(b, r1, e3, e4, e5, e6);
			set4(b, r2, e2, e3, e4, e5);
			set4(b, r3, e1, e2, e3, e4);
			return;
		}
		case B_VR_PRED: {
			const e2 = avg3(L2, L1, L0);
			const e3 = avg3(L1, L0, P);
			const e4 = avg3(L0, P, A0);
			const h4 = avg2(P, A0);
			const e5 = avg3(P, A0, A1);
			const h5 = avg2(A0, A1);
			const e6 = avg3(A0, A1, A2);
			const h6 = avg2(A1, A2);
			const e7 = avg3(A1, A2, A3);
			const h7 = avg2(A2, A3);
			set4(b, r0, h4, h5, h6, h7);
			set4(b, r1, e4, e5, e6, e7);
			set4(b, r2, e3, h4, h5, h6);
			set4(b, r3, e2, e4, e5, e6);
			return;
		}
		case B_VL_PRED: {
			const A4 = b[a + 4]!;
			const A5 = b[a + 5]!;
			const A6 = b[a + 6]!;
			const A7 = b[a + 7]!;
			set4(b, r0, avg2(A0, A1), avg2(A1, A2), avg2(A2, A3), avg2(A3, A4));
			set4(b, r1, avg3(A0, A1, A2), avg3(A1, A2, A3), avg3(A2, A3, A4), avg3(A3, A4, A5));
			set4(b, r2, avg2(A1, A2), avg2(A2, A3), avg2(A3, A4), avg3(A4, A5, A6));
			set4(b, r3, avg3(A1, A2, A3), avg3(A2, A3, A4), avg3(A3, A4, A5), avg3(A5, A6, A7));
			return;
		}
		case B_HD_PRED: {
			const h0 = avg2(L3, L2);
			const e1 = avg3(L3, L2, L1);
			const h1 = avg2(L2, L1);
			const e2 = avg3(L2, L1, L0);
			const h2 = avg2(L1, L0);
			const e3 = avg3(L1, L0, P);
			const h3 = avg2(L0, P);
			const e4 = avg3(L0, P, A0);
			const e5 = avg3(P, A0, A1);
			const e6 = avg3(A0, A1, A2);
			set4(b, r0, h3, e4, e5, e6);
			set4(b, r1, h2, e3, h3, e4);
			set4(b, r2, h1, e2, h2, e3);
			set4(b, r3, h0, e1, h1, e2);
			return;
		}
		case B_HU_PRED: {
			const u0 = avg2(L0, L1);
			const u1 = avg3(L0, L1, L2);
			const u2 = avg2(L1, L2);
			const u3 = avg3(L1, L2, L3);
			const u4 = avg2(L2, L3);
			const u5 = avg3(L2, L3, L3);
			set4(b, r0, u0, u1, u2, u3);
			set4(b, r1, u2, u3, u4, u5);
			set4(b, r2, u4, u5, L3, L3);
			set4(b, r3, L3, L3, L3, L3);
			return;
		}
	}
}

/** Plain loops: TypedArray.fill on a few bytes costs more than it saves. */
function fillBlock(b: Uint8Array, o: number, s: number, n: number, v: number): void {
	for (let y = 0; y < n; y++) {
		const row = o + y * s;
		for (let x = 0; x < n; x++) b[row + x] = v;
	}
}

function avg3(x: number, y: number, z: number): number {
	return (x + y + y + z + 2) >> 2;
}

function avg2(x: number, y: number): number {
	return (x + y + 1) >> 1;
}

function set4(b: Uint8Array, at: number, v0: number, v1: number, v2: number, v3: number): void {
	b[at] = v0;
	b[at + 1] = v1;
	b[at + 2] = v2;
	b[at + 3] = v3;
}
