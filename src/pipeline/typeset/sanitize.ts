/**
 * What a model returned, made safe to lay out: it is only ever drawn as glyph outlines, never
 * written into markup, but it still must not carry invisible controls that reorder or hide text,
 * and it must not be long enough to stall the layout.
 */

/** Longer translations are cut (with an ellipsis): no balloon holds more, and layout stays bounded. */
export const MAX_TEXT_LENGTH = 1000;
export const MAX_PARAGRAPHS = 30;

// C0 and C1 controls except tab and line breaks; bidi embeddings, overrides and isolates (our own
// bidi pass decides the order); byte-order marks, interlinear annotation and object replacement marks.
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is this pattern's purpose
const INVISIBLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ufeff\ufff9-\ufffc]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Paragraphs of clean text; empty when nothing drawable is left. */
export function cleanTranslation(text: string): string[] {
	let clean = text
		.normalize("NFC")
		.replace(LONE_SURROGATE, "")
		.replace(/\r\n?|[\u2028\u2029\u0085]/g, "\n")
		.replace(INVISIBLE, "")
		.replace(/[\t\u00a0\u2000-\u200a\u3000\u205f]+/g, " ");
	if (clean.length > MAX_TEXT_LENGTH) {
		const cut = /[\ud800-\udbff]/.test(clean.charAt(MAX_TEXT_LENGTH - 2)) ? MAX_TEXT_LENGTH - 2 : MAX_TEXT_LENGTH - 1;
		clean = `${clean.slice(0, cut)}…`;
	}
	const paragraphs = clean
		.split("\n")
		.map((p) => p.replace(/ {2,}/g, " ").trim())
		.filter((p) => p.length > 0);
	if (paragraphs.length <= MAX_PARAGRAPHS) return paragraphs;
	return [...paragraphs.slice(0, MAX_PARAGRAPHS - 1), paragraphs.slice(MAX_PARAGRAPHS - 1).join(" ")];
}
