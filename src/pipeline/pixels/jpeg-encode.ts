/**
 * A baseline JPEG encoder that takes its rows as they come: JFIF, YCbCr with 4:2:0 chroma, the
 * standard Huffman tables (ITU T.81 Annex K) and the standard quantisation tables scaled by
 * quality as libjpeg scales them. It holds one MCU row (16 image rows) and the compressed bytes,
 * so a reader copy is made while the image is decoded, without ever holding the copy's pixels.
 */

/** Quantisation tables of Annex K, in natural (row-major) order. */
const LUMA_QUANT = [
	16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51,
	87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101,
	72, 92, 95, 98, 112, 100, 103, 99,
];
const CHROMA_QUANT = [
	17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99,
	99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
	99, 99, 99, 99, 99, 99,
];

/** Zigzag position -> natural index. */
const ZIGZAG = [
	0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
	35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47,
	55, 62, 63,
];

/** Huffman tables of Annex K.3: code counts per length 1..16, then the symbols. */
interface HuffmanSpec {
	counts: number[];
	symbols: number[];
}
const DC_LUMA: HuffmanSpec = {
	counts: [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0],
	symbols: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
};
const DC_CHROMA: HuffmanSpec = {
	counts: [0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0],
	symbols: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
};
const AC_LUMA: HuffmanSpec = {
	counts: [0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7d],
	symbols: [
		0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61, 0x07, 0x22, 0x71, 0x14,
		0x32, 0x81, 0x91, 0xa1, 0x08, 0x23, 0x42, 0xb1, 0xc1, 0x15, 0x52, 0xd1, 0xf0, 0x24, 0x33, 0x62, 0x72, 0x82, 0x09,
		0x0a, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a,
		0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5a, 0x63, 0x64, 0x65,
		0x66, 0x67, 0x68, 0x69, 0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88,
		0x89, 0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9,
		0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xca,
		0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda, 0xe1, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea,
		0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa,
	],
};
const AC_CHROMA: HuffmanSpec = {
	counts: [0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 0x77],
	symbols: [
		0x00, 0x01, 0x02, 0x03, 0x11, 0x04, 0x05, 0x21, 0x31, 0x06, 0x12, 0x41, 0x51, 0x07, 0x61, 0x71, 0x13, 0x22, 0x32,
		0x81, 0x08, 0x14, 0x42, 0x91, 0xa1, 0xb1, 0xc1, 0x09, 0x23, 0x33, 0x52, 0xf0, 0x15, 0x62, 0x72, 0xd1, 0x0a, 0x16,
		0x24, 0x34, 0xe1, 0x25, 0xf1, 0x17, 0x18, 0x19, 0x1a, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x35, 0x36, 0x37, 0x38, 0x39,
		0x3a, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5a, 0x63, 0x64,
		0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x82, 0x83, 0x84, 0x85, 0x86,
		0x87, 0x88, 0x89, 0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7,
		0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, 0xc8,
		0xc9, 0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9,
		0xea, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa,
	],
};

/** (length << 16) | code for each symbol. */
function huffmanCodes({ counts, symbols }: HuffmanSpec): Int32Array {
	const table = new Int32Array(256);
	let code = 0;
	let k = 0;
	for (let length = 1; length <= 16; length++) {
		for (let i = 0; i < counts[length - 1]!; i++) table[symbols[k++]!] = (length << 16) | code++;
		code <<= 1;
	}
	return table;
}
const CODES = {
	dcLuma: huffmanCodes(DC_LUMA),
	acLuma: huffmanCodes(AC_LUMA),
	dcChroma: huffmanCodes(DC_CHROMA),
	acChroma: huffmanCodes(AC_CHROMA),
};

/** AAN scale factors of the 1-D DCT's outputs. */
const AAN = [1, 1.387039845, 1.306562965, 1.175875602, 1, 0.785694958, 0.5411961, 0.275899379];

