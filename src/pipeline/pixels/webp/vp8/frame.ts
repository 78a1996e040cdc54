import { segmentDequant } from "./dequant";
import { Vp8FormatError } from "./errors";
import { parseFrameHeader } from "./header";
import { filterMacroblock, filterStrengths, type MacroblockSite } from "./loop-filter";
import { B_PRED, type MacroblockModes, readMacroblockModes } from "./modes";
import { MacroblockReconstructor, type RowTarget } from "./reconstruct";
import { COEFFS_PER_MB, NZ_PER_MB, readResiduals, skipResiduals } from "./residuals";

/**
 * Luma rows kept from the MB row above: the loop filter of an MB row still changes the three
 * rows above it, and the chroma upsampler of the rows emitted last needs one chroma row more.
 * Keeping half an MB row (and half a chroma MB row) covers both.
 */
const CARRIED_Y_ROWS = 8;
const CARRIED_C_ROWS = 8;

/**
 * The rows of a frame that are final (reconstructed and loop-filtered), handed to a sink after
 * each MB row. Frame row r of luma is at y[(r - yFirstRow) * yStride]; chroma row r at
 * u/v[(r - cFirstRow) * cStride]. Chroma rows from (from >> 1) - 1 to (to >> 1), clamped to the
 * frame, are present and final.
 */
export interface FinishedRows {
	y: Uint8Array;
	yStride: number;
	yFirstRow: number;
	u: Uint8Array;
	v: Uint8Array;
	cStride: number;
	cFirstRow: number;
	/** Luma rows [from, to) are final and emitted now; every row is emitted once, in order. */
	from: number;
	to: number;
}

/**
 * Decodes a VP8 key frame (RFC 6386) macroblock row by macroblock row, holding only a few rows
 * of YUV, and passes the finished rows to `sink`. Throws Vp8FormatError on broken or cut data,
 * or if the frame's size is not width x height.
 */
export function decodeFrame(vp8: Uint8Array, width: number, height: number, sink: (rows: FinishedRows) => void): void {
	const hdr = parseFrameHeader(vp8);
	if (hdr.width !== width || hdr.height !== height) {
		throw new Vp8FormatError(`VP8 frame is ${hdr.width}x${hdr.height}, not ${width}x${height}`);
	}
	const mbCols = (width + 15) >> 4;
	const mbRows = (height + 15) >> 4;
	const yStride = mbCols * 16;
	const cStride = mbCols * 8;
	const rows: FinishedRows = {
		y: new Uint8Array(yStride * (CARRIED_Y_ROWS + 16)),
		yStride,
		yFirstRow: 0,
		u: new Uint8Array(cStride * (CARRIED_C_ROWS + 8)),
		v: new Uint8Array(cStride * (CARRIED_C_ROWS + 8)),
		cStride,
		cFirstRow: 0,
		from: 0,
		to: 0,
	};
	const top = { y: new Uint8Array(yStride), u: new Uint8Array(cStride), v: new Uint8Array(cStride) };
	const reconstructor = new MacroblockReconstructor(mbCols, top);
	const target: RowTarget = {
		y: rows.y,
		yAt: CARRIED_Y_ROWS * yStride,
		yStride,
		u: rows.u,
		v: rows.v,
		cAt: CARRIED_C_ROWS * cStride,
		cStride,
	};

	const dequant = segmentDequant(hdr.quant, hdr.segmentation);
	const strengths = filterStrengths(hdr.filter, hdr.segmentation);
	const filtering = hdr.filter.level > 0;
	const segmentProbs = hdr.segmentation.updateMap ? hdr.segmentation.treeProbs : null;
	const aboveModes = new Uint8Array(mbCols * 4);
	const leftModes = new Uint8Array(4);
	const topNz = new Uint8Array(mbCols * NZ_PER_MB);
	const leftNz = new Uint8Array(NZ_PER_MB);
	const coeffs = new Int16Array(COEFFS_PER_MB);
	const kinds = new Uint8Array(24);
	const mb: MacroblockModes = { segment: 0, skip: false, yMode: 0, subModes: new Uint8Array(16), uvMode: 0 };
	const site: MacroblockSite = { ...target, hasLeft: false, hasTop: false, inner: false };
	const strengthOf = new Uint8Array(mbCols);
	const innerOf = new Uint8Array(mbCols);

	for (let my = 0; my < mbRows; my++) {
		leftModes.fill(0);
		leftNz.fill(0);
		const tokens = hdr.partitions[my % hdr.partitions.length]!;
		for (let mx = 0; mx < mbCols; mx++) {
			readMacroblockModes(hdr.modes, mb, segmentProbs, hdr.skipProb, aboveModes, mx * 4, leftModes);
			const hasY2 = mb.yMode !== B_PRED;
			let coded = false;
			if (mb.skip) skipResiduals(hasY2, topNz, mx * NZ_PER_MB, leftNz, kinds);
			else {
				coded = readResiduals(
					tokens,
					hdr.coeffProbs,
					hasY2,
					dequant[mb.segment]!,
					topNz,
					mx * NZ_PER_MB,
					leftNz,
					coeffs,
					kinds,
				);
			}
			strengthOf[mx] = mb.segment * 2 + (hasY2 ? 0 : 1);
			innerOf[mx] = !hasY2 || coded ? 1 : 0;
			reconstructor.reconstruct(mx, my, mb, coeffs, kinds, target);
		}
		hdr.modes.checkNotTruncated();
		tokens.checkNotTruncated();

		// The next MB row predicts from this one's bottom rows before they are filtered.
		top.y.set(rows.y.subarray(target.yAt + 15 * yStride, target.yAt + 16 * yStride));
		top.u.set(rows.u.subarray(target.cAt + 7 * cStride, target.cAt + 8 * cStride));
		top.v.set(rows.v.subarray(target.cAt + 7 * cStride, target.cAt + 8 * cStride));

		if (filtering) {
			for (let mx = 0; mx < mbCols; mx++) {
				site.yAt = target.yAt + mx * 16;
				site.cAt = target.cAt + mx * 8;
				site.hasLeft = mx > 0;
				site.hasTop = my > 0;
				site.inner = innerOf[mx] === 1;
				filterMacroblock(site, strengths[strengthOf[mx]!]!, hdr.filter.simple);
			}
		}

		rows.yFirstRow = my * 16 - CARRIED_Y_ROWS;
		rows.cFirstRow = my * 8 - CARRIED_C_ROWS;
		rows.from = my === 0 ? 0 : my * 16 - CARRIED_Y_ROWS;
		rows.to = my === mbRows - 1 ? height : my * 16 + 16 - CARRIED_Y_ROWS;
		if (rows.to > rows.from) sink(rows);

		// Carry the bottom half of this MB row up for the next one.
		rows.y.copyWithin(0, 16 * yStride);
		rows.u.copyWithin(0, 8 * cStride);
		rows.v.copyWithin(0, 8 * cStride);
	}
}
