/**
 * The read and translate stages behind one seam. The reader finds every block of text in a
 * small copy of the image: in one request, or, when the page holds more lettering than one
 * answer can write in a few seconds, in parts read in parallel (read-plan.ts); very long
 * images are read in tiles. The translator then translates the blocks, in parallel chunks
 * when there are many. When the reader is the requested translator, one request does both.
 */
import { type AskContext, askModel } from "../models/ask-model";
import { parseRegions, regionsSchema } from "../models/contract";
import { ModelError } from "../models/errors";
import type { SentImage } from "../models/model-ask";
import { type PromptOptions, readingSystemPrompt, readingUserText } from "../models/prompts";
import { type Endpoint, endpointFor, readerFor } from "../models/vendors";
import { modelAskContext } from "./model-deadline";
import { pipelineFailure } from "./model-failure";
import { downscale, jpegCopy, READER_LONG_EDGE, readerCopy, readingWindows, type Window } from "./read-copy";
import { halves, outputLimit, PART_OUTPUT_TOKENS, planReading } from "./read-plan";
import { mergeRegions, type PlacedRegion, placeRegions } from "./read-regions";
import { estimateCharacters } from "./text-density";
import { translateTexts } from "./translate";
import type { PipelineContext, Raster, TranslatedRegion, TranslateJob } from "./types";

export interface ReadAndTranslateResult {
	/** Boxes in original pixels, clipped, deduplicated, in reading order, ids 0..n-1. */
	regions: TranslatedRegion[];
	/**
	 * Model round trips the client waited for, one after the other: 1 when the reader
	 * translates (or found no text), 2 otherwise. Parts, tiles and chunks go in parallel and
	 * count as one; a retry is not counted.
	 */
	roundTrips: number;
}

/** The job's options, and whether the reader translates too (one call). */
interface ReadTask {
	options: PromptOptions;
	translate: boolean;
}

/** What one page's reading sends: a copy per window, and how much each answer may hold. */
interface Reading {
	reads: { window: Window; copy: () => SentImage }[];
	withDetail: boolean;
	maxTokens: number;
}

export async function readAndTranslate(
	raster: Raster,
	job: TranslateJob,
	ctx: PipelineContext,
): Promise<ReadAndTranslateResult> {
	const { reader, translator } = endpoints(ctx, job);
	const oneCall = reader === translator;
	const options: PromptOptions = {
		mode: job.mode,
		source: job.sourceLanguage,
		target: job.targetLanguage,
		...(job.customPrompt ? { customPrompt: job.customPrompt } : {}),
	};
	const askCtx = modelAskContext(ctx.env, ctx.signal);

	const readStart = Date.now();
	const reading = planFor(raster, job, oneCall);
	const read = await readAll(raster, reading, reader, { options, translate: oneCall }, askCtx);
	ctx.timings.read = Date.now() - readStart;
	if (oneCall || read.regions.length === 0) {
		// Nothing left to translate: one call did both (its time is in `read`), or there was no text.
		ctx.timings.translate = 0;
		return { regions: numbered(read.regions, (r) => r.translation ?? ""), roundTrips: 1 };
	}

	const translateStart = Date.now();
	const texts = read.regions.map((r) => r.text);
	let translations: string[];
	try {
		translations = await translateTexts(texts, options, translator, read.context, askCtx);
	} catch (error) {
		throw pipelineFailure(error, translator);
	}
	ctx.timings.translate = Date.now() - translateStart;
	return { regions: numbered(read.regions, (_, i) => translations[i] ?? ""), roundTrips: 2 };
}

/** Both endpoints resolve before any request, so a missing key costs no model call. */
function endpoints(ctx: PipelineContext, job: TranslateJob): { reader: Endpoint; translator: Endpoint } {
	try {
		const readerName = readerFor(ctx.env, job.translator);
		const reader = endpointFor(ctx.env, readerName);
		return { reader, translator: readerName === job.translator ? reader : endpointFor(ctx.env, job.translator) };
	} catch (error) {
		throw pipelineFailure(error, undefined);
	}
}