/** libjpeg's quality scaling of a base table; also the divisors (AAN scales folded in) for the DCT's output. */
function quantTables(base: number[], quality: number): { table: Uint8Array; divisors: Float32Array } {
	const scale = quality < 50 ? 5000 / quality : 200 - 2 * quality;
	const table = new Uint8Array(64);
	const divisors = new Float32Array(64);
	for (let i = 0; i < 64; i++) {
		const q = Math.max(1, Math.min(255, Math.floor((base[i]! * scale + 50) / 100)));
		table[i] = q;
		divisors[i] = 1 / (q * AAN[i >> 3]! * AAN[i & 7]! * 8);
	}
	return { table, divisors };
}

export class JpegEncoder {
	private readonly bytes = new ByteWriter();
	private readonly luma: { table: Uint8Array; divisors: Float32Array };
	private readonly chroma: { table: Uint8Array; divisors: Float32Array };
	/** One MCU row: Y at full resolution, Cb and Cr summed over 2x2 (halved later), padded to whole MCUs. */
	private readonly y: Float32Array;
	private readonly cb: Float32Array;
	private readonly cr: Float32Array;
	private readonly paddedWidth: number;
	private rowsInMcu = 0;
	private rowsIn = 0;
	private readonly block = new Float32Array(64);
	private readonly quantised = new Int32Array(64);
	private readonly previousDc = [0, 0, 0];

	constructor(
		readonly width: number,
		readonly height: number,
		quality: number,
	) {
		this.luma = quantTables(LUMA_QUANT, quality);
		this.chroma = quantTables(CHROMA_QUANT, quality);
		this.paddedWidth = Math.ceil(width / 16) * 16;
		this.y = new Float32Array(this.paddedWidth * 16);
		this.cb = new Float32Array((this.paddedWidth / 2) * 8);
		this.cr = new Float32Array((this.paddedWidth / 2) * 8);
		this.writeHeaders();
	}

	/** The next image row, straight RGB (3 bytes a pixel, `width` pixels). */
	addRow(rgb: Uint8Array): void {
		const { width, paddedWidth } = this;
		const row = this.rowsInMcu;
		const y = this.y;
		const c = (row >> 1) * (paddedWidth >> 1);
		if ((row & 1) === 0) {
			this.cb.fill(0, c, c + (paddedWidth >> 1));
			this.cr.fill(0, c, c + (paddedWidth >> 1));
		}
		for (let x = 0; x < paddedWidth; x++) {
			// Past the right edge the last pixel repeats, as encoders usually pad.
			const i = Math.min(x, width - 1) * 3;
			const r = rgb[i]!;
			const g = rgb[i + 1]!;
			const b = rgb[i + 2]!;
			y[row * paddedWidth + x] = 0.299 * r + 0.587 * g + 0.114 * b - 128;
			const k = c + (x >> 1);
			this.cb[k]! += -0.168736 * r - 0.331264 * g + 0.5 * b;
			this.cr[k]! += 0.5 * r - 0.418688 * g - 0.081312 * b;
		}
		this.rowsIn++;
		this.rowsInMcu++;
		if (this.rowsInMcu === 16) this.flushMcuRow();
	}

	/** The whole file. Every row must have been given. */
	finish(): Uint8Array {
		if (this.rowsIn !== this.height) throw new Error(`JPEG encoder got ${this.rowsIn} of ${this.height} rows`);
		if (this.rowsInMcu > 0) {
			// Below the last row, the last row repeats to the end of the MCU.
			const { paddedWidth } = this;
			const last = this.rowsInMcu - 1;
			for (let row = this.rowsInMcu; row < 16; row++) {
				this.y.copyWithin(row * paddedWidth, last * paddedWidth, (last + 1) * paddedWidth);
			}
			if ((this.rowsInMcu & 1) === 1) {
				// The last chroma pair has one row summed: count it twice.
				const c = (last >> 1) * (paddedWidth >> 1);
				for (let k = c; k < c + (paddedWidth >> 1); k++) {
					this.cb[k]! *= 2;
					this.cr[k]! *= 2;
				}
			}
			const half = paddedWidth >> 1;
			const lastPair = last >> 1;
			for (let pair = lastPair + 1; pair < 8; pair++) {
				this.cb.copyWithin(pair * half, lastPair * half, (lastPair + 1) * half);
				this.cr.copyWithin(pair * half, lastPair * half, (lastPair + 1) * half);
			}
			this.flushMcuRow();
		}
		this.bytes.flushBits();
		this.bytes.writeBytes([0xff, 0xd9]);
		return this.bytes.take();
	}

