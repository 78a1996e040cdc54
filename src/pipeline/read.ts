/**
 * The read and translate stages behind one seam. The reader finds every block of text
 * in a small copy of the image (or in tiles of a very long one); the translator then
 * translates all blocks in one call. When the reader is the requested translator, one
 * request does both.
 */
import { type AskContext, askModel, type SentImage } from "../models/ask";
import { parseRegions, regionsSchema } from "../models/contract";
import { type PromptOptions, readingSystemPrompt, translationInput } from "../models/prompts";
import { type Endpoint, endpointFor, readerFor } from "../models/vendors";
import type { ReaderCopies, Window } from "./read-copy";
import { mergeRegions, type PlacedRegion, placeRegions } from "./read-regions";
import type { PipelineContext } from "./run";
import { translateTexts } from "./translate";
import type { TranslatedRegion, TranslateJob } from "./types";

const READ_MAX_TOKENS = 16384;

export interface ReadAndTranslateResult {
	/** Boxes in original pixels, clipped, deduplicated, in reading order, ids 0..n-1. */
	regions: TranslatedRegion[];
	/**
	 * Model round trips the client waited for, one after the other: 1 when the reader
	 * translates (or found no text), 2 otherwise. Tiles are read in parallel and count as
	 * one; a retry is not counted.
	 */
	roundTrips: number;
}

export async function readAndTranslate(
	image: ReaderCopies,
	job: TranslateJob,
	ctx: PipelineContext,
): Promise<ReadAndTranslateResult> {
	const readerName = readerFor(ctx.env, job.translator);
	const oneCall = readerName === job.translator;
	// Both endpoints resolve before any request, so a missing key costs no model call.
	const reader = endpointFor(ctx.env, readerName);
	const translator = oneCall ? reader : endpointFor(ctx.env, job.translator);
	const options: PromptOptions = {
		mode: job.mode,
		source: job.sourceLanguage,
		target: job.targetLanguage,
		...(job.customPrompt ? { customPrompt: job.customPrompt } : {}),
	};

	const readStart = Date.now();
	const read = await readAll(image, reader, options, oneCall, ctx);
	ctx.timings.read = Date.now() - readStart;
	if (oneCall || read.regions.length === 0) {
		// Nothing left to translate: one call did both (its time is in `read`), or there was no text.
		ctx.timings.translate = 0;
		return { regions: numbered(read.regions, (r) => r.translation ?? ""), roundTrips: 1 };
	}

	const translateStart = Date.now();
	// A whole-image copy is context worth showing; tiles of a strip are not.
	const context = image.copies.length === 1 ? image.copies[0] : undefined;
	const texts = read.regions.map((r) => r.text);
	const translations = await translateTexts(texts, options, translator, context, ctx);
	ctx.timings.translate = Date.now() - translateStart;
	return { regions: numbered(read.regions, (_, i) => translations[i] ?? ""), roundTrips: 2 };
}

/** Reads every window in parallel; the first failure cancels the others. */
async function readAll(
	image: ReaderCopies,
	reader: Endpoint,
	options: PromptOptions,
	translate: boolean,
	ctx: PipelineContext,
): Promise<{ regions: PlacedRegion[] }> {
	const siblings = new AbortController();
	const askCtx: AskContext = { env: ctx.env, signal: AbortSignal.any([ctx.signal, siblings.signal]) };
	try {
		const perWindow = await Promise.all(
			image.copies.map((copy, i) => readWindow(copy, image.windows[i]!, image, reader, options, translate, askCtx)),
		);
		return { regions: mergeRegions(perWindow) };
	} catch (error) {
		siblings.abort();
		throw error;
	}
}

async function readWindow(
	copy: SentImage,
	window: Window,
	image: { width: number; height: number },
	reader: Endpoint,
	options: PromptOptions,
	withTranslation: boolean,
	ctx: AskContext,
): Promise<PlacedRegion[]> {
	const boxField = reader.spec.boxField;
	const read = await askModel(
		reader,
		{
			system: readingSystemPrompt(boxField, options.source, withTranslation ? options : undefined),
			text: withTranslation
				? `Read and translate this image. ${translationInput(options)}`
				: "Read every block of text in this image.",
			image: copy,
			root: "regions",
			schema: regionsSchema({ boxField, withTranslation }),
			maxTokens: READ_MAX_TOKENS,
		},
		ctx,
		(document) => parseRegions(document, { withTranslation, sentWidth: copy.width, sentHeight: copy.height }),
	);
	return placeRegions(read, window, image);
}

function numbered(regions: PlacedRegion[], translation: (r: PlacedRegion, i: number) => string): TranslatedRegion[] {
	return regions.map((region, id) => ({ ...region, id, translation: translation(region, id) }));
}
