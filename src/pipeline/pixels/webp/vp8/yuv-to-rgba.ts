/**
 * YUV 4:2:0 (BT.601, limited range, as VP8 codes it) to RGBA, one output row at a time, with
 * "fancy" upsampling: each chroma value is interpolated from the four nearest chroma samples with
 * weights 9/16, 3/16, 3/16, 1/16 (chroma samples sit between luma pairs), edges repeated. This is
 * what libwebp does by default (its rounding differs by at most one step here and there).
 */

/** BT.601 in 14-bit fixed point: 255/219 for luma, chroma to R, G, B. */
const K_Y = 19077;
const K_VR = 26149;
const K_UG = 6419;
const K_VG = 13320;
const K_UB = 33050;
const HALF = 1 << 13;

export class RgbaRowWriter {
	/** 3 x near + far chroma row, per chroma column: the vertical half of the interpolation. */
	private readonly u: Int32Array;
	private readonly v: Int32Array;
	private readonly words: Uint32Array | null;

	constructor(
		private readonly width: number,
		private readonly out: Uint8Array,
		private readonly outOffset: number,
		private readonly outStride: number,
	) {
		const chromaWidth = (width + 1) >> 1;
		this.u = new Int32Array(chromaWidth);
		this.v = new Int32Array(chromaWidth);
		// Whole-pixel 32-bit writes when the rows are aligned for them (little-endian RGBA).
		const aligned = out.byteOffset % 4 === 0 && outOffset % 4 === 0 && outStride % 4 === 0;
		this.words = aligned ? new Uint32Array(out.buffer, out.byteOffset, out.byteLength >> 2) : null;
	}

	/**
	 * Writes output row `row` from its luma samples and the chroma rows nearest to it (`near`) and
	 * next nearest (`far`) in U and V planes, each given as array and offset of the row.
	 */
	write(
		row: number,
		y: Uint8Array,
		yAt: number,
		uPlane: Uint8Array,
		uNear: number,
		uFar: number,
		vPlane: Uint8Array,
		vNear: number,
		vFar: number,
	): void {
		const { u, v, width } = this;
		const last = u.length - 1;
		for (let i = 0; i <= last; i++) {
			u[i] = 3 * uPlane[uNear + i]! + uPlane[uFar + i]!;
			v[i] = 3 * vPlane[vNear + i]! + vPlane[vFar + i]!;
		}
		const words = this.words;
		const base = this.outOffset + row * this.outStride;
		const out = this.out;
		for (let x = 0; x < width; x++) {
			const j = x >> 1;
			// Even columns lean on the chroma column to the left, odd ones on the one to the right.
			const k = x & 1 ? (j < last ? j + 1 : last) : j > 0 ? j - 1 : 0;
			const cu = (3 * u[j]! + u[k]! + 8) >> 4;
			const cv = (3 * v[j]! + v[k]! + 8) >> 4;
			const ly = K_Y * (y[yAt + x]! - 16);
			const du = cu - 128;
			const dv = cv - 128;
			const r = clamp((ly + K_VR * dv + HALF) >> 14);
			const g = clamp((ly - K_UG * du - K_VG * dv + HALF) >> 14);
			const b = clamp((ly + K_UB * du + HALF) >> 14);
			if (words) words[(base >> 2) + x] = 0xff000000 | (b << 16) | (g << 8) | r;
			else {
				const o = base + x * 4;
				out[o] = r;
				out[o + 1] = g;
				out[o + 2] = b;
				out[o + 3] = 255;
			}
		}
	}
}

function clamp(v: number): number {
	return v < 0 ? 0 : v > 255 ? 255 : v;
}
