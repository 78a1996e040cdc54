import type { QuantHeader, Segmentation } from "./header";
import { AC_QUANT, DC_QUANT } from "./tables";

/**
 * Dequantisation factors of one segment, laid out for the token reader: [DC, AC] pairs of the
 * Y blocks (Y1), the Y2 block and the chroma blocks.
 */
export interface Dequant {
	y1: Int32Array;
	y2: Int32Array;
	uv: Int32Array;
}

function dc(index: number): number {
	return DC_QUANT[Math.min(127, Math.max(0, index))]!;
}

function ac(index: number): number {
	return AC_QUANT[Math.min(127, Math.max(0, index))]!;
}

/** Factors for each of the four segments (RFC 6386 §9.6, §14.1 and the reference dequant_init). */
export function segmentDequant(quant: QuantHeader, seg: Segmentation): Dequant[] {
	const out: Dequant[] = [];
	for (let s = 0; s < 4; s++) {
		let q = quant.baseIndex;
		if (seg.enabled) q = seg.absolute ? seg.quantizer[s]! : q + seg.quantizer[s]!;
		out.push({
			y1: Int32Array.of(dc(q + quant.y1Dc), ac(q)),
			// Y2 is scaled up (its WHT output feeds 16 DCs); chroma DC is capped.
			y2: Int32Array.of(dc(q + quant.y2Dc) * 2, Math.max(8, Math.floor((ac(q + quant.y2Ac) * 155) / 100))),
			uv: Int32Array.of(Math.min(132, dc(q + quant.uvDc)), ac(q + quant.uvAc)),
		});
	}
	return out;
}
