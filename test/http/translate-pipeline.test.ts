import { PhotonImage } from "@cf-wasm/photon";
import { afterEach, describe, expect, it, vi } from "vitest";
import { encodePng } from "../../src/pipeline/encode";
import { runPipeline } from "../../src/pipeline/run";
import type { Raster } from "../../src/pipeline/types";
import { createFakeVendor, type FakeOptions } from "../fakes/vendor.mjs";
import { ALL_KEYS } from "../models/helpers";
import { decodeFile } from "../support/decode";
import { concat, toBase64 } from "../support/png";
import { service } from "../support/service";

/**
 * The whole service with the real pipeline, the model vendors faked at the fetch boundary:
 * what a client sees for a translated page, and that every failure after acceptance is refunded.
 */
const WIDTH = 600;
const HEIGHT = 400;

/** The fake's default page has a block at 0..1000 box [80, 60, 420, 200]: letter-like bars there on white. */
function page(): Raster {
	const data = new Uint8Array(WIDTH * HEIGHT * 4).fill(255);
	const paint = (x0: number, y0: number, x1: number, y1: number) => {
		for (let y = y0; y < y1; y++)
			for (let x = x0; x < x1; x++) data.fill(20, (y * WIDTH + x) * 4, (y * WIDTH + x) * 4 + 3);
	};
	for (let i = 0; i < 6; i++) {
		paint(70 + i * 30, 35, 70 + i * 30 + 6, 70);
		paint(70 + i * 30, 52, 70 + i * 30 + 20, 56);
	}
	// Far from every block: must come back untouched.
	paint(560, 250, 590, 280);
	return { width: WIDTH, height: HEIGHT, data };
}

function fileOf(raster: Raster, format: "png" | "jpeg" | "webp"): Uint8Array {
	if (format === "png") return concat(encodePng(raster));
	const image = new PhotonImage(raster.data, raster.width, raster.height);
	try {
		return format === "jpeg" ? image.get_bytes_jpeg(95) : image.get_bytes_webp();
	} finally {
		image.free();
	}
}

function withVendor(options: FakeOptions = {}) {
	const fake = createFakeVendor(options);
	vi.spyOn(globalThis, "fetch").mockImplementation(fake.fetch);
	return fake;
}

afterEach(() => {
	vi.restoreAllMocks();
});

async function translate(yakusu: ReturnType<typeof service>, apiKey: string, image: Uint8Array, extra = {}) {
	return yakusu.translate(apiKey, {
		imageBase64: toBase64(image),
		sourceLanguage: "ja",
		targetLanguage: "en",
		mode: "manga",
		...extra,
	});
}

describe("the translated image", () => {
	for (const format of ["png", "jpeg", "webp"] as const) {
		it(`comes back from a ${format.toUpperCase()} as a PNG of the same size, changed only around the text`, async () => {
			const fake = withVendor();
			const yakusu = service(runPipeline, ALL_KEYS);
			const { apiKey, accountId } = await yakusu.customer("professional", 100);
			const original = page();
			const file = fileOf(original, format);
			const input = decodeFile(file);

			const res = await translate(yakusu, apiKey, file);
			expect(res.status).toBe(200);
			const body = await res.json<{ resultImage: string; remainingCredit: number }>();
			expect(body.remainingCredit).toBe(90);
			expect(await yakusu.balance(accountId)).toBe(90);
			// grok reads and translates in one round trip.
			expect(fake.calls.filter((c) => !c.rejected)).toHaveLength(1);

			const png = Uint8Array.from(atob(body.resultImage.slice("data:image/png;base64,".length)), (c) =>
				c.charCodeAt(0),
			);
			const out = await decodeFile(png);
			expect([out.width, out.height]).toEqual([WIDTH, HEIGHT]);
			const pixel = (r: Raster, x: number, y: number) =>
				Array.from(r.data.subarray((y * WIDTH + x) * 4, (y * WIDTH + x) * 4 + 4));
			// The far mark and a far corner are exactly as decoded.
			expect(pixel(out, 575, 265)).toEqual(pixel(input, 575, 265));
			expect(pixel(out, 590, 390)).toEqual(pixel(input, 590, 390));
			// Inside the first block the lettering changed: the original bars are not all still there.
			let same = 0;
			let dark = 0;
			for (let i = 0; i < 6; i++) {
				for (let y = 35; y < 70; y++) {
					const x = 72 + i * 30;
					if (pixel(input, x, y)[0]! < 100) {
						dark++;
						if (pixel(out, x, y)[0]! < 100) same++;
					}
				}
			}
			expect(dark).toBeGreaterThan(100);
			expect(same / dark).toBeLessThan(0.5);
		});
	}
});

describe("failures after acceptance are refunded", () => {
	it("a missing vendor key: 500 naming the variable", async () => {
		withVendor();
		const { XAI_API_KEY: _, ...others } = ALL_KEYS;
		const yakusu = service(runPipeline, { ...others, XAI_API_KEY: undefined });
		const { apiKey, accountId } = await yakusu.customer("professional", 100);
		const res = await translate(yakusu, apiKey, fileOf(page(), "png"));
		expect(res.status).toBe(500);
		expect((await res.json<{ detail: string }>()).detail).toContain("XAI_API_KEY");
		expect(await yakusu.balance(accountId)).toBe(100);
	});

	it("a vendor refusing our key: 500 translator authentication failed, the key never echoed", async () => {
		// The fake refuses any key that starts with "invalid", as a vendor refuses a revoked one.
		withVendor();
		const yakusu = service(runPipeline, { ...ALL_KEYS, XAI_API_KEY: "invalid-sk-wrong-vendor-key" });
		const { apiKey, accountId } = await yakusu.customer("professional", 100);
		const res = await translate(yakusu, apiKey, fileOf(page(), "png"));
		expect(res.status).toBe(500);
		const text = await res.text();
		expect(JSON.parse(text)).toEqual({ detail: "translator authentication failed" });
		expect(text).not.toContain("sk-wrong");
		expect(await yakusu.balance(accountId)).toBe(100);
	});

	it("a vendor failing twice: 500 after one retry", async () => {
		const fake = withVendor({ faults: [{ status: 503 }, { status: 503 }] });
		const yakusu = service(runPipeline, ALL_KEYS);
		const { apiKey, accountId } = await yakusu.customer("professional", 100);
		const res = await translate(yakusu, apiKey, fileOf(page(), "png"));
		expect(res.status).toBe(500);
		expect(fake.calls).toHaveLength(2);
		expect(await yakusu.balance(accountId)).toBe(100);
	});

	it("a file that is corrupt past its header: 422 on imageBase64", async () => {
		withVendor();
		const yakusu = service(runPipeline, ALL_KEYS);
		const { apiKey, accountId } = await yakusu.customer("professional", 100);
		const file = fileOf(page(), "png");
		const res = await translate(yakusu, apiKey, file.subarray(0, 60));
		expect(res.status).toBe(422);
		expect(await res.json()).toEqual({ detail: "Invalid field: imageBase64" });
		expect(await yakusu.balance(accountId)).toBe(100);
	});
});
