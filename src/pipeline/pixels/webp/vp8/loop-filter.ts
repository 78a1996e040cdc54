import { macroblockEdge, simpleEdge, subblockEdge } from "./edge-filters";
import type { LoopFilterHeader, Segmentation } from "./header";

/** Filter strength of one MB (RFC 6386 §15.4); level 0 means the MB is left unfiltered. */
export interface FilterStrength {
	level: number;
	interiorLimit: number;
	hevThreshold: number;
	mbEdgeLimit: number;
	subEdgeLimit: number;
}

/**
 * Strengths indexed by segment * 2 + (1 if the MB is B_PRED): the only things a key frame's
 * per-MB level depends on (segment override, then the intra reference and B_PRED mode deltas).
 */
export function filterStrengths(filter: LoopFilterHeader, seg: Segmentation): FilterStrength[] {
	const out: FilterStrength[] = [];
	for (let s = 0; s < 4; s++) {
		for (let bPred = 0; bPred < 2; bPred++) {
			let level = filter.level;
			if (seg.enabled) level = seg.absolute ? seg.filterLevel[s]! : level + seg.filterLevel[s]!;
			level = clamp63(level);
			if (filter.useDeltas) {
				level += filter.refDelta0;
				if (bPred) level += filter.modeDelta0;
				level = clamp63(level);
			}
			let interior = level;
			if (filter.sharpness > 0) {
				interior >>= filter.sharpness > 4 ? 2 : 1;
				interior = Math.min(interior, 9 - filter.sharpness);
			}
			interior = Math.max(interior, 1);
			out.push({
				level,
				interiorLimit: interior,
				hevThreshold: level >= 40 ? 2 : level >= 15 ? 1 : 0,
				mbEdgeLimit: (level + 2) * 2 + interior,
				subEdgeLimit: level * 2 + interior,
			});
		}
	}
	return out;
}

function clamp63(v: number): number {
	return v < 0 ? 0 : Math.min(v, 63);
}

/** Where one MB lies in the row buffers being filtered. */
export interface MacroblockSite {
	y: Uint8Array;
	yAt: number;
	yStride: number;
	u: Uint8Array;
	v: Uint8Array;
	cAt: number;
	cStride: number;
	hasLeft: boolean;
	hasTop: boolean;
	/** Edges between subblocks are filtered too (B_PRED, or the MB has coefficients). */
	inner: boolean;
}

/** §15.1-15.3: the four filtering steps of one MB, in order, with the simple or normal filter. */
export function filterMacroblock(site: MacroblockSite, f: FilterStrength, simple: boolean): void {
	if (f.level === 0) return;
	const { y, yAt, yStride: ys, u, v, cAt, cStride: cs } = site;
	if (simple) {
		if (site.hasLeft) simpleEdge(y, yAt, 1, ys, 16, f.mbEdgeLimit);
		if (site.inner) for (let x = 4; x < 16; x += 4) simpleEdge(y, yAt + x, 1, ys, 16, f.subEdgeLimit);
		if (site.hasTop) simpleEdge(y, yAt, ys, 1, 16, f.mbEdgeLimit);
		if (site.inner) for (let r = 4; r < 16; r += 4) simpleEdge(y, yAt + r * ys, ys, 1, 16, f.subEdgeLimit);
		return;
	}
	const { mbEdgeLimit: mbe, subEdgeLimit: sbe, interiorLimit: il, hevThreshold: ht } = f;
	if (site.hasLeft) {
		macroblockEdge(y, yAt, 1, ys, 16, mbe, il, ht);
		macroblockEdge(u, cAt, 1, cs, 8, mbe, il, ht);
		macroblockEdge(v, cAt, 1, cs, 8, mbe, il, ht);
	}
	if (site.inner) {
		for (let x = 4; x < 16; x += 4) subblockEdge(y, yAt + x, 1, ys, 16, sbe, il, ht);
		subblockEdge(u, cAt + 4, 1, cs, 8, sbe, il, ht);
		subblockEdge(v, cAt + 4, 1, cs, 8, sbe, il, ht);
	}
	if (site.hasTop) {
		macroblockEdge(y, yAt, ys, 1, 16, mbe, il, ht);
		macroblockEdge(u, cAt, cs, 1, 8, mbe, il, ht);
		macroblockEdge(v, cAt, cs, 1, 8, mbe, il, ht);
	}
	if (site.inner) {
		for (let r = 4; r < 16; r += 4) subblockEdge(y, yAt + r * ys, ys, 1, 16, sbe, il, ht);
		subblockEdge(u, cAt + 4 * cs, cs, 1, 8, sbe, il, ht);
		subblockEdge(v, cAt + 4 * cs, cs, 1, 8, sbe, il, ht);
	}
}
