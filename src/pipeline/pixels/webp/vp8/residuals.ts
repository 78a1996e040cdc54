import type { BoolDecoder } from "./bool-decoder";
import type { Dequant } from "./dequant";
import { readBlockCoefficients, TYPE_CHROMA, TYPE_Y_AFTER_Y2, TYPE_Y_WITH_DC, TYPE_Y2 } from "./tokens";
import { inverseWht } from "./transforms";

/** What an inverse transform has to do for a block. */
export const BLOCK_EMPTY = 0;
export const BLOCK_DC_ONLY = 1;
export const BLOCK_FULL = 2;

/** Offsets in the coefficient array: 16 luma blocks, 4 U, 4 V (16 coefficients each), then Y2. */
export const U_BLOCKS = 16 * 16;
export const V_BLOCKS = 20 * 16;
const Y2_BLOCK = 24 * 16;
export const COEFFS_PER_MB = 25 * 16;

/**
 * Non-zero contexts (§13.3): per MB, whether the blocks along its bottom (above arrays) or right
 * edge (left array) had coefficients: 4 luma, 2 U, 2 V, then the Y2 block.
 */
export const NZ_PER_MB = 9;
const NZ_U = 4;
const NZ_V = 6;
const NZ_Y2 = 8;

/**
 * Reads all coefficients of one macroblock (§13, §19.3) into `coeffs` (zeroed here) and the kind
 * of each of its 24 blocks into `kinds`; for a 16x16-predicted MB the Y2 block's inverse WHT is
 * already spread into the luma DCs. Returns whether any block has a non-zero coefficient.
 */
export function readResiduals(
	br: BoolDecoder,
	probs: Uint8Array,
	hasY2: boolean,
	dq: Dequant,
	top: Uint8Array,
	topAt: number,
	left: Uint8Array,
	coeffs: Int16Array,
	kinds: Uint8Array,
): boolean {
	coeffs.fill(0);
	let first = 0;
	let lumaType = TYPE_Y_WITH_DC;
	if (hasY2) {
		const ctx = top[topAt + NZ_Y2]! + left[NZ_Y2]!;
		const n = readBlockCoefficients(br, probs, TYPE_Y2, ctx, 0, dq.y2[0]!, dq.y2[1]!, coeffs, Y2_BLOCK);
		top[topAt + NZ_Y2] = left[NZ_Y2] = n > 0 ? 1 : 0;
		if (n > 1) inverseWht(coeffs, Y2_BLOCK, coeffs);
		else {
			// Only the Y2 DC: the WHT gives every luma block the same DC.
			const dc = (coeffs[Y2_BLOCK]! + 3) >> 3;
			for (let k = 0; k < 16; k++) coeffs[k * 16] = dc;
		}
		first = 1;
		lumaType = TYPE_Y_AFTER_Y2;
	}
	let any = false;
	for (let y = 0; y < 4; y++) {
		let l = left[y]!;
		for (let x = 0; x < 4; x++) {
			const k = y * 4 + x;
			const n = readBlockCoefficients(
				br,
				probs,
				lumaType,
				l + top[topAt + x]!,
				first,
				dq.y1[0]!,
				dq.y1[1]!,
				coeffs,
				k * 16,
			);
			l = n > first ? 1 : 0;
			top[topAt + x] = l;
			const kind = n > 1 ? BLOCK_FULL : coeffs[k * 16] !== 0 ? BLOCK_DC_ONLY : BLOCK_EMPTY;
			kinds[k] = kind;
			if (kind !== BLOCK_EMPTY) any = true;
		}
		left[y] = l;
	}
	for (let plane = 0; plane < 2; plane++) {
		const nzAt = plane === 0 ? NZ_U : NZ_V;
		const blocksAt = plane === 0 ? U_BLOCKS : V_BLOCKS;
		for (let y = 0; y < 2; y++) {
			let l = left[nzAt + y]!;
			for (let x = 0; x < 2; x++) {
				const k = 16 + plane * 4 + y * 2 + x;
				const at = blocksAt + (y * 2 + x) * 16;
				const n = readBlockCoefficients(
					br,
					probs,
					TYPE_CHROMA,
					l + top[topAt + nzAt + x]!,
					0,
					dq.uv[0]!,
					dq.uv[1]!,
					coeffs,
					at,
				);
				l = n > 0 ? 1 : 0;
				top[topAt + nzAt + x] = l;
				const kind = n > 1 ? BLOCK_FULL : n === 1 ? BLOCK_DC_ONLY : BLOCK_EMPTY;
				kinds[k] = kind;
				if (kind !== BLOCK_EMPTY) any = true;
			}
			left[nzAt + y] = l;
		}
	}
	return any;
}

/** An MB without coefficients: its blocks are empty, and so are the contexts it leaves (§13.3). */
export function skipResiduals(
	hasY2: boolean,
	top: Uint8Array,
	topAt: number,
	left: Uint8Array,
	kinds: Uint8Array,
): void {
	// The Y2 context passes through MBs that have no Y2 block.
	const count = hasY2 ? NZ_PER_MB : NZ_Y2;
	top.fill(0, topAt, topAt + count);
	left.fill(0, 0, count);
	kinds.fill(BLOCK_EMPTY);
}
