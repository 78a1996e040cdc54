/**
 * 8×8 inverse DCT in integer arithmetic with 12-bit fixed-point constants (the separable
 * Loeffler-style factorisation libjpeg's jidctint and stb_image use), rows then columns,
 * output level-shifted, into a clamped array (so out-of-range values saturate at 0 and 255).
 */
const F = (x: number) => Math.round(x * 4096);
const C0_541 = F(0.5411961);
const C1_847 = F(-1.847759065);
const C0_765 = F(0.765366865);
const C1_175 = F(1.175875602);
const C0_298 = F(0.298631336);
const C2_053 = F(2.053119869);
const C3_072 = F(3.072711026);
const C1_501 = F(1.50132111);
const C0_899 = F(-0.899976223);
const C2_562 = F(-2.562915447);
const C1_961 = F(-1.96157056);
const C0_390 = F(-0.390180644);

const work = new Int32Array(64);

/** `coef`: dequantised coefficients in natural order; writes 8 rows of 8 bytes at out[offset + r·stride]. */
export function idct8x8(coef: Int32Array, out: Uint8ClampedArray, offset: number, stride: number): void {
	// Columns.
	for (let i = 0; i < 8; i++) {
		const s0 = coef[i]!;
		const s1 = coef[i + 8]!;
		const s2 = coef[i + 16]!;
		const s3 = coef[i + 24]!;
		const s4 = coef[i + 32]!;
		const s5 = coef[i + 40]!;
		const s6 = coef[i + 48]!;
		const s7 = coef[i + 56]!;
		if ((s1 | s2 | s3 | s4 | s5 | s6 | s7) === 0) {
			const dc = s0 * 4;
			for (let r = 0; r < 64; r += 8) work[i + r] = dc;
			continue;
		}
		if ((s4 | s5 | s6 | s7) === 0) {
			// Only the lower half's frequencies: the same sums with the zero terms left out.
			const x0 = s0 * 4096 + 512;
			const even = s2 * C0_541;
			const e3 = even + s2 * C0_765;
			const p5 = (s3 + s1) * C1_175;
			const q1 = p5 + s1 * C0_899;
			const q2 = p5 + s3 * C2_562;
			const q3 = s3 * C1_961;
			const q4 = s1 * C0_390;
			const o3 = s1 * C1_501 + q1 + q4;
			const o2 = s3 * C3_072 + q2 + q3;
			const o1 = q2 + q4;
			const o0 = q1 + q3;
			work[i] = (x0 + e3 + o3) >> 10;
			work[i + 56] = (x0 + e3 - o3) >> 10;
			work[i + 8] = (x0 + even + o2) >> 10;
			work[i + 48] = (x0 + even - o2) >> 10;
			work[i + 16] = (x0 - even + o1) >> 10;
			work[i + 40] = (x0 - even - o1) >> 10;
			work[i + 24] = (x0 - e3 + o0) >> 10;
			work[i + 32] = (x0 - e3 - o0) >> 10;
			continue;
		}
		let p1 = (s2 + s6) * C0_541;
		let t2 = p1 + s6 * C1_847;
		let t3 = p1 + s2 * C0_765;
		let t0 = (s0 + s4) * 4096;
		let t1 = (s0 - s4) * 4096;
		const x0 = t0 + t3 + 512;
		const x3 = t0 - t3 + 512;
		const x1 = t1 + t2 + 512;
		const x2 = t1 - t2 + 512;
		t0 = s7;
		t1 = s5;
		t2 = s3;
		t3 = s1;
		let p3 = t0 + t2;
		let p4 = t1 + t3;
		p1 = t0 + t3;
		let p2 = t1 + t2;
		const p5 = (p3 + p4) * C1_175;
		t0 *= C0_298;
		t1 *= C2_053;
		t2 *= C3_072;
		t3 *= C1_501;
		p1 = p5 + p1 * C0_899;
		p2 = p5 + p2 * C2_562;
		p3 *= C1_961;
		p4 *= C0_390;
		t3 += p1 + p4;
		t2 += p2 + p3;
		t1 += p2 + p4;
		t0 += p1 + p3;
		work[i] = (x0 + t3) >> 10;
		work[i + 56] = (x0 - t3) >> 10;
		work[i + 8] = (x1 + t2) >> 10;
		work[i + 48] = (x1 - t2) >> 10;
		work[i + 16] = (x2 + t1) >> 10;
		work[i + 40] = (x2 - t1) >> 10;
		work[i + 24] = (x3 + t0) >> 10;
		work[i + 32] = (x3 - t0) >> 10;
	}
	// Rows.
	for (let r = 0; r < 8; r++) {
		const w = r * 8;
		const s0 = work[w]!;
		const s1 = work[w + 1]!;
		const s2 = work[w + 2]!;
		const s3 = work[w + 3]!;
		const s4 = work[w + 4]!;
		const s5 = work[w + 5]!;
		const s6 = work[w + 6]!;
		const s7 = work[w + 7]!;
		// Rounding and the +128 level shift, at the final scale of 2^17.
		const bias = 65536 + (128 << 17);
		const o = offset + r * stride;
		if ((s4 | s5 | s6 | s7) === 0) {
			// The column pass's shortcut, written out again: one function shared by both passes
			// (storing into the Int32Array and the clamped output from one place, or through a
			// scratch array) made the transform slower.
			const x0 = s0 * 4096 + bias;
			const even = s2 * C0_541;
			const e3 = even + s2 * C0_765;
			const p5 = (s3 + s1) * C1_175;
			const q1 = p5 + s1 * C0_899;
			const q2 = p5 + s3 * C2_562;
			const q3 = s3 * C1_961;
			const q4 = s1 * C0_390;
			const o3 = s1 * C1_501 + q1 + q4;
			const o2 = s3 * C3_072 + q2 + q3;
			const o1 = q2 + q4;
			const o0 = q1 + q3;
			out[o] = (x0 + e3 + o3) >> 17;
			out[o + 7] = (x0 + e3 - o3) >> 17;
			out[o + 1] = (x0 + even + o2) >> 17;
			out[o + 6] = (x0 + even - o2) >> 17;
			out[o + 2] = (x0 - even + o1) >> 17;
			out[o + 5] = (x0 - even - o1) >> 17;
			out[o + 3] = (x0 - e3 + o0) >> 17;
			out[o + 4] = (x0 - e3 - o0) >> 17;
			continue;
		}
		let p1 = (s2 + s6) * C0_541;
		let t2 = p1 + s6 * C1_847;
		let t3 = p1 + s2 * C0_765;
		let t0 = (s0 + s4) * 4096;
		let t1 = (s0 - s4) * 4096;
		const x0 = t0 + t3 + bias;
		const x3 = t0 - t3 + bias;
		const x1 = t1 + t2 + bias;
		const x2 = t1 - t2 + bias;
		t0 = s7;
		t1 = s5;
		t2 = s3;
		t3 = s1;
		let p3 = t0 + t2;
		let p4 = t1 + t3;
		p1 = t0 + t3;
		let p2 = t1 + t2;
		const p5 = (p3 + p4) * C1_175;
		t0 *= C0_298;
		t1 *= C2_053;
		t2 *= C3_072;
		t3 *= C1_501;
		p1 = p5 + p1 * C0_899;
		p2 = p5 + p2 * C2_562;
		p3 *= C1_961;
		p4 *= C0_390;
		t3 += p1 + p4;
		t2 += p2 + p3;
		t1 += p2 + p4;
		t0 += p1 + p3;
		out[o] = (x0 + t3) >> 17;
		out[o + 7] = (x0 - t3) >> 17;
		out[o + 1] = (x1 + t2) >> 17;
		out[o + 6] = (x1 - t2) >> 17;
		out[o + 2] = (x2 + t1) >> 17;
		out[o + 5] = (x2 - t1) >> 17;
		out[o + 3] = (x3 + t0) >> 17;
		out[o + 4] = (x3 - t0) >> 17;
	}
}

