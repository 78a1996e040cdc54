/**
 * Pass 2, after the models: the image's rows pass again (decoded once per group of crops, see
 * crop-plan.ts, or read from the raster image-rows.ts holds) and the rows around the regions are
 * copied into crops; as soon as a crop's last row is in, layout finds its blocks and erase fills
 * their lettering, and it is let go, keeping only what they found (small): the blocks and the
 * erased pixels.
 */
import type { Mode } from "../request/options";
import { type Crop, planCrops } from "./crop-plan";
import { CropRows } from "./crop-rows";
import { eraseBlocks } from "./erase";
import { freeBuffer } from "./free-buffer";
import type { ImageRows } from "./image-rows";
import { layoutCrop, settlePage } from "./layout";
import { decodeUntilEnough, EnoughRows } from "./rows";
import type { ErasedPixels, Raster, RowSink, TextBlock, TranslatedRegion } from "./types";

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
		const collector = new CropCollector(pass, width, (crop, pixels) => {
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
		await decodeUntilEnough(() =>
			image.rows(
				collector,
				pass.map((crop) => crop.box),
			),
		);
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

/**
 * Copies the rows of each crop as they pass and hands a crop over once its last row is in. A crop
 * holds only its rows already in (crop-rows.ts); after the last crop, the decode is stopped.
 */
class CropCollector implements RowSink {
	private readonly waiting: Crop[];
	private readonly collecting: { crop: Crop; rows: CropRows }[] = [];

	constructor(
		crops: Crop[],
		private readonly imageWidth: number,
		private readonly complete: (crop: Crop, pixels: Raster) => void,
	) {
		this.waiting = [...crops].sort((a, b) => a.box.y0 - b.box.y0);
	}

	rows(y: number, count: number, rgba: Uint8Array): void {
		for (let r = 0; r < count; r++) {
			const row = y + r;
			while (this.waiting.length > 0 && this.waiting[0]!.box.y0 <= row) {
				const crop = this.waiting.shift()!;
				this.collecting.push({ crop, rows: new CropRows(crop.box.x1 - crop.box.x0, crop.box.y1 - crop.box.y0) });
			}
			const from = r * this.imageWidth * 4;
			for (let i = 0; i < this.collecting.length; i++) {
				const { crop, rows } = this.collecting[i]!;
				const { box } = crop;
				rows.push(rgba.subarray(from + box.x0 * 4, from + box.x1 * 4));
				if (row === box.y1 - 1) {
					this.collecting.splice(i--, 1);
					const pixels = rows.whole();
					this.complete(crop, pixels);
					freeBuffer(pixels.data);
				}
			}
			if (this.waiting.length === 0 && this.collecting.length === 0) throw new EnoughRows();
		}
	}
}
