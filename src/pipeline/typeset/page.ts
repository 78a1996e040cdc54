import type { Overlay, TextBlock } from "../types";
import { drawBlock } from "./draw";
import { type PageOptions, planPage } from "./plan";

export interface TypesetResult {
	overlays: Overlay[];
	/** Reader region ids of blocks whose text did not fit at the legible minimum, or were not set. */
	overflow: number[];
}

/** Plans the page and draws every block: for callers that hold the whole image anyway. */
export async function typesetPage(blocks: TextBlock[], opts: PageOptions): Promise<TypesetResult> {
	const plan = await planPage(blocks, opts);
	try {
		const overlays: Overlay[] = [];
		for (const block of plan.blocks) overlays.push(await drawBlock(block));
		return { overlays, overflow: plan.overflow };
	} finally {
		plan.release();
	}
}
