/**
 * TEMPORARY ADAPTER, until typesetting is split into a page plan and per-block drawing (issue 10):
 * every region is laid out and turned into its SVG now (today's drawRegion, glyph outlines only),
 * and rasterised only when the last pass's bands reach it.
 */
import type { Mode } from "../request/options";
import type { ErasedRegion, Overlay, Rgb } from "./types";
import { drawRegion, type FontLoader, FontSession, MAX_REGIONS } from "./typeset";
import { addOutline } from "./typeset/outline";
import { loadRasterizer, rasterizeLoaded } from "./typeset/rasterize";
import { styleFor } from "./typeset/style";

/** One overlay of the page, not drawn yet. */
export interface PlannedOverlay {
	/** Image row of its top: the last pass draws it when its bands reach this row. */
	top: number;
	/** Opaque colours it puts on the image, for the PNG colour type chosen before the first row. */
	colours: Rgb[];
	/** Rasterises it (straight RGBA at its place), at once: the plan's `ready` has resolved. */
	draw(): Overlay;
}

export interface PagePlan {
	overlays: PlannedOverlay[];
	/** Resolves once the overlays can be drawn without waiting. */
	ready: Promise<void>;
	/** Ids of regions whose text did not fit its box at the minimum size. */
	overflow: number[];
}

export interface PageOptions {
	mode: Mode;
	sourceLanguage: string;
	targetLanguage: string;
	imageWidth: number;
	imageHeight: number;
	loadFont: FontLoader;
}

export async function planPage(regions: ErasedRegion[], opts: PageOptions): Promise<PagePlan> {
	const session = new FontSession(opts.loadFont);
	const overlays: PlannedOverlay[] = [];
	const overflow: number[] = [];
	try {
		for (const [index, region] of regions.entries()) {
			if (index >= MAX_REGIONS) {
				overflow.push(region.id);
				continue;
			}
			const drawing = await drawRegion(region, opts, session);
			if (drawing.overflowed) overflow.push(region.id);
			const { svg, outline } = drawing;
			if (!svg) continue;
			const style = styleFor(opts.mode, region, drawing.fitted?.size ?? 0);
			overlays.push({
				top: drawing.y,
				colours: [
					style.fill,
					...(style.outline ? [style.outline.color] : []),
					...(style.panel ? [style.panel.color] : []),
				],
				draw: () => {
					const raster = rasterizeLoaded(svg);
					if (outline) addOutline(raster, outline.color, outline.radius);
					return { x: drawing.x, y: drawing.y, raster };
				},
			});
		}
	} finally {
		session.release();
	}
	return { overlays, overflow, ready: loadRasterizer() };
}