	private flushMcuRow(): void {
		const { paddedWidth } = this;
		const half = paddedWidth >> 1;
		const block = this.block;
		for (let mx = 0; mx < paddedWidth; mx += 16) {
			for (const [bx, by] of [
				[0, 0],
				[8, 0],
				[0, 8],
				[8, 8],
			] as const) {
				for (let v = 0; v < 8; v++) {
					const from = (by + v) * paddedWidth + mx + bx;
					for (let u = 0; u < 8; u++) block[v * 8 + u] = this.y[from + u]!;
				}
				this.encodeBlock(0, this.luma.divisors, CODES.dcLuma, CODES.acLuma);
			}
			for (const [plane, component] of [
				[this.cb, 1],
				[this.cr, 2],
			] as const) {
				for (let v = 0; v < 8; v++) {
					const from = v * half + (mx >> 1);
					// Four pixels were summed into each chroma sample.
					for (let u = 0; u < 8; u++) block[v * 8 + u] = plane[from + u]! * 0.25;
				}
				this.encodeBlock(component, this.chroma.divisors, CODES.dcChroma, CODES.acChroma);
			}
		}
		this.rowsInMcu = 0;
	}

	private encodeBlock(component: number, divisors: Float32Array, dc: Int32Array, ac: Int32Array): void {
		const q = this.quantised;
		forwardDct(this.block);
		for (let i = 0; i < 64; i++) q[i] = Math.round(this.block[i]! * divisors[i]!);
		const bits = this.bytes;
		const diff = q[0]! - this.previousDc[component]!;
		this.previousDc[component] = q[0]!;
		const dcSize = magnitudeBits(diff);
		bits.writeCode(dc[dcSize]!);
		if (dcSize > 0) bits.writeBits(valueBits(diff, dcSize), dcSize);
		let zeros = 0;
		for (let k = 1; k < 64; k++) {
			const value = q[ZIGZAG[k]!]!;
			if (value === 0) {
				zeros++;
				continue;
			}
			while (zeros > 15) {
				bits.writeCode(ac[0xf0]!);
				zeros -= 16;
			}
			const size = magnitudeBits(value);
			bits.writeCode(ac[(zeros << 4) | size]!);
			bits.writeBits(valueBits(value, size), size);
			zeros = 0;
		}
		if (zeros > 0) bits.writeCode(ac[0x00]!);
	}

