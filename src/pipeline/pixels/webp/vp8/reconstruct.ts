import { B_PRED, type MacroblockModes } from "./modes";
import { predictBlock, predictSubblock } from "./predict";
import { BLOCK_DC_ONLY, BLOCK_EMPTY, U_BLOCKS, V_BLOCKS } from "./residuals";
import { idctAdd, idctDcAdd } from "./transforms";

/**
 * Work area for one macroblock with its prediction edges (RFC 6386 §12): the 16x16 luma block
 * with a row above (corner, 16 pixels, 4 above-right) and a column to the left, then the same for
 * the 8x8 U and V blocks. The left columns are carried over from the previous MB of the row.
 */
const S = 32;
const Y_AT = S + 8;
const U_AT = 18 * S + 8;
const V_AT = 27 * S + 8;

/** The unfiltered bottom rows of the MB row above, which the next MB row predicts from. */
export interface TopEdges {
	y: Uint8Array;
	u: Uint8Array;
	v: Uint8Array;
}

/** Where the current MB row goes: luma rows from y[yAt], chroma rows from u/v[cAt]. */
export interface RowTarget {
	y: Uint8Array;
	yAt: number;
	yStride: number;
	u: Uint8Array;
	v: Uint8Array;
	cAt: number;
	cStride: number;
}

export class MacroblockReconstructor {
	private readonly work = new Uint8Array(36 * S);

	constructor(
		private readonly mbCols: number,
		private readonly top: TopEdges,
	) {}

	/**
	 * Predicts the MB at (mx, my), adds its residuals and copies it into the row buffers at column mx.
	 */
	reconstruct(
		mx: number,
		my: number,
		modes: MacroblockModes,
		coeffs: Int16Array,
		kinds: Uint8Array,
		rows: RowTarget,
	): void {
		const w = this.work;
		this.fillEdges(mx, my);
		if (modes.yMode === B_PRED) {
			// Subblocks on the right edge predict from the MB row above, whatever their row (§12.3).
			for (let r = 3; r < 15; r += 4) {
				for (let i = 16; i < 20; i++) w[Y_AT + r * S + i] = w[Y_AT - S + i]!;
			}
			for (let k = 0; k < 16; k++) {
				const o = Y_AT + (k >> 2) * 4 * S + (k & 3) * 4;
				predictSubblock(w, o, S, modes.subModes[k]!);
				addResidual(coeffs, k * 16, kinds[k]!, w, o);
			}
		} else {
			predictBlock(w, Y_AT, S, 16, modes.yMode, my > 0, mx > 0);
			for (let k = 0; k < 16; k++) addResidual(coeffs, k * 16, kinds[k]!, w, Y_AT + (k >> 2) * 4 * S + (k & 3) * 4);
		}
		predictBlock(w, U_AT, S, 8, modes.uvMode, my > 0, mx > 0);
		predictBlock(w, V_AT, S, 8, modes.uvMode, my > 0, mx > 0);
		for (let k = 0; k < 4; k++) {
			const o = (k >> 1) * 4 * S + (k & 1) * 4;
			addResidual(coeffs, U_BLOCKS + k * 16, kinds[16 + k]!, w, U_AT + o);
			addResidual(coeffs, V_BLOCKS + k * 16, kinds[20 + k]!, w, V_AT + o);
		}
		copyBlock(w, Y_AT, rows.y, rows.yAt + mx * 16, rows.yStride, 16);
		copyBlock(w, U_AT, rows.u, rows.cAt + mx * 8, rows.cStride, 8);
		copyBlock(w, V_AT, rows.v, rows.cAt + mx * 8, rows.cStride, 8);
	}

	/** Above row, corner and left column of each plane: neighbours, or 127 above / 129 left of the frame. */
	private fillEdges(mx: number, my: number): void {
		const w = this.work;
		const { y, u, v } = this.top;
		if (my === 0) {
			w.fill(127, Y_AT - S - 1, Y_AT - S + 20);
			w.fill(127, U_AT - S - 1, U_AT - S + 8);
			w.fill(127, V_AT - S - 1, V_AT - S + 8);
		} else {
			for (let i = 0; i < 16; i++) w[Y_AT - S + i] = y[mx * 16 + i]!;
			const last = mx === this.mbCols - 1;
			for (let i = 16; i < 20; i++) w[Y_AT - S + i] = y[last ? mx * 16 + 15 : mx * 16 + i]!;
			for (let i = 0; i < 8; i++) {
				w[U_AT - S + i] = u[mx * 8 + i]!;
				w[V_AT - S + i] = v[mx * 8 + i]!;
			}
			w[Y_AT - S - 1] = mx === 0 ? 129 : y[mx * 16 - 1]!;
			w[U_AT - S - 1] = mx === 0 ? 129 : u[mx * 8 - 1]!;
			w[V_AT - S - 1] = mx === 0 ? 129 : v[mx * 8 - 1]!;
		}
		for (let r = 0; r < 16; r++) {
			const at = Y_AT + r * S;
			w[at - 1] = mx === 0 ? 129 : w[at + 15]!;
		}
		for (let r = 0; r < 8; r++) {
			const uAt = U_AT + r * S;
			const vAt = V_AT + r * S;
			w[uAt - 1] = mx === 0 ? 129 : w[uAt + 7]!;
			w[vAt - 1] = mx === 0 ? 129 : w[vAt + 7]!;
		}
	}
}

function addResidual(coeffs: Int16Array, at: number, kind: number, w: Uint8Array, o: number): void {
	if (kind === BLOCK_EMPTY) return;
	if (kind === BLOCK_DC_ONLY) idctDcAdd(coeffs[at]!, w, o, S);
	else idctAdd(coeffs, at, w, o, S);
}

/** An n x n block out of the work area (plain loops: subarray views per row cost more than they save). */
function copyBlock(w: Uint8Array, from: number, dst: Uint8Array, to: number, stride: number, n: number): void {
	for (let r = 0; r < n; r++) {
		const src = from + r * S;
		const d = to + r * stride;
		for (let x = 0; x < n; x++) dst[d + x] = w[src + x]!;
	}
}
