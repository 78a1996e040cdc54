/**
 * The translate stage: every block of an image in one call, in reading order, with ids;
 * the image shown to translators that can see it, for context.
 */
import { type AskContext, askModel, type SentImage } from "../models/ask";
import { parseTranslations, TRANSLATIONS_SCHEMA } from "../models/contract";
import { type PromptOptions, translationInput, translationSystemPrompt } from "../models/prompts";
import type { Endpoint } from "../models/vendors";

const TRANSLATE_MAX_TOKENS = 8192;

/** Translations of `texts`, index for index. */
export async function translateTexts(
	texts: readonly string[],
	options: PromptOptions,
	translator: Endpoint,
	context: SentImage | undefined,
	ctx: AskContext,
): Promise<string[]> {
	const items = texts.map((text, id) => ({ id, text }));
	const image = translator.spec.canSee ? context : undefined;
	const byId = await askModel(
		translator,
		{
			system: translationSystemPrompt(options, image !== undefined),
			text: translationInput(options, items),
			...(image ? { image } : {}),
			root: "translations",
			schema: TRANSLATIONS_SCHEMA,
			maxTokens: TRANSLATE_MAX_TOKENS,
		},
		ctx,
		(document) =>
			parseTranslations(
				document,
				items.map((item) => item.id),
			),
	);
	return items.map((item) => byId.get(item.id) ?? "");
}
