/**
 * Pass 2, after the models: the pixels around the regions are copied into crops (from the image's
 * rows decoded once per group of crops, see crop-plan.ts, or cut from the pixels image-rows.ts
 * holds); as soon as a crop is complete, layout finds its blocks and erase fills their lettering,
 * and it is let go, keeping only what they found (small): the blocks and the erased pixels.
 */
import type { Mode } from "../request/options";
import { type Crop, planCrops } from "./crop-plan";
import { eraseBlocks } from "./erase";
import type { ImageRows } from "./image-rows";
import { layoutCrop, settlePage } from "./layout";
import type { ErasedPixels, TextBlock, TranslatedRegion } from "./types";

export interface SecondPass {
	/** The page's blocks, from the regions that were given a crop, in reading order. */
	blocks: TextBlock[];
	/** What erase changed, to be pasted in this order by the last pass. */
	erased: ErasedPixels[];
	/** Regions left out: the call's crop area was spent. */
	left: number[];
	/** Wall time of each stage, ms. */
	ms: { layout: number; erase: number };
}

export async function layOutInCrops(image: ImageRows, regions: TranslatedRegion[], mode: Mode): Promise<SecondPass> {
	const { width, height } = image;
	const plan = planCrops(regions, width, height);
	const byId = new Map(regions.map((r) => [r.id, r]));
	const done: { crop: Crop; blocks: TextBlock[]; erased: ErasedPixels[] }[] = [];
	const ms = { layout: 0, erase: 0 };
	for (const pass of plan.passes) {
		await image.crops(pass, (crop, pixels) => {
			const patch = { box: crop.box, ...pixels };
			let started = performance.now();
			const laid = layoutCrop(
				patch,
				crop.regionIds.map((id) => byId.get(id)!),
				{ width, height },
			);
			ms.layout += performance.now() - started;
			started = performance.now();
			// Light-novel mode sets panels over the source and never inpaints.
			const erased = mode === "light-novel" ? [] : eraseBlocks(patch, laid);
			ms.erase += performance.now() - started;
			done.push({ crop, blocks: laid.map((l) => l.block), erased });
		});
	}
	// Overlapping crops are pasted in the order of their first region, as layout reads them.
	done.sort((a, b) => a.crop.regionIds[0]! - b.crop.regionIds[0]!);
	return {
		blocks: settlePage(
			done.map((d) => d.blocks),
			mode,
		),
		erased: done.flatMap((d) => d.erased),
		left: plan.left,
		ms,
	};
}
