import type { Env } from "../env";
import { composeOverlays } from "./compose";
import { decodeImage } from "./decode";
import { encodePng } from "./encode";
import { eraseRegions } from "./erase";
import { PipelineError } from "./errors";
import { readAndTranslate } from "./read";
import type { PipelineContext, StageTimings, TranslateJob } from "./types";
import { typesetRegions } from "./typeset";

export interface PipelineResult {
	/**
	 * The PNG file as consecutive byte pieces. It may be produced lazily, as the response pulls it
	 * (the last pass decodes, draws and encodes a band of rows at a time), so the call can be
	 * settled before the image streams; an error while iterating fails the call mid-stream.
	 */
	png: Iterable<Uint8Array> | AsyncIterable<Uint8Array>;
	/** Ids of regions whose text did not fit its box at the minimum size. */
	overflow: number[];
}

/** Turns a validated request into the translated PNG. The one seam between HTTP and pixels. */
export type Pipeline = (job: TranslateJob, ctx: PipelineContext) => Promise<PipelineResult>;

export const runPipeline: Pipeline = async (job, ctx) => {
	const { timings } = ctx;
	const raster = await timed(timings, "decode", () => decodeImage(job.image));

	const { regions } = await readAndTranslate(raster, job, ctx);
	stopIfAbandoned(ctx.signal);

	const erased = await timed(timings, "erase", () => eraseRegions(raster, regions, job.mode));
	const { overlays, overflow } = await timed(timings, "typeset", () =>
		typesetRegions(erased, {
			mode: job.mode,
			sourceLanguage: job.sourceLanguage,
			targetLanguage: job.targetLanguage,
			imageWidth: raster.width,
			imageHeight: raster.height,
			loadFont: fontsFrom(ctx.env),
		}),
	);
	await timed(timings, "compose", () => composeOverlays(raster, overlays));
	stopIfAbandoned(ctx.signal);
	const png = await timed(timings, "encode", () => encodePng(raster));
	return { png, overflow };
};

async function timed<T>(timings: StageTimings, stage: keyof StageTimings, run: () => T | Promise<T>): Promise<T> {
	const start = Date.now();
	try {
		return await run();
	} finally {
		timings[stage] = Date.now() - start;
	}
}

function stopIfAbandoned(signal: AbortSignal): void {
	if (signal.aborted) throw new PipelineError("The client disconnected before the translation finished");
}

/** Fonts are static assets under fonts/ (served through the ASSETS binding). */
function fontsFrom(env: Env) {
	return async (file: string): Promise<Uint8Array> => {
		const res = await env.ASSETS.fetch(`https://assets.local/fonts/${file}`);
		if (!res.ok) throw new PipelineError(`Font ${file} is missing from the deployment`);
		return new Uint8Array(await res.arrayBuffer());
	};
}
