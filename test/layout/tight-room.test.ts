import { describe, expect, it } from "vitest";
import type { Box, TextBlock, TranslatedRegion } from "../../src/pipeline/types";
import { type BlockPlan, planPage } from "../../src/pipeline/typeset";
import { layOut } from "../support/lay-out";
import { loadFont } from "../typeset/fonts";
import { Page } from "./page";

/**
 * The room a translation is set in when the source lettering was fitted tight to its container, the
 * glyphs running into the outline: the container's whole inside, as if its lettering had room
 * around it. The lettering is inside its container; the paper between the letters is not the room.
 */

const GREY: [number, number, number, number] = [200, 206, 214, 255];
const LINES = ["HELLO", "THERE", "WORLD"];
/** Long enough that the room, not the source lettering's size, decides the size it is set at. */
const TRANSLATION = "Bonjour tout le monde, comment allez-vous ce matin ?";

/** The plan of the one block layout finds for a region reading the lettering in `box`. */
async function setIn({ page, box }: { page: Page; box: Box }): Promise<{ block: TextBlock; plan: BlockPlan }> {
	const region: TranslatedRegion = { id: 0, text: LINES.join(" "), box, vertical: false, translation: TRANSLATION };
	const { blocks } = layOut(page.copy(), [region], "manga");
	expect(blocks).toHaveLength(1);
	const block = blocks[0]!;
	const planned = await planPage([block], {
		mode: "manga",
		sourceLanguage: "en",
		targetLanguage: "fr",
		imageWidth: page.width,
		imageHeight: page.height,
		loadFont,
	});
	planned.release();
	const plan = planned.blocks[0];
	if (!plan?.ink) throw new Error("nothing set");
	return { block, plan };
}

const centre = (b: Box) => [(b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2] as const;

/** Three lines of lettering at `scale` (5×7 cells, 6 and 9 cells apart), centred on (cx, cy). */
function writeCentred(page: Page, scale: number, cx: number, cy: number): Box {
	const width = 5 * 6 * scale - scale;
	const height = 2 * 9 * scale + 7 * scale;
	return page.write(LINES, Math.round(cx - width / 2), Math.round(cy - height / 2), scale).box;
}

/** A white panel whose inside is `inner` (a 3 px border round it), lettered at `scale`. */
function inPanel(inner: Box, scale: number) {
	const page = new Page(360, 260, GREY);
	page.panel({ x0: inner.x0 - 3, y0: inner.y0 - 3, x1: inner.x1 + 3, y1: inner.y1 + 3 }, [255, 255, 255, 255], 3);
	return { page, box: writeCentred(page, scale, ...centre(inner)) };
}

/** A balloon (an ellipse in a 3 px outline), lettered at `scale`. */
function inBalloon(scale: number) {
	const page = new Page(360, 260, GREY).balloon(180, 130, 56, 48);
	return { page, box: writeCentred(page, scale, 180, 130) };
}

/** The same size (to half a pixel) and the same centre (to a pixel). */
function expectSetAlike(tight: BlockPlan, roomy: BlockPlan) {
	expect(tight.size).toBeCloseTo(roomy.size, 0);
	const [tx, ty] = centre(tight.ink!);
	const [rx, ry] = centre(roomy.ink!);
	expect(Math.abs(tx - rx)).toBeLessThanOrEqual(1);
	expect(Math.abs(ty - ry)).toBeLessThanOrEqual(1);
}

describe("a translation in a container its lettering touches", () => {
	// Three lines at scale 3 (87 × 75 px) fill the panel's inside to its border; at scale 2 they leave room all round.
	const inner = { x0: 137, y0: 93, x1: 137 + 87, y1: 93 + 75 };

	it("is set in a panel at the size and centre of the same panel whose lettering has room around it", async () => {
		const tight = await setIn(inPanel(inner, 3));
		const roomy = await setIn(inPanel(inner, 2));
		expect(tight.block.container.box).toEqual(inner);
		expectSetAlike(tight.plan, roomy.plan);
		expect(Math.abs(centre(tight.plan.ink!)[0] - centre(inner)[0])).toBeLessThanOrEqual(1);
	});

	// The ellipse runs through the corner glyphs of the lines at scale 3.
	it("is set in a balloon at the size and centre of the same balloon whose lettering has room around it", async () => {
		const tight = await setIn(inBalloon(3));
		const roomy = await setIn(inBalloon(2));
		expectSetAlike(tight.plan, roomy.plan);
	});
});
