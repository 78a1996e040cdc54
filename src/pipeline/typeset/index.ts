/**
 * The typeset stage, in two steps so that the pipeline can draw each overlay only when the band of
 * rows it covers comes, and drop it after:
 *   planPage(blocks)  every block laid out as glyphs in its container, sizes decided page-wide
 *                     (one dialogue size per page), nothing rasterised (plan.ts);
 *   drawBlock(plan)   one block's plan rendered into a small straight-RGBA overlay (draw.ts).
 * typesetPage does both for a whole page at once.
 */
export { blockSvg, drawBlock, drawBlockNow } from "./draw";
export type { FontLoader } from "./font-cache";
export { FontSession, loadedFontBytes } from "./font-cache";
export { harfbuzzMemoryBytes } from "./harfbuzz";
export { type TypesetResult, typesetPage } from "./page";
export {
	type BlockPlan,
	MAX_BLOCKS,
	MAX_FONT_PX,
	MAX_OVERLAY_PIXELS,
	MIN_LEGIBLE_PX,
	type PageOptions,
	type PagePlan,
	planPage,
} from "./plan";
export { loadRasterizer } from "./rasterize";
export { roomFrame } from "./room";
