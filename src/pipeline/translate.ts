/**
 * The translate stage: the blocks of an image in reading order, with ids; the image shown to
 * translators that can see it, for context. A page with many blocks is translated in chunks
 * sent in parallel, each small enough to be written in a few seconds, each carrying the
 * page's other texts as context so the chunks still read as one page.
 */
import { type AskContext, askModel } from "../models/ask-model";
import { parseTranslations, TRANSLATIONS_SCHEMA } from "../models/contract";
import { ModelError } from "../models/errors";
import type { SentImage } from "../models/model-ask";
import { type PromptOptions, translationSystemPrompt, translationUserText } from "../models/prompts";
import type { Endpoint } from "../models/vendors";
import { outputLimit, PART_OUTPUT_TOKENS } from "./read-plan";

/** Translations of `texts`, index for index; the first failed chunk cancels the others. */
export async function translateTexts(
	texts: readonly string[],
	options: PromptOptions,
	translator: Endpoint,
	context: SentImage | undefined,
	ctx: AskContext,
): Promise<string[]> {
	const siblings = new AbortController();
	const chunkCtx: AskContext = { ...ctx, signal: AbortSignal.any([ctx.signal, siblings.signal]) };
	const image = translator.spec.canSee ? context : undefined;
	const chunks = chunked(texts);
	try {
		const results = await Promise.all(
			chunks.map((ids) =>
				translateChunk(ids, texts, chunks.length > 1, { options, translator, image }, chunkCtx, true),
			),
		);
		const byId = new Map(results.flatMap((m) => [...m]));
		return texts.map((_, id) => byId.get(id) ?? "");
	} catch (error) {
		siblings.abort();
		throw error;
	}
}

interface Asking {
	options: PromptOptions;
	translator: Endpoint;
	image: SentImage | undefined;
}

/**
 * One chunk's translation. An answer cut off at the token limit is not sent again as it was:
 * the chunk is translated once more as two halves.
 */
async function translateChunk(
	ids: number[],
	texts: readonly string[],
	withContext: boolean,
	asking: Asking,
	ctx: AskContext,
	splittable: boolean,
): Promise<Map<number, string>> {
	const items = ids.map((id) => ({ id, text: texts[id] ?? "" }));
	const chosen = new Set(ids);
	const context = withContext ? texts.filter((_, id) => !chosen.has(id)) : undefined;
	const expected = items.reduce((sum, item) => sum + translationTokens(item.text), 0);
	try {
		return await askModel(
			asking.translator,
			{
				system: translationSystemPrompt(asking.options, asking.image !== undefined),
				text: translationUserText(asking.options, items, context),
				...(asking.image ? { image: asking.image } : {}),
				root: "translations",
				schema: TRANSLATIONS_SCHEMA,
				maxTokens: outputLimit(expected),
			},
			ctx,
			(document) => parseTranslations(document, ids),
		);
	} catch (error) {
		if (!(splittable && ids.length > 1 && error instanceof ModelError && error.kind === "truncated")) throw error;
		const middle = Math.ceil(ids.length / 2);
		const parts = await Promise.all(
			[ids.slice(0, middle), ids.slice(middle)].map((half) => translateChunk(half, texts, true, asking, ctx, false)),
		);
		return new Map(parts.flatMap((m) => [...m]));
	}
}

/** Consecutive ids in chunks whose expected answer stays within one part's output tokens. */
function chunked(texts: readonly string[]): number[][] {
	const chunks: number[][] = [];
	let current: number[] = [];
	let tokens = 0;
	texts.forEach((text, id) => {
		const cost = translationTokens(text);
		if (current.length > 0 && tokens + cost > PART_OUTPUT_TOKENS) {
			chunks.push(current);
			current = [];
			tokens = 0;
		}
		current.push(id);
		tokens += cost;
	});
	if (current.length > 0) chunks.push(current);
	return chunks;
}

/**
 * Output tokens a translation of `text` is expected to take, with its id and keys: a CJK
 * character says about as much as a short English word (a token); other scripts translate
 * to about their own length, four characters a token.
 */
function translationTokens(text: string): number {
	const cjk = text.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu)?.length ?? 0;
	return 8 + cjk + Math.ceil((text.length - cjk) / 4);
}
