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
		let p1 = (s2 + s6) * C0_541;
		let t2 = p1 + s6 * C1_847;
		let t3 = p1 + s2 * C0_765;
		let t0 = (s0 + s4) * 4096;
		let t1 = (s0 - s4) * 4096;
		// Rounding and the +128 level shift, at the final scale of 2^17.
		const bias = 65536 + (128 << 17);
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
		const o = offset + r * stride;
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
