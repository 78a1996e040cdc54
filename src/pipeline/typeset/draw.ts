/**
 * One block's plan drawn into an overlay: its glyphs (and panel) as one small SVG of glyph
 * outlines, rasterised by resvg, the manga outline grown around the lettering. Called when the
 * pipeline reaches the block's rows, so only the overlays of the rows being written are alive.
 */
import type { Overlay } from "../types";
import { addOutline } from "./outline";
import type { BlockPlan } from "./plan";
import { loadRasterizer, rasterizeLoaded } from "./rasterize";
import { buildSvg } from "./svg";

/** The block's overlay, covering exactly `plan.area`. The plan's fonts must not be released yet. */
export async function drawBlock(plan: BlockPlan): Promise<Overlay> {
	await loadRasterizer();
	return drawBlockNow(plan);
}

/**
 * drawBlock without waiting, once `loadRasterizer()` has resolved: the last pass draws inside the
 * decoder's row callback, which cannot wait.
 */
export function drawBlockNow(plan: BlockPlan): Overlay {
	const raster = rasterizeLoaded(blockSvg(plan));
	if (plan.style.outline) addOutline(raster, plan.style.outline.color, plan.style.outline.radius);
	return { x: plan.area.x0, y: plan.area.y0, raster };
}

/** The SVG drawBlock rasterises: what tests inspect. */
export function blockSvg(plan: BlockPlan): string {
	const { area } = plan;
	return buildSvg(plan.glyphs, plan.style, { width: area.x1 - area.x0, height: area.y1 - area.y0 }, plan.panel);
}