	private writeHeaders(): void {
		const b = this.bytes;
		b.writeBytes([0xff, 0xd8]);
		// JFIF APP0: version 1.1, no density, no thumbnail.
		b.writeBytes([0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
		for (const [id, table] of [
			[0, this.luma.table],
			[1, this.chroma.table],
		] as const) {
			b.writeBytes([0xff, 0xdb, 0, 67, id]);
			b.writeBytes(ZIGZAG.map((natural) => table[natural]!));
		}
		const { width, height } = this;
		// SOF0: 8-bit, three components; Y sampled 2x2, Cb and Cr 1x1 with their own table.
		b.writeBytes([0xff, 0xc0, 0, 17, 8, height >> 8, height & 255, width >> 8, width & 255, 3]);
		b.writeBytes([1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
		for (const [klass, spec] of [
			[0x00, DC_LUMA],
			[0x10, AC_LUMA],
			[0x01, DC_CHROMA],
			[0x11, AC_CHROMA],
		] as const) {
			b.writeBytes([0xff, 0xc4, 0, 3 + 16 + spec.symbols.length, klass, ...spec.counts, ...spec.symbols]);
		}
		// SOS: three components, tables 0/0, 1/1, 1/1, spectral selection 0..63.
		b.writeBytes([0xff, 0xda, 0, 12, 3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0]);
	}
}

/** Bits needed for the magnitude of `v` (its JPEG "size" category). */
function magnitudeBits(v: number): number {
	return v === 0 ? 0 : 32 - Math.clz32(Math.abs(v));
}

/** The low `size` bits JPEG sends for `v`: v itself when positive, v - 1 (one's complement) when negative. */
function valueBits(v: number, size: number): number {
	return (v < 0 ? v - 1 : v) & ((1 << size) - 1);
}

/**
 * In-place 2-D forward DCT of an 8x8 block (Arai, Agui and Nakajima, as in libjpeg's jfdctflt):
 * the outputs come scaled by the AAN factors, which the quantisation divisors take out.
 */
function forwardDct(d: Float32Array): void {
	for (let pass = 0; pass < 2; pass++) {
		// Rows first (stride 1 within a row of 8), then columns (stride 8).
		const step = pass === 0 ? 1 : 8;
		const next = pass === 0 ? 8 : 1;
		for (let line = 0; line < 8; line++) {
			const o = line * next;
			const i0 = o;
			const i1 = o + step;
			const i2 = o + 2 * step;
			const i3 = o + 3 * step;
			const i4 = o + 4 * step;
			const i5 = o + 5 * step;
			const i6 = o + 6 * step;
			const i7 = o + 7 * step;
			const tmp0 = d[i0]! + d[i7]!;
			const tmp7 = d[i0]! - d[i7]!;
			const tmp1 = d[i1]! + d[i6]!;
			const tmp6 = d[i1]! - d[i6]!;
			const tmp2 = d[i2]! + d[i5]!;
			const tmp5 = d[i2]! - d[i5]!;
			const tmp3 = d[i3]! + d[i4]!;
			const tmp4 = d[i3]! - d[i4]!;

			const tmp10 = tmp0 + tmp3;
			const tmp13 = tmp0 - tmp3;
			const tmp11 = tmp1 + tmp2;
			const tmp12 = tmp1 - tmp2;
			d[i0] = tmp10 + tmp11;
			d[i4] = tmp10 - tmp11;
			const z1 = (tmp12 + tmp13) * Math.SQRT1_2;
			d[i2] = tmp13 + z1;
			d[i6] = tmp13 - z1;

			const s10 = tmp4 + tmp5;
			const s11 = tmp5 + tmp6;
			const s12 = tmp6 + tmp7;
			const z5 = (s10 - s12) * 0.382683433;
			const z2 = 0.5411961 * s10 + z5;
			const z4 = 1.306562965 * s12 + z5;
			const z3 = s11 * Math.SQRT1_2;
			const z11 = tmp7 + z3;
			const z13 = tmp7 - z3;
			d[i5] = z13 + z2;
			d[i3] = z13 - z2;
			d[i1] = z11 + z4;
			d[i7] = z11 - z4;
		}
	}
}

/** Whole bytes and a bit buffer, MSB first, with the 0x00 JPEG stuffs after every 0xff of entropy data. */
class ByteWriter {
	private out = new Uint8Array(1 << 16);
	private at = 0;
	private buffer = 0;
	private count = 0;

	writeBytes(bytes: ArrayLike<number>): void {
		this.reserve(bytes.length);
		for (let i = 0; i < bytes.length; i++) this.out[this.at++] = bytes[i]!;
	}

	/** A Huffman code as (length << 16) | code. */
	writeCode(entry: number): void {
		this.writeBits(entry & 0xffff, entry >>> 16);
	}

	writeBits(value: number, n: number): void {
		// At most 16 bits at a time, with at most 7 pending: fits in 32.
		this.buffer = (this.buffer << n) | value;
		this.count += n;
		while (this.count >= 8) {
			this.count -= 8;
			const byte = (this.buffer >>> this.count) & 255;
			this.reserve(2);
			this.out[this.at++] = byte;
			if (byte === 0xff) this.out[this.at++] = 0;
		}
		this.buffer &= (1 << this.count) - 1;
	}

	/** Pads the last byte with ones, as T.81 asks. */
	flushBits(): void {
		if (this.count > 0) this.writeBits((1 << (8 - this.count)) - 1, 8 - this.count);
	}

	take(): Uint8Array {
		return this.out.slice(0, this.at);
	}

	private reserve(room: number): void {
		if (this.at + room <= this.out.length) return;
		const bigger = new Uint8Array(Math.max(this.out.length * 2, this.at + room));
		bigger.set(this.out.subarray(0, this.at));
		this.out = bigger;
	}
}
