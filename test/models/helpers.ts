/** Builders shared by the model tests: a job, a raster, a pipeline context over the fake vendor. */
import { vi } from "vitest";
import type { Env } from "../../src/env";
import { probeImage } from "../../src/pipeline/probe";
import { type ReaderImage, readerImage } from "../../src/pipeline/read-copy";
import type { PipelineContext, Raster, TranslateJob } from "../../src/pipeline/types";
import { admitImage } from "../../src/request/validate";
import { createFakeVendor, type FakeOptions, type FakeVendor } from "../fakes/vendor.mjs";
import { storedPng } from "../support/png";

/** Every vendor keyed, as in a full deployment; tests delete what they need missing. */
export const ALL_KEYS = {
	XAI_API_KEY: "test-xai-key",
	GEMINI_API_KEY: "test-gemini-key",
	DEEPSEEK_API_KEY: "test-deepseek-key",
	MOONSHOT_API_KEY: "test-moonshot-key",
	OPENAI_API_KEY: "test-openai-key",
	ANTHROPIC_API_KEY: "test-anthropic-key",
} as const;

/** A light grey page with a dark band, so JPEG copies are not trivially empty. */
export function raster(width: number, height: number): Raster {
	const data = new Uint8Array(width * height * 4).fill(230);
	for (let y = Math.floor(height / 3); y < Math.floor(height / 2); y++) {
		data.fill(20, y * width * 4, (y + 1) * width * 4);
	}
	for (let i = 3; i < data.length; i += 4) data[i] = 255;
	return { width, height, data };
}

/** The reader's view of a raster, made from its rows as the pipeline's first pass makes it. */
export function readerImageOf(image: Raster): Promise<ReaderImage> {
	return readerImage(image.width, image.height, (sink) => sink.rows(0, image.height, image.data));
}

export function job(overrides: Partial<TranslateJob> = {}): TranslateJob {
	return {
		image: probeImage(storedPng(4, 3), admitImage),
		sourceLanguage: "ja",
		targetLanguage: "en",
		mode: "manga",
		translator: "grok",
		...overrides,
	};
}

/** A context whose fetch goes to a fresh fake vendor; returns both. */
export function withFake(
	envOverrides: Partial<Record<keyof Env, unknown>> = {},
	fakeOptions: FakeOptions = {},
): { ctx: PipelineContext; fake: FakeVendor; abort: AbortController } {
	const fake = createFakeVendor(fakeOptions);
	vi.spyOn(globalThis, "fetch").mockImplementation(fake.fetch);
	const abort = new AbortController();
	const env = { ...ALL_KEYS, AI: fake.ai, ...envOverrides } as unknown as Env;
	return { ctx: { env, signal: abort.signal, timings: {} }, fake, abort };
}
