/** Replies in the forms models really produce are parsed; boxes in any unit land on the same pixels. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { readAndTranslate } from "../../src/pipeline/read";
import type { Translator } from "../../src/request/options";
import type { FakeOptions } from "../fakes/vendor.mjs";
import { job, raster, readerImageOf, withFake } from "./helpers";

afterEach(() => vi.restoreAllMocks());

const image = await readerImageOf(raster(1200, 900));
/** The default fixture's first block, [80, 60, 420, 200] of 1000, on a 1200x900 image. */
const FIRST_BOX = { x0: 96, y0: 54, x1: 504, y1: 180 };

async function firstBox(translator: Translator, fake: FakeOptions) {
	const { ctx } = withFake({}, fake);
	const { regions } = await readAndTranslate(image, job({ translator }), ctx);
	return regions;
}

describe("reply forms", () => {
	for (const form of ["fence", "prose"] as const) {
		for (const translator of ["grok", "kimi", "gemini"] as const) {
			it(`${translator}: JSON ${form === "fence" ? "inside a code fence" : "between prose"} is read`, async () => {
				const regions = await firstBox(translator, { form });
				expect(regions).toHaveLength(3);
				expect(regions[0]?.box).toEqual(FIRST_BOX);
			});
		}
	}

	it("claude answering in a text block instead of the tool is still read", async () => {
		const regions = await firstBox("claude", { form: "text" });
		expect(regions[0]?.box).toEqual(FIRST_BOX);
	});

	it("Workers AI answering JSON as a string in a fence is read", async () => {
		const { ctx } = withFake({ READER: "workers-ai" }, { form: "fence" });
		const { regions } = await readAndTranslate(image, job({ translator: "grok" }), ctx);
		expect(regions[0]?.box).toEqual(FIRST_BOX);
	});
});

describe("boxes", () => {
	it("pixels of the image sent map to the same original pixels as 0..1000", async () => {
		const regions = await firstBox("grok", { fixture: "pixels" });
		// The 1200x900 image went as 1200x900 (under the long-edge limit): one pixel of rounding at most.
		const box = regions[0]!.box;
		expect(Math.abs(box.x0 - FIRST_BOX.x0)).toBeLessThanOrEqual(1);
		expect(Math.abs(box.y1 - FIRST_BOX.y1)).toBeLessThanOrEqual(1);
	});

	it("0..1 fractions are understood", async () => {
		expect((await firstBox("chatgpt", { fixture: "fractions" }))[0]?.box).toEqual(FIRST_BOX);
	});

	it("corners given the wrong way round make the same box", async () => {
		expect((await firstBox("grok", { fixture: "swapped" }))[0]?.box).toEqual(FIRST_BOX);
	});

	it("missing optional fields: horizontal, no lines, no colour", async () => {
		const regions = await firstBox("grok", { fixture: "minimal" });
		expect(regions[1]).toMatchObject({ vertical: false });
		expect(regions[0]?.lines).toBeUndefined();
		expect(regions[0]?.color).toBeUndefined();
	});

	it("a block the model repeated is kept once", async () => {
		const regions = await firstBox("grok", { fixture: "duplicates" });
		expect(regions.map((r) => r.id)).toEqual([0, 1, 2]);
	});

	it("an image without text gives no regions and makes no translation call", async () => {
		const { ctx, fake } = withFake({}, { fixture: "empty" });
		const result = await readAndTranslate(image, job({ translator: "deepseek" }), ctx);
		expect(result).toEqual({ regions: [], roundTrips: 1 });
		expect(fake.calls).toHaveLength(1);
	});
});

describe("vendor envelopes", () => {
	/** Answers every request with `reply`, whatever was asked. */
	function replying(reply: object) {
		const { ctx } = withFake();
		vi.spyOn(globalThis, "fetch").mockImplementation(async () => Response.json(reply));
		return ctx;
	}
	const document = {
		regions: [{ text: "はい", box: [80, 60, 420, 200], vertical: false, lines: null, color: null, translation: "Yes" }],
	};

	it("Gemini: thought parts are skipped, the answer may come in several text parts", async () => {
		const text = JSON.stringify(document);
		const ctx = replying({
			candidates: [
				{
					content: {
						parts: [
							{ text: "Let me look for {text", thought: true },
							{ text: text.slice(0, 20) },
							{ text: text.slice(20) },
						],
					},
					finishReason: "STOP",
				},
			],
		});
		const { regions } = await readAndTranslate(image, job({ translator: "gemini" }), ctx);
		expect(regions[0]).toMatchObject({ text: "はい", translation: "Yes", box: FIRST_BOX });
	});

	it("OpenAI-compatible servers answering content as a list of text parts", async () => {
		const ctx = replying({
			choices: [{ message: { content: [{ type: "text", text: JSON.stringify(document) }] }, finish_reason: "stop" }],
		});
		const { regions } = await readAndTranslate(image, job({ translator: "grok" }), ctx);
		expect(regions[0]?.translation).toBe("Yes");
	});

	it("a refusal (no content, a refusal field) says the model declined", async () => {
		const ctx = replying({ choices: [{ message: { content: null, refusal: "I can't." }, finish_reason: "stop" }] });
		await expect(readAndTranslate(image, job({ translator: "chatgpt" }), ctx)).rejects.toMatchObject({
			detail: "Translation failed: chatgpt's model declined to process this image",
		});
	});

	it("Workers AI in the OpenAI shape (choices[0].message.content), as newer models answer", async () => {
		const { ctx } = withFake({ READER: "workers-ai" }, { aiShape: "choices" });
		const { regions } = await readAndTranslate(image, job({ translator: "grok" }), ctx);
		expect(regions[0]?.box).toEqual(FIRST_BOX);
		expect(regions[2]?.translation).toBe("[en] SALE 50% OFF ¥1,980");
	});

	it("a region without its translation in a one-call reply breaks the contract", async () => {
		const { translation: _, ...untranslated } = document.regions[0]!;
		const ctx = replying({
			content: [{ type: "tool_use", name: "submit_regions", input: { regions: [untranslated] } }],
			stop_reason: "tool_use",
		});
		await expect(readAndTranslate(image, job({ translator: "claude" }), ctx)).rejects.toMatchObject({
			detail: "Translation failed: claude's reply did not follow the output format",
		});
	});
});
