/**
 * Layout and erase over a whole decoded image, as the second pass runs them on the crops it cuts
 * from decoded rows (crop-plan.ts, pass-crops.ts), the crops cut from the raster instead: for
 * tests and benchmarks, which hold their images whole. The raster is erased in place.
 */
import { pasteErased } from "../../src/pipeline/compose";
import { planCrops } from "../../src/pipeline/crop-plan";
import { eraseBlocks } from "../../src/pipeline/erase";
import { layoutCrop, settlePage } from "../../src/pipeline/layout";
import { cutPatch, wholePatch } from "../../src/pipeline/patch";
import type { Raster, TextBlock, TranslatedRegion } from "../../src/pipeline/types";
import type { Mode } from "../../src/request/options";

export interface PageLayout {
	blocks: TextBlock[];
	/** Regions the call's crop area left out. */
	left: number[];
	/** Wall time of each stage, ms. */
	ms: { layout: number; erase: number };
}

export function layOut(raster: Raster, regions: TranslatedRegion[], mode: Mode): PageLayout {
	const image = wholePatch(raster);
	const band = { ...raster, top: 0 };
	const plan = planCrops(regions, raster.width, raster.height);
	const byId = new Map(regions.map((r) => [r.id, r]));
	const crops = plan.passes.flat().sort((a, b) => a.regionIds[0]! - b.regionIds[0]!);
	const perCrop: TextBlock[][] = [];
	const ms = { layout: 0, erase: 0 };
	for (const crop of crops) {
		const patch = cutPatch(image, crop.box);
		let started = performance.now();
		const laid = layoutCrop(
			patch,
			crop.regionIds.map((id) => byId.get(id)!),
			raster,
		);
		ms.layout += performance.now() - started;
		started = performance.now();
		if (mode !== "light-novel") for (const erased of eraseBlocks(patch, laid)) pasteErased(band, erased);
		ms.erase += performance.now() - started;
		perCrop.push(laid.map((l) => l.block));
	}
	return { blocks: settlePage(perCrop, mode), left: plan.left, ms };
}
