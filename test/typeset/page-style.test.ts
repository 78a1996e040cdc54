import { describe, expect, it } from "vitest";
import type { TextBlock } from "../../src/pipeline/types";
import { block, box, options, plan } from "./block";

/** A balloon of the page: an ellipse of `w` by `h` at (x, y), lettered at `voice` px. */
function balloon(id: number, translation: string, x: number, y: number, w: number, h: number, voice = 24): TextBlock {
	const inner = box(x + w * 0.3, y + h * 0.3, w * 0.4, h * 0.4);
	return block(
		translation,
		{ kind: "balloon", box: box(x, y, w, h) },
		{
			id,
			regionIds: [id],
			textBox: inner,
			role: "dialogue",
			sourceSize: voice,
		},
	);
}

const page = { width: 1200, height: 1600 };
const sizes = (plans: { size: number }[]) => plans.map((p) => p.size);

describe("one dialogue size per page", () => {
	it("sets a page of five balloons at one size, whatever their shapes and the lengths of their lines", async () => {
		// Source lettering measured a little differently in each (22 to 26 px), as layout measures it.
		const blocks = [
			balloon(0, "Hey!", 60, 60, 260, 180, 24),
			balloon(1, "Where do you think you are going with my lunch?", 420, 40, 420, 300, 22),
			balloon(2, "I told you already. It's mine now.", 80, 420, 360, 280, 26),
			balloon(3, "Give it back!", 560, 500, 300, 220, 25),
			balloon(4, "Fine. But you owe me one, and I won't forget it.", 200, 900, 460, 320, 23),
		];
		const plans = await plan(blocks, options("en", "manga", page));
		expect(plans.length).toBe(5);
		expect(new Set(sizes(plans)).size).toBe(1);
		// At the dialogue's voice, not shrunk to nothing: the median source size and its headroom.
		expect(plans[0]?.size).toBeGreaterThan(20);
		expect(plans[0]?.size).toBeLessThanOrEqual(24 * 1.1 + 1e-9);
	});

	it("sets a balloon that can't hold the page's size smaller, and only that one", async () => {
		const blocks = [
			balloon(0, "Hey!", 60, 60, 260, 180),
			balloon(1, "Where are you going?", 420, 40, 320, 220),
			balloon(2, "I told you already. It's mine now.", 80, 420, 360, 280),
			balloon(3, "Give it back!", 560, 500, 300, 220),
			// Cramped: a long line in a small balloon.
			balloon(4, "Fine, but you owe me one and I will not forget it, not ever.", 200, 900, 150, 110),
		];
		const plans = await plan(blocks, options("en", "manga", page));
		const [a, b, c, d, cramped] = sizes(plans);
		expect(new Set([a, b, c, d]).size).toBe(1);
		expect(cramped).toBeLessThan(a ?? 0);
		expect(plans[4]?.groupSize).toBe(a);
		expect(plans[4]?.overflowed).toBe(false);
	});

	it("keeps a whisper smaller, and sound effects and captions at their own sizes", async () => {
		const blocks = [
			balloon(0, "Hey!", 60, 60, 260, 180, 24),
			balloon(1, "Where are you going?", 420, 40, 320, 220, 25),
			balloon(2, "Come back here.", 80, 420, 360, 280, 23),
			balloon(3, "psst... over here", 560, 500, 300, 220, 12),
			{
				...balloon(4, "BOOM", 200, 900, 500, 300, 90),
				role: "sfx",
				container: { kind: "free", box: box(300, 1000, 300, 100) },
			},
			{
				...balloon(5, "Meanwhile, at the harbour", 100, 1300, 700, 80, 18),
				role: "caption",
				container: { kind: "panel", box: box(100, 1300, 700, 80) },
			},
		] as TextBlock[];
		const [hey, where, come, whisper, boom, caption] = sizes(await plan(blocks, options("en", "manga", page)));
		expect(where).toBe(hey);
		expect(come).toBe(hey);
		expect(whisper).toBeLessThanOrEqual(12 * 1.1 + 1e-9);
		expect(boom).toBeGreaterThan((hey ?? 0) * 2);
		expect(caption).toBeLessThanOrEqual(18 * 1.1 + 1e-9);
		expect(caption).toBeGreaterThan(15);
	});

	it("keeps a shop's large banner large: outside manga, larger lettering is its own voice", async () => {
		const label = (id: number, translation: string, y: number, voice: number) =>
			block(translation, box(50, y, 700, voice * 2.5), { id, regionIds: [id], sourceSize: voice });
		const plans = await plan(
			[
				label(0, "Big summer sale", 40, 80),
				label(1, "Fresh bread daily", 300, 24),
				label(2, "Open every day", 400, 25),
			],
			options("en", "e-commerce", { width: 800, height: 600 }),
		);
		const [banner, bread, open] = sizes(plans);
		expect(banner).toBeGreaterThan(60);
		expect(bread).toBe(open);
	});
});
