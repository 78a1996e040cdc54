/** 16-bit fixed-point sqrt(2)*cos(pi/8) - 1 and sqrt(2)*sin(pi/8) (RFC 6386 §14.4). */
const COS_MINUS_1 = 20091;
const SIN = 35468;

const tmp = new Int32Array(16);

function clamp255(v: number): number {
	return v < 0 ? 0 : Math.min(v, 255);
}

/**
 * Inverse DCT of the 4x4 coefficients at coeffs[at..at+16) (§14.4, bit-exact), added to the
 * prediction at dst[d] with row stride `stride`.
 */
export function idctAdd(coeffs: Int16Array, at: number, dst: Uint8Array, d: number, stride: number): void {
	for (let i = 0; i < 4; i++) {
		const i0 = coeffs[at + i]!;
		const i4 = coeffs[at + 4 + i]!;
		const i8 = coeffs[at + 8 + i]!;
		const i12 = coeffs[at + 12 + i]!;
		const a = i0 + i8;
		const b = i0 - i8;
		const c = ((i4 * SIN) >> 16) - (i12 + ((i12 * COS_MINUS_1) >> 16));
		const dd = i4 + ((i4 * COS_MINUS_1) >> 16) + ((i12 * SIN) >> 16);
		tmp[i] = a + dd;
		tmp[4 + i] = b + c;
		tmp[8 + i] = b - c;
		tmp[12 + i] = a - dd;
	}
	for (let r = 0; r < 4; r++) {
		const t0 = tmp[r * 4]!;
		const t1 = tmp[r * 4 + 1]!;
		const t2 = tmp[r * 4 + 2]!;
		const t3 = tmp[r * 4 + 3]!;
		const a = t0 + t2;
		const b = t0 - t2;
		const c = ((t1 * SIN) >> 16) - (t3 + ((t3 * COS_MINUS_1) >> 16));
		const dd = t1 + ((t1 * COS_MINUS_1) >> 16) + ((t3 * SIN) >> 16);
		const o = d + r * stride;
		dst[o] = clamp255(dst[o]! + ((a + dd + 4) >> 3));
		dst[o + 1] = clamp255(dst[o + 1]! + ((b + c + 4) >> 3));
		dst[o + 2] = clamp255(dst[o + 2]! + ((b - c + 4) >> 3));
		dst[o + 3] = clamp255(dst[o + 3]! + ((a - dd + 4) >> 3));
	}
}

/** The inverse DCT of a block whose only coefficient is its DC: one value added to all 16 pixels. */
export function idctDcAdd(dc: number, dst: Uint8Array, d: number, stride: number): void {
	const v = (dc + 4) >> 3;
	for (let r = 0; r < 4; r++) {
		const o = d + r * stride;
		dst[o] = clamp255(dst[o]! + v);
		dst[o + 1] = clamp255(dst[o + 1]! + v);
		dst[o + 2] = clamp255(dst[o + 2]! + v);
		dst[o + 3] = clamp255(dst[o + 3]! + v);
	}
}

/**
 * Inverse Walsh-Hadamard transform of the Y2 block (§14.3, bit-exact): its 16 outputs become the
 * DC coefficients of the 16 luma blocks, written at out[k * 16] for block k.
 */
export function inverseWht(y2: Int16Array, at: number, out: Int16Array): void {
	for (let i = 0; i < 4; i++) {
		const a1 = y2[at + i]! + y2[at + 12 + i]!;
		const b1 = y2[at + 4 + i]! + y2[at + 8 + i]!;
		const c1 = y2[at + 4 + i]! - y2[at + 8 + i]!;
		const d1 = y2[at + i]! - y2[at + 12 + i]!;
		tmp[i] = a1 + b1;
		tmp[4 + i] = c1 + d1;
		tmp[8 + i] = a1 - b1;
		tmp[12 + i] = d1 - c1;
	}
	for (let r = 0; r < 4; r++) {
		const a1 = tmp[r * 4]! + tmp[r * 4 + 3]!;
		const b1 = tmp[r * 4 + 1]! + tmp[r * 4 + 2]!;
		const c1 = tmp[r * 4 + 1]! - tmp[r * 4 + 2]!;
		const d1 = tmp[r * 4]! - tmp[r * 4 + 3]!;
		out[r * 4 * 16] = (a1 + b1 + 3) >> 3;
		out[(r * 4 + 1) * 16] = (c1 + d1 + 3) >> 3;
		out[(r * 4 + 2) * 16] = (a1 - b1 + 3) >> 3;
		out[(r * 4 + 3) * 16] = (d1 - c1 + 3) >> 3;
	}
}
