import { z } from "zod";
import { canonicalLanguage, LANGUAGES } from "./languages";
import { CUSTOM_PROMPT_MAX, DEFAULT_MODE, DEFAULT_TRANSLATOR, MODES, TRANSLATORS } from "./options";

const LANGUAGE_CODES = Object.keys(LANGUAGES) as [string, ...string[]];

/** Lower-cases and resolves aliases, so that `ZH-Hans` validates as `zh-cn`; anything else passes through to fail. */
function normalizeLanguage(value: unknown): unknown {
	if (typeof value !== "string") return value;
	if (value.trim().toLowerCase() === "auto") return "auto";
	return canonicalLanguage(value) ?? value;
}

function lowerCase(value: unknown): unknown {
	return typeof value === "string" ? value.trim().toLowerCase() : value;
}

/**
 * The translate request body, field by field in the spec's order: validation reports the
 * first failing field in this order. `imageBase64` is decoded while the body streams in
 * (see body.ts); this schema documents it and validates everything else.
 */
export const translateRequestSchema = z.object({
	imageBase64: z.string().min(1).meta({
		description:
			"The image (PNG, JPEG, WebP or GIF) as raw base64 or as a data URL `data:image/<type>;base64,<data>`. At most 20 MB decoded and 25 megapixels.",
		example: "data:image/png;base64,iVBORw0KGgo...",
	}),
	sourceLanguage: z.preprocess(normalizeLanguage, z.enum(["auto", ...LANGUAGE_CODES])).meta({
		description:
			"Language of the text in the image, or `auto` to detect it. Case-insensitive; common aliases accepted.",
		example: "ja",
	}),
	targetLanguage: z.preprocess(normalizeLanguage, z.enum(LANGUAGE_CODES)).meta({
		description: "Language to translate into. `auto` is not allowed.",
		example: "en",
	}),
	mode: z
		.preprocess(lowerCase, z.enum(MODES))
		.default(DEFAULT_MODE)
		.meta({ description: "Rendering style.", example: "manga" }),
	translator: z
		.preprocess(lowerCase, z.enum(TRANSLATORS))
		.default(DEFAULT_TRANSLATOR)
		.meta({ description: "The model that translates. Every translator costs 10 credits.", example: "gemini" }),
	customPrompt: z.string().max(CUSTOM_PROMPT_MAX).optional().meta({
		description: "Extra instructions for the translator, at most 1000 characters.",
		example: "Keep honorifics such as -san and -sama.",
	}),
});

/** Everything but the image, which arrives already decoded. */
export const translateOptionsSchema = translateRequestSchema.omit({ imageBase64: true });
export type TranslateOptions = z.output<typeof translateOptionsSchema>;

export const translateSuccessSchema = z.object({
	success: z.literal(true),
	recordId: z.string().meta({ example: "rec_01JDQ3Z6Y8N4V2K7T9R5M1HXWC" }),
	resultImage: z
		.string()
		.meta({ description: "The translated PNG as a data URL.", example: "data:image/png;base64,iVBORw0KGgo..." }),
	remainingCredit: z.number().int().meta({ description: "Credit balance after this call.", example: 990 }),
});

export const errorBodySchema = z.object({ detail: z.string() });

export const replayBodySchema = z.object({
	error: z.literal("idempotency_replay"),
	recordId: z.string(),
	message: z.string(),
});
