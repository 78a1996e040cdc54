import type { BoolDecoder } from "./bool-decoder";
import { KF_BMODE_PROBS } from "./tables";

/** 16x16 luma and 8x8 chroma prediction modes (RFC 6386 §11.2); B_PRED predicts each 4x4 subblock. */
export const DC_PRED = 0;
export const V_PRED = 1;
export const H_PRED = 2;
export const TM_PRED = 3;
export const B_PRED = 4;

/** 4x4 subblock modes (§11.2). */
export const B_DC_PRED = 0;
export const B_TM_PRED = 1;
export const B_VE_PRED = 2;
export const B_HE_PRED = 3;
export const B_LD_PRED = 4;
export const B_RD_PRED = 5;
export const B_VR_PRED = 6;
export const B_VL_PRED = 7;
export const B_HD_PRED = 8;
export const B_HU_PRED = 9;

/** §11.2 bmode_tree: positive entries index the tree, others are negated leaves. */
const BMODE_TREE = Int8Array.from([
	-B_DC_PRED,
	2,
	-B_TM_PRED,
	4,
	-B_VE_PRED,
	6,
	8,
	12,
	-B_HE_PRED,
	10,
	-B_RD_PRED,
	-B_VR_PRED,
	-B_LD_PRED,
	14,
	-B_VL_PRED,
	16,
	-B_HD_PRED,
	-B_HU_PRED,
]);

/** §11.2-11.4 fixed key-frame probabilities of the luma and chroma mode trees. */
const KF_YMODE_PROBS = [145, 156, 163, 128] as const;
const KF_UV_MODE_PROBS = [142, 114, 183] as const;

/** The subblock mode a 16x16 luma mode stands for when it is a neighbour's context (§11.3 item 4). */
const IMPLIED_SUBMODE = Uint8Array.from([B_DC_PRED, B_VE_PRED, B_HE_PRED, B_TM_PRED]);

/** What the first partition says about one macroblock. */
export interface MacroblockModes {
	segment: number;
	/** The MB codes no coefficients. */
	skip: boolean;
	yMode: number;
	/** Subblock modes in raster order, when yMode is B_PRED. */
	subModes: Uint8Array;
	uvMode: number;
}

/**
 * Reads the per-MB prediction record of a key frame (§19.3). `above` holds the bottom subblock
 * modes of the MB row above (4 per MB, B_DC_PRED outside the frame), `left` the right column of
 * the MB to the left; both are updated for the next MBs.
 */
export function readMacroblockModes(
	br: BoolDecoder,
	mb: MacroblockModes,
	segmentProbs: Uint8Array | null,
	skipProb: number,
	above: Uint8Array,
	aboveAt: number,
	left: Uint8Array,
): void {
	mb.segment = 0;
	if (segmentProbs) {
		mb.segment = br.bit(segmentProbs[0]!) ? 2 + br.bit(segmentProbs[2]!) : br.bit(segmentProbs[1]!);
	}
	mb.skip = skipProb >= 0 && br.bit(skipProb) === 1;
	if (!br.bit(KF_YMODE_PROBS[0])) {
		mb.yMode = B_PRED;
		const sub = mb.subModes;
		for (let y = 0; y < 4; y++) {
			let l = left[y]!;
			for (let x = 0; x < 4; x++) {
				const probsAt = (above[aboveAt + x]! * 10 + l) * 9;
				let i = 0;
				do i = BMODE_TREE[i + br.bit(KF_BMODE_PROBS[probsAt + (i >> 1)]!)]!;
				while (i > 0);
				l = -i;
				sub[y * 4 + x] = l;
				above[aboveAt + x] = l;
			}
			left[y] = l;
		}
	} else {
		mb.yMode = br.bit(KF_YMODE_PROBS[1])
			? br.bit(KF_YMODE_PROBS[3])
				? TM_PRED
				: H_PRED
			: br.bit(KF_YMODE_PROBS[2])
				? V_PRED
				: DC_PRED;
		const implied = IMPLIED_SUBMODE[mb.yMode]!;
		above.fill(implied, aboveAt, aboveAt + 4);
		left.fill(implied);
	}
	mb.uvMode = !br.bit(KF_UV_MODE_PROBS[0])
		? DC_PRED
		: !br.bit(KF_UV_MODE_PROBS[1])
			? V_PRED
			: !br.bit(KF_UV_MODE_PROBS[2])
				? H_PRED
				: TM_PRED;
}