/** The same transform for a block whose only coefficient is DC: one flat value (bit-exact with idct8x8). */
export function idctDcOnly(dc: number, out: Uint8ClampedArray, offset: number, stride: number): void {
	const value = (dc * 16384 + 65536 + (128 << 17)) >> 17;
	for (let r = 0; r < 8; r++) out.fill(value, offset + r * stride, offset + r * stride + 8);
}

/**
 * Half-size output: each 2×2 pixels' average of the 8×8 transform, before rounding, taken from the
 * coefficients directly. Pixels 2i and 2i+1 average cos((4i+1)uπ/16) and cos((4i+3)uπ/16), which is
 * cos((2i+1)uπ/8)·cos(uπ/16): a 4×8 matrix each way, a fraction of the full transform's work and
 * none of the upsampling and colour conversion of the pixels it stands for. In doubles: a hostile
 * file's coefficients cannot overflow them.
 */
const PAIRS = Float64Array.from({ length: 32 }, (_, k) => {
	const x = k >> 3;
	const u = k & 7;
	return ((u === 0 ? Math.SQRT1_2 : 1) * Math.cos(((2 * x + 1) * u * Math.PI) / 8) * Math.cos((u * Math.PI) / 16)) / 2;
});
const pairWork = new Float64Array(32);

