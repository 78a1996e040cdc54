import type { Env } from "../env";
import { PipelineError } from "./errors";
import { type ImageRows, imageRows } from "./image-rows";
import { bandsToPng, type PlannedOverlay } from "./pass-bands";
import { copyForReaders, type FirstPass } from "./pass-copies";
import { layOutInCrops } from "./pass-crops";
import { readAndTranslate } from "./read";
import { pixelWords } from "./rows";
import type { PipelineContext, StageTimings, TranslatedRegion, TranslateJob } from "./types";
import { type BlockPlan, drawBlockNow, loadRasterizer, planPage } from "./typeset";

export interface PipelineResult {
	/**
	 * The PNG file as consecutive byte pieces, produced when the response first pulls them (the
	 * last pass decodes, draws and encodes a band of rows at a time), so the call can be settled
	 * before the image streams; an error while iterating fails the call mid-stream. The response
	 * must iterate it or call its iterator's `return()`: that lets the page's fonts go.
	 */
	png: Iterable<Uint8Array> | AsyncIterable<Uint8Array>;
	/** Ids of regions that were not typeset in full: their text did not fit, or the call's limits left them out. */
	overflow: number[];
}

/** Turns a validated request into the translated PNG. The one seam between HTTP and pixels. */
export type Pipeline = (job: TranslateJob, ctx: PipelineContext) => Promise<PipelineResult>;

/**
 * Regions of one call at most (a dense page has a few dozen): the model's answer must not size
 * the work. Those beyond are left as they are and reported as overflow.
 */
export const MAX_REGIONS_PER_CALL = 256;

/**
 * The passes of docs/pipeline.md. The image is decoded for pass 1, and again after the model: once
 * per pass, or, when small, once for both (image-rows.ts). Across the model call only the file's
 * bytes and the reader copies are kept.
 */
export const runPipeline: Pipeline = async (job, ctx) => {
	const { timings } = ctx;
	const first = await timed(timings, "decode", () => copyForReaders(job));
	const read = await readAndTranslate(first.reader, job, ctx);
	stopIfAbandoned(ctx.signal);

	const regions = read.regions.slice(0, MAX_REGIONS_PER_CALL);
	const beyond = read.regions.slice(MAX_REGIONS_PER_CALL).map((r) => r.id);
	// Held from here when small enough (image-rows.ts), packed to the channels pass 1 found; pass 3
	// lets it go, or the failure below.
	const image = imageRows(job.image, first.colours.channels);
	try {
		return await afterModel(job, ctx, first, regions, image, beyond);
	} catch (error) {
		image.release();
		throw error;
	}
};

/** Passes 2 and 3 and the plan between them; the PNG's pieces are made as the response pulls them. */
async function afterModel(
	job: TranslateJob,
	ctx: PipelineContext,
	first: FirstPass,
	regions: TranslatedRegion[],
	image: ImageRows,
	beyond: number[],
): Promise<PipelineResult> {
	const { timings } = ctx;
	const second = await layOutInCrops(image, regions, job.mode);
	timings.layout = Math.round(second.ms.layout);
	timings.erase = Math.round(second.ms.erase);
	const options = {
		mode: job.mode,
		sourceLanguage: job.sourceLanguage,
		targetLanguage: job.targetLanguage,
		imageWidth: job.image.width,
		imageHeight: job.image.height,
		loadFont: fontsFrom(ctx.env),
	};
	const plan = await timed(timings, "typeset", () => planPage(second.blocks, options));
	try {
		stopIfAbandoned(ctx.signal);
	} catch (error) {
		plan.release();
		throw error;
	}

	// The colour type is fixed before the first row: the image's own pixels, then what goes over them.
	const { colours } = first;
	for (const erased of second.erased) colours.addPixels(maskedWords(erased.rgba, erased.mask));
	const overlays = plan.blocks.map(overlayOf);
	for (const overlay of overlays) for (const colour of overlay.colours) colours.addColour(colour);
	const png = bandsToPng({
		image,
		erased: second.erased,
		overlays,
		overlaysReady: loadRasterizer(),
		channels: colours.channels,
		finished: () => plan.release(),
	});
	return { png, overflow: [...plan.overflow, ...second.left, ...beyond].sort((a, b) => a - b) };
}

function overlayOf(block: BlockPlan): PlannedOverlay {
	const { style } = block;
	return {
		top: block.area.y0,
		colours: [style.fill, ...(style.outline ? [style.outline.color] : []), ...(style.panel ? [style.panel.color] : [])],
		draw: () => drawBlockNow(block),
	};
}

/** The masked pixels' words (the others are not written to the image). */
function maskedWords(rgba: Uint8Array, mask: Uint8Array): Int32Array {
	return pixelWords(rgba).filter((_, i) => mask[i] === 1);
}

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
