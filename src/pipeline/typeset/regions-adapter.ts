/**
 * TEMPORARY: until the layout stage makes blocks, the pipeline hands the typesetter erased
 * regions. Each region becomes a block of its own whose container is the area the erase stage
 * cleaned. Remove when run.ts passes layout's TextBlocks.
 */
import type { Box, ErasedRegion, TextBlock } from "../types";
import { type TypesetResult, typesetPage } from "./page";
import type { PageOptions } from "./plan";
import { sourceFontSize } from "./source-size";

export async function typesetRegions(regions: ErasedRegion[], opts: PageOptions): Promise<TypesetResult> {
	return typesetPage(
		regions.map((region) => regionAsBlock(region, opts)),
		opts,
	);
}

export function regionAsBlock(region: ErasedRegion, opts: Pick<PageOptions, "mode">): TextBlock {
	const cleaned = [region.erasedBox.x0, region.erasedBox.y0, region.erasedBox.x1, region.erasedBox.y1].every(
		Number.isFinite,
	);
	const box: Box = cleaned ? union(region.erasedBox, region.textBox) : region.textBox;
	return {
		id: region.id,
		regionIds: [region.id],
		text: region.text,
		translation: region.translation,
		vertical: region.vertical,
		container: { kind: "panel", box },
		textBox: region.textBox,
		treatment: "replace",
		role: opts.mode === "manga" ? "dialogue" : "caption",
		sourceSize: sourceFontSize(region),
		textColor: region.textColor,
		backgroundColor: region.backgroundColor,
		bold: region.bold,
		align: region.align,
	};
}

function union(a: Box, b: Box): Box {
	return { x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) };
}
