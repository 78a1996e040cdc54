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
import type { ReaderImage, Window } from "./read-copy";
import { halves, outputLimit, PART_OUTPUT_TOKENS, planReading } from "./read-plan";
import { mergeRegions, type PlacedRegion, placeRegions } from "./read-regions";
import { translateTexts } from "./translate";
import type { PipelineContext, TranslatedRegion, TranslateJob } from "./types";

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
	reads: { window: Window; copy: SentImage }[];
	withDetail: boolean;
	maxTokens: number;
}

export async function readAndTranslate(
	image: ReaderImage,
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
	const reading = await planFor(image, job, oneCall);
	const read = await readAll(image, reading, reader, { options, translate: oneCall }, askCtx);
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
 * pixels show (the parts' copies are made in one more pass over the image's rows).
 */
async function planFor(image: ReaderImage, job: TranslateJob, translate: boolean): Promise<Reading> {
	const { view } = image;
	if ("tiles" in view) return { reads: view.tiles, withDetail: false, maxTokens: outputLimit(PART_OUTPUT_TOKENS) };
	const plan = planReading(image, view.characters, {
		translate,
		// Japanese comics are read right to left: so are their parts, and the blocks in them.
		rightToLeft: job.sourceLanguage === "ja" && job.mode === "manga",
	});
	const whole = { x: 0, y: 0, width: image.width, height: image.height };
	const copies = plan.parts.length === 1 ? [view.page] : await image.copies(plan.parts);
	const windows = plan.parts.length === 1 ? [whole] : plan.parts;
	const reads = windows.map((window, i) => ({ window, copy: copies[i]! }));
	return { reads, withDetail: plan.withDetail, maxTokens: plan.maxTokens };
}

/** Reads every window in parallel; the first failure cancels the others. */
async function readAll(
	image: ReaderImage,
	reading: Reading,
	reader: Endpoint,
	task: ReadTask,
	ctx: AskContext,
): Promise<{ regions: PlacedRegion[]; context?: SentImage }> {
	const siblings = new AbortController();
	const askCtx: AskContext = { ...ctx, signal: AbortSignal.any([ctx.signal, siblings.signal]) };
	const { reads } = reading;
	try {
		const perWindow = await Promise.all(
			reads.map(({ window, copy }) => readWindow(image, window, copy, reader, task, reading, askCtx, true)),
		);
		// A whole-image copy is context worth showing the translator; parts and tiles of it are not.
		return { regions: mergeRegions(perWindow), ...(reads.length === 1 ? { context: reads[0]!.copy } : {}) };
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
	image: ReaderImage,
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
		return placeRegions(read, window, image);
	} catch (error) {
		if (!(splittable && error instanceof ModelError && error.kind === "truncated")) throw error;
		const smaller = { withDetail: false, maxTokens: shape.maxTokens };
		const parts = halves(window);
		const copies = await image.copies(parts);
		const halvesRead = await Promise.all(
			parts.map((half, i) => readWindow(image, half, copies[i]!, reader, task, smaller, ctx, false)),
		);
		return mergeRegions(halvesRead);
	}
}

function numbered(regions: PlacedRegion[], translation: (r: PlacedRegion, i: number) => string): TranslatedRegion[] {
	return regions.map((region, id) => ({ ...region, id, translation: translation(region, id) }));
}
