/**
 * YUV 4:2:0 (BT.601, limited range, as VP8 codes it) to RGBA, one output row at a time, with
 * "fancy" upsampling: each chroma value is interpolated from the four nearest chroma samples with
 * weights 9/16, 3/16, 3/16, 1/16 (chroma samples sit between luma pairs), edges repeated. This is
 * what libwebp does by default (its rounding differs by at most one step here and there).
 */

/** BT.601 in 14-bit fixed point: 255/219 for luma, chroma to R, G, B; terms tabulated per sample value. */
const FIX = 14;
const Y_TERM = table((y) => 19077 * (y - 16) + (1 << (FIX - 1)));
const VR_TERM = table((v) => 26149 * (v - 128));
const UG_TERM = table((u) => -6419 * (u - 128));
const VG_TERM = table((v) => -13320 * (v - 128));
const UB_TERM = table((u) => 33050 * (u - 128));

function table(f: (v: number) => number): Int32Array {
	return Int32Array.from({ length: 256 }, (_, v) => f(v));
}

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
		const base = this.outOffset + row * this.outStride;
		if (this.words) this.writeWords(this.words, base >> 2, y, yAt);
		else {
			for (let x = 0; x < width; x++) this.writeBytes(base + x * 4, pixel(y[yAt + x]!, u, v, x, last));
		}
	}

	private writeWords(words: Uint32Array, at: number, y: Uint8Array, yAt: number): void {
		const { u, v, width } = this;
		const last = u.length - 1;
		const pairs = width >> 1;
		// Chroma column j sits between luma columns 2j and 2j+1: each leans on its outer neighbour.
		for (let j = 0; j < pairs; j++) {
			const u3 = 3 * u[j]!;
			const v3 = 3 * v[j]!;
			const l = j > 0 ? j - 1 : 0;
			const r = j < last ? j + 1 : last;
			words[at + 2 * j] = rgba(y[yAt + 2 * j]!, (u3 + u[l]! + 8) >> 4, (v3 + v[l]! + 8) >> 4);
			words[at + 2 * j + 1] = rgba(y[yAt + 2 * j + 1]!, (u3 + u[r]! + 8) >> 4, (v3 + v[r]! + 8) >> 4);
		}
		if (width & 1) words[at + width - 1] = pixel(y[yAt + width - 1]!, u, v, width - 1, last);
	}

	private writeBytes(at: number, pixel: number): void {
		const out = this.out;
		out[at] = pixel & 0xff;
		out[at + 1] = (pixel >> 8) & 0xff;
		out[at + 2] = (pixel >> 16) & 0xff;
		out[at + 3] = 255;
	}
}

/** Pixel x of a row from the vertically blended chroma rows u, v (one column at a time, for edges and unaligned output). */
function pixel(y: number, u: Int32Array, v: Int32Array, x: number, last: number): number {
	const j = x >> 1;
	const k = x & 1 ? Math.min(j + 1, last) : Math.max(j - 1, 0);
	return rgba(y, (3 * u[j]! + u[k]! + 8) >> 4, (3 * v[j]! + v[k]! + 8) >> 4);
}

/** One pixel as a little-endian RGBA word, opaque (a negative int32: typed-array stores wrap it). */
function rgba(y: number, u: number, v: number): number {
	const ly = Y_TERM[y]!;
	const r = clip((ly + VR_TERM[v]!) >> FIX);
	const g = clip((ly + UG_TERM[u]! + VG_TERM[v]!) >> FIX);
	const b = clip((ly + UB_TERM[u]!) >> FIX);
	return 0xff000000 | (b << 16) | (g << 8) | r;
}

/** 0..255 as is (nearly always), otherwise clamped. */
function clip(v: number): number {
	return (v & ~255) === 0 ? v : v < 0 ? 0 : 255;
}
