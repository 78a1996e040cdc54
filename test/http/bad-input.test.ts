import { beforeAll, describe, expect, it } from "vitest";
import { chunk, riff, solidVp8l } from "../pipeline/hostile/webp";
import { toBase64 } from "../support/png";
import { instantPipeline, service, validBody } from "../support/service";

/**
 * Requests a client can get wrong, each with the status and body the spec and DESIGN give.
 * Whatever the answer, the balance is unchanged and the pipeline never runs.
 */
const double = instantPipeline();
const yakusu = service(double.pipeline);
let customer: Awaited<ReturnType<typeof yakusu.customer>>;
let good: Record<string, unknown>;

beforeAll(async () => {
	customer = await yakusu.customer("enterprise", 100);
	good = await validBody();
});

async function expectRefused(body: string, status: number, detail?: string) {
	const res = await yakusu.translate(customer.apiKey, body);
	expect(res.status).toBe(status);
	const answer = await res.json<{ detail: string }>();
	expect(Object.keys(answer)).toEqual(["detail"]);
	if (detail) expect(answer.detail).toBe(detail);
	expect(await yakusu.balance(customer.accountId)).toBe(100);
	expect(double.jobs).toHaveLength(0);
}

const json = (fields: Record<string, unknown>) => JSON.stringify({ ...good, ...fields });

/** A PNG header that claims the given size: enough for the probe, no pixels behind it. */
function pngHeader(width: number, height: number): string {
	const bytes = new Uint8Array(33);
	bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
	const view = new DataView(bytes.buffer);
	view.setUint32(16, width);
	view.setUint32(20, height);
	bytes.set([8, 6, 0, 0, 0], 24);
	return toBase64(bytes);
}

describe("bodies that are not a JSON object: 400", () => {
	it.each([
		["an empty body", ""],
		["non-JSON", "imageBase64=abc"],
		["truncated JSON", '{"imageBase64": "iVBO'],
		["a JSON array", "[1, 2, 3]"],
		["a JSON string", '"hello"'],
		["null", "null"],
		["trailing garbage", '{"sourceLanguage": "ja"} extra'],
		["deeply nested JSON", `{"x": ${"[".repeat(100_000)}${"]".repeat(100_000)}}`],
	])("%s", async (_, body) => {
		await expectRefused(body, 400);
	});
});

describe("imageBase64 that is not base64: 400", () => {
	it.each([
		["invalid characters", "iVBORw0KGgo$$$$AAAANSUhEUg=="],
		["padding in the middle", "iVBO=Rw0KGgo"],
		["a data URL whose payload is not base64", "data:image/png;base64,not*base64!"],
		["a data URL without ;base64", "data:image/png,iVBORw0KGgo"],
	])("%s", async (_, imageBase64) => {
		await expectRefused(json({ imageBase64 }), 400);
	});
});

describe("too large: 413", () => {
	it("refuses a 30 MB body", async () => {
		await expectRefused(json({ imageBase64: "A".repeat(30 * 1024 * 1024) }), 413);
	});

	it("refuses an image over 20 MB once decoded", async () => {
		await expectRefused(json({ imageBase64: "A".repeat(Math.ceil(((20 * 1024 * 1024 + 1) * 4) / 3 / 4) * 4) }), 413);
	});

	it("refuses an image over 25 megapixels, saying the limit", async () => {
		const res = await yakusu.translate(customer.apiKey, json({ imageBase64: pngHeader(5001, 5000) }));
		expect(res.status).toBe(413);
		expect((await res.json<{ detail: string }>()).detail).toContain("25 megapixels");
	});

	it("refuses a lossless WebP over its 3.1 megapixels, saying why", async () => {
		const lossless = toBase64(riff([chunk("VP8L", solidVp8l(2000, 2000))]));
		await expectRefused(
			json({ imageBase64: lossless }),
			413,
			"Image is 2000x2000 (4.0 megapixels); the limit is 3.1 megapixels for a lossless WebP, which takes more memory to decode (25 megapixels for other images)",
		);
	});
});

describe("fields that fail validation: 422 naming the field", () => {
	it.each([
		["a missing image", { imageBase64: undefined }, "imageBase64"],
		["an empty image", { imageBase64: "" }, "imageBase64"],
		["an image of the wrong type", { imageBase64: 42 }, "imageBase64"],
		["valid base64 that is no image", { imageBase64: btoa("just some text, not an image") }, "imageBase64"],
		["a truncated image header", { imageBase64: pngHeader(10, 10).slice(0, 12) }, "imageBase64"],
		["a missing source language", { sourceLanguage: undefined }, "sourceLanguage"],
		["a source language of the wrong type", { sourceLanguage: 7 }, "sourceLanguage"],
		["an unknown source language", { sourceLanguage: "klingon" }, "sourceLanguage"],
		["an unknown target language", { targetLanguage: "xx" }, "targetLanguage"],
		["auto as the target", { targetLanguage: "auto" }, "targetLanguage"],
		["a target language of the wrong type", { targetLanguage: ["en"] }, "targetLanguage"],
		["an unknown mode", { mode: "comic" }, "mode"],
		["a mode of the wrong type", { mode: { name: "manga" } }, "mode"],
		["an unknown translator", { translator: "grok-4" }, "translator"],
		["a customPrompt of 1001 characters", { customPrompt: "x".repeat(1001) }, "customPrompt"],
		["a customPrompt of the wrong type", { customPrompt: true }, "customPrompt"],
		["two bad fields: the first in the spec's order", { mode: "comic", sourceLanguage: "xx" }, "sourceLanguage"],
	])("%s", async (_, fields, field) => {
		await expectRefused(json(fields), 422, `Invalid field: ${field}`);
	});
});

describe("what is accepted", () => {
	it("takes a 1000-character customPrompt, a data URL, unpadded base64 and unknown extra fields", async () => {
		const accepted = instantPipeline();
		const app = service(accepted.pipeline);
		const { apiKey } = await app.customer("professional", 100);
		const raw = good.imageBase64 as string;
		const bodies = [
			json({ customPrompt: "x".repeat(1000) }),
			json({ imageBase64: `data:image/png;base64,${raw}` }),
			json({ imageBase64: raw.replace(/=+$/, "") }),
			json({ imageBase64: raw.replace(/(.{10})/g, "$1\n"), client: { name: "demo", version: 3 } }),
		];
		for (const body of bodies) expect((await app.translate(apiKey, body)).status).toBe(200);
		expect(accepted.jobs.map((job) => job.image)).toEqual(Array(4).fill(accepted.jobs[0]!.image));
	});
});
