/**
 * One block's plan drawn into an overlay: its glyphs (and panel) as one small SVG of glyph
 * outlines, rasterised by resvg, the manga outline grown around the lettering. Called when the
 * pipeline reaches the block's rows, so only the overlays of the rows being written are alive.
 */
import type { Overlay } from "../types";
import { addOutline } from "./outline";
import type { BlockPlan } from "./plan";
import { rasterize } from "./rasterize";
import { buildSvg } from "./svg";

/** The block's overlay, covering exactly `plan.area`. The plan's fonts must not be released yet. */
export async function drawBlock(plan: BlockPlan): Promise<Overlay> {
	const svg = blockSvg(plan);
	const raster = await rasterize(svg);
	if (plan.style.outline) addOutline(raster, plan.style.outline.color, plan.style.outline.radius);
	return { x: plan.area.x0, y: plan.area.y0, raster };
}

/** The SVG drawBlock rasterises: what tests inspect. */
export function blockSvg(plan: BlockPlan): string {
	const { area } = plan;
	return buildSvg(plan.glyphs, plan.style, { width: area.x1 - area.x0, height: area.y1 - area.y0 }, plan.panel);
}
