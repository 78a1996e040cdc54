/**
 * TEMPORARY, until typesetting takes TextBlock[] (the typeset rewrite; the lead removes this then):
 * today's typesetRegions takes ErasedRegion[]. Blocks to keep are not handed over (nothing is drawn
 * on them), and blocks to cover get their opaque panel painted here, in the local background colour
 * over the lettering, so the translation set on it is never printed over lettering left in place.
 */
import type { ErasedRegion, Raster, TextBlock } from "./types";

/** Margin of a cover panel around the lettering, px. */
const COVER_MARGIN = 3;

export function asErasedRegions(blocks: TextBlock[], raster: Raster): ErasedRegion[] {
	const regions: ErasedRegion[] = [];
	for (const block of blocks) {
		if (block.treatment === "keep") continue;
		if (block.treatment === "cover") paintPanel(raster, block);
		regions.push({
			id: block.id,
			text: block.text,
			translation: block.translation,
			vertical: block.vertical,
			box: block.textBox,
			textBox: block.textBox,
			erasedBox: block.treatment === "cover" ? block.textBox : block.container.box,
			textColor: block.textColor,
			backgroundColor: block.backgroundColor,
			bold: block.bold,
			align: block.align,
		});
	}
	return regions;
}

function paintPanel(raster: Raster, block: TextBlock): void {
	const {
		textBox: b,
		backgroundColor: [r, g, bl],
	} = block;
	for (let y = Math.max(0, b.y0 - COVER_MARGIN); y < Math.min(raster.height, b.y1 + COVER_MARGIN); y++) {
		for (let x = Math.max(0, b.x0 - COVER_MARGIN); x < Math.min(raster.width, b.x1 + COVER_MARGIN); x++) {
			raster.data.set([r, g, bl, 255], (y * raster.width + x) * 4);
		}
	}
}