/** `coef` as for idct8x8; writes 4 rows of 4 bytes at out[offset + r·stride]. */
export function idctHalf(coef: Int32Array, out: Uint8ClampedArray, offset: number, stride: number): void {
	// Columns: the 4 half-size rows of each horizontal frequency, up to the last one present
	// (most blocks hold only low frequencies).
	let columns = 0;
	for (let i = 0; i < 8; i++) {
		const s0 = coef[i]!;
		const s1 = coef[i + 8]!;
		const s2 = coef[i + 16]!;
		const s3 = coef[i + 24]!;
		const s4 = coef[i + 32]!;
		const s5 = coef[i + 40]!;
		const s6 = coef[i + 48]!;
		const s7 = coef[i + 56]!;
		if ((s1 | s2 | s3 | s4 | s5 | s6 | s7) === 0) {
			const dc = PAIRS[0]! * s0;
			for (let y = 0; y < 32; y += 8) pairWork[y + i] = dc;
			if (s0 !== 0) columns = i + 1;
			continue;
		}
		columns = i + 1;
		for (let y = 0; y < 4; y++) {
			const k = y * 8;
			pairWork[k + i] =
				PAIRS[k]! * s0 +
				PAIRS[k + 1]! * s1 +
				PAIRS[k + 2]! * s2 +
				PAIRS[k + 3]! * s3 +
				PAIRS[k + 4]! * s4 +
				PAIRS[k + 5]! * s5 +
				PAIRS[k + 6]! * s6 +
				PAIRS[k + 7]! * s7;
		}
	}
	// Rows, level-shifted and rounded; the clamped array saturates.
	for (let y = 0; y < 4; y++) {
		const w = y * 8;
		const o = offset + y * stride;
		for (let x = 0; x < 4; x++) {
			const k = x * 8;
			let sum = 128.5;
			for (let u = 0; u < columns; u++) sum += PAIRS[k + u]! * pairWork[w + u]!;
			out[o + x] = Math.floor(sum);
		}
	}
}

/** idctHalf of a block whose only coefficient is DC. */
export function idctDcOnlyHalf(dc: number, out: Uint8ClampedArray, offset: number, stride: number): void {
	const value = Math.floor(dc / 8 + 128.5);
	for (let r = 0; r < 4; r++) out.fill(value, offset + r * stride, offset + r * stride + 4);
}
