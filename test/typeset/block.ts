import type { Box, Container, TextBlock } from "../../src/pipeline/types";
import { type BlockPlan, type PageOptions, planPage } from "../../src/pipeline/typeset";
import type { Mode } from "../../src/request/options";
import { loadFont } from "./fonts";

export const box = (x0: number, y0: number, w: number, h: number): Box => ({ x0, y0, x1: x0 + w, y1: y0 + h });

/**
 * A block as layout hands it over: by default a caption on a white panel that is its text box,
 * lettered at 24 px. `container` may be a box (a panel of that box) or a whole container.
 */
export function block(translation: string, container: Box | Container, extra: Partial<TextBlock> = {}): TextBlock {
	const held: Container = "kind" in container ? container : { kind: "panel", box: container };
	return {
		id: 1,
		regionIds: [1],
		text: "source text here",
		translation,
		vertical: false,
		container: held,
		textBox: held.box,
		treatment: "replace",
		role: "caption",
		sourceSize: 24,
		textColor: [20, 20, 20],
		backgroundColor: [255, 255, 255],
		bold: false,
		align: "center",
		...extra,
	};
}

export function options(
	targetLanguage: string,
	mode: Mode = "general",
	image = { width: 1000, height: 1000 },
	sourceLanguage = "ja",
): PageOptions {
	return { mode, targetLanguage, sourceLanguage, imageWidth: image.width, imageHeight: image.height, loadFont };
}

/** The plans of a page's blocks (fonts released: the glyphs are for inspecting, not drawing). */
export async function plan(blocks: TextBlock[], opts: PageOptions): Promise<BlockPlan[]> {
	const page = await planPage(blocks, opts);
	page.release();
	return page.blocks;
}

/** The plan of one block on its own page; undefined when nothing is drawn. */
export async function planOne(
	b: TextBlock,
	targetLanguage: string,
	mode: Mode = "general",
	image = { width: 1000, height: 1000 },
): Promise<BlockPlan | undefined> {
	return (await plan([b], options(targetLanguage, mode, image)))[0];
}

/** Glyphs of a plan grouped into horizontal lines by baseline, top to bottom. */
export function lines<G extends { matrix: number[] }>(glyphs: G[]): G[][] {
	const byBaseline = new Map<number, G[]>();
	for (const g of glyphs) {
		const key = Math.round(g.matrix[5] ?? 0);
		byBaseline.set(key, [...(byBaseline.get(key) ?? []), g]);
	}
	return [...byBaseline.entries()].sort((a, b) => a[0] - b[0]).map(([, gs]) => gs);
}
