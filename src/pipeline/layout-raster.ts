/**
 * Layout and erase over a whole decoded raster, crop by crop, as the pipeline runs them until the
 * pass-by-pass pipeline (docs/pipeline.md) cuts the crops from decoded rows instead: the raster is
 * erased in place and the page's blocks come back.
 */
import type { Mode } from "../request/options";
import { eraseBlocks, pasteErased } from "./erase";
import { cropsFor, layoutCrop, planLayout, settlePage } from "./layout";
import { cutPatch, wholePatch } from "./patch";
import type { Raster, TextBlock, TranslatedRegion } from "./types";

export interface PageLayout {
	blocks: TextBlock[];
	/** Ids of regions left out for the cap on regions per call: not erased, not typeset. */
	dropped: number[];
	/** Wall time of each stage, ms. */
	ms: { layout: number; erase: number };
}

export function layoutAndErase(raster: Raster, regions: TranslatedRegion[], mode: Mode): PageLayout {
	const image = wholePatch(raster);
	const plan = planLayout(regions, raster);
	const blocks: TextBlock[][] = [];
	const ms = { layout: 0, erase: 0 };
	for (const crop of cropsFor(plan)) {
		const patch = cutPatch(image, crop.box);
		let started = performance.now();
		const laid = layoutCrop(patch, crop.regions, plan);
		ms.layout += performance.now() - started;
		started = performance.now();
		// Light-novel mode sets panels over the source and never inpaints.
		if (mode !== "light-novel") for (const erased of eraseBlocks(patch, laid)) pasteErased(image, erased);
		ms.erase += performance.now() - started;
		blocks.push(laid.map((l) => l.block));
	}
	return { blocks: settlePage(blocks, mode), dropped: plan.dropped, ms };
}