/**
 * Tiles for a long strip; for a page, the whole copy or parts of it by how much lettering its
 * pixels show. Copies are made lazily, so each request leaves as soon as its copy is encoded.
 */
function planFor(raster: Raster, job: TranslateJob, translate: boolean): Reading {
	const tiles = readingWindows(raster.width, raster.height);
	if (tiles.length > 1) {
		const reads = tiles.map((window) => ({ window, copy: () => readerCopy(raster, window) }));
		return { reads, withDetail: false, maxTokens: outputLimit(PART_OUTPUT_TOKENS) };
	}
	const whole = tiles[0] as Window;
	const scaled = downscale(raster, whole, READER_LONG_EDGE);
	const plan = planReading(raster, estimateCharacters(scaled.pixels, scaled.width, scaled.height), {
		translate,
		// Japanese comics are read right to left: so are their parts, and the blocks in them.
		rightToLeft: job.sourceLanguage === "ja" && job.mode === "manga",
	});
	const reads =
		plan.parts.length === 1
			? [{ window: whole, copy: () => jpegCopy(scaled) }]
			: plan.parts.map((window) => ({ window, copy: () => readerCopy(raster, window) }));
	return { reads, withDetail: plan.withDetail, maxTokens: plan.maxTokens };
}

/** Reads every window in parallel; the first failure cancels the others. */
async function readAll(
	raster: Raster,
	reading: Reading,
	reader: Endpoint,
	task: ReadTask,
	ctx: AskContext,
): Promise<{ regions: PlacedRegion[]; context?: SentImage }> {
	const siblings = new AbortController();
	const askCtx: AskContext = { ...ctx, signal: AbortSignal.any([ctx.signal, siblings.signal]) };
	const copies: SentImage[] = [];
	try {
		const perWindow = await Promise.all(
			reading.reads.map(({ window, copy }) => {
				const sent = copy();
				copies.push(sent);
				return readWindow(raster, window, sent, reader, task, reading, askCtx, true);
			}),
		);
		// A whole-image copy is context worth showing the translator; parts and tiles of it are not.
		return { regions: mergeRegions(perWindow), ...(copies.length === 1 ? { context: copies[0] } : {}) };
	} catch (error) {
		siblings.abort();
		throw pipelineFailure(error, reader);
	}
}

/**
 * One window's read. An answer cut off at the token limit is not sent again as it was: the
 * window is read once more as two halves, without lines and colours.
 */
async function readWindow(
	raster: Raster,
	window: Window,
	copy: SentImage,
	reader: Endpoint,
	task: ReadTask,
	shape: { withDetail: boolean; maxTokens: number },
	ctx: AskContext,
	splittable: boolean,
): Promise<PlacedRegion[]> {
	const boxField = reader.spec.boxField;
	const withTranslation = task.translate;
	const translate = withTranslation ? task.options : undefined;
	try {
		const read = await askModel(
			reader,
			{
				system: readingSystemPrompt(boxField, task.options.source, {
					withDetail: shape.withDetail,
					...(translate ? { translate } : {}),
				}),
				text: readingUserText(translate),
				image: copy,
				root: "regions",
				schema: regionsSchema({ boxField, withTranslation, withDetail: shape.withDetail }),
				maxTokens: shape.maxTokens,
			},
			ctx,
			(document) => parseRegions(document, { withTranslation, sentWidth: copy.width, sentHeight: copy.height }),
		);
		return placeRegions(read, window, raster);
	} catch (error) {
		if (!(splittable && error instanceof ModelError && error.kind === "truncated")) throw error;
		const smaller = { withDetail: false, maxTokens: shape.maxTokens };
		const halvesRead = await Promise.all(
			halves(window).map((half) =>
				readWindow(raster, half, readerCopy(raster, half), reader, task, smaller, ctx, false),
			),
		);
		return mergeRegions(halvesRead);
	}
}

function numbered(regions: PlacedRegion[], translation: (r: PlacedRegion, i: number) => string): TranslatedRegion[] {
	return regions.map((region, id) => ({ ...region, id, translation: translation(region, id) }));
}
