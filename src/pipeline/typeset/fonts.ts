/**
 * Which font files set a target language, in fallback order. Every list ends with Noto Sans, which
 * covers Latin, Cyrillic and Greek: translations into any script carry names, digits and brands.
 * Files are under fonts/ (see fonts/README.md for sources and licences).
 */
import type { Mode } from "../../request/options";

export const LATIN = "NotoSans-Regular.ttf";
/** Comic lettering for manga in Latin and Cyrillic targets. */
export const COMIC = "Pangolin-Regular.ttf";
/** Every basic-block CJK ideograph: loaded only when a text uses one outside the language's core. */
export const CJK_IDEOGRAPHS = "NotoSansCJK-Ideographs-Regular.otf";

const SCRIPT_FONT: Record<string, string> = {
	arabic: "NotoNaskhArabic-Regular.ttf",
	hebrew: "NotoSansHebrew-Regular.ttf",
	devanagari: "NotoSansDevanagari-Regular.ttf",
	bengali: "NotoSansBengali-Regular.ttf",
	gurmukhi: "NotoSansGurmukhi-Regular.ttf",
	gujarati: "NotoSansGujarati-Regular.ttf",
	oriya: "NotoSansOriya-Regular.ttf",
	tamil: "NotoSansTamil-Regular.ttf",
	telugu: "NotoSansTelugu-Regular.ttf",
	kannada: "NotoSansKannada-Regular.ttf",
	malayalam: "NotoSansMalayalam-Regular.ttf",
	sinhala: "NotoSansSinhala-Regular.ttf",
	thai: "NotoSansThai-Regular.ttf",
	lao: "NotoSansLao-Regular.ttf",
	khmer: "NotoSansKhmer-Regular.ttf",
	myanmar: "NotoSansMyanmar-Regular.ttf",
	ethiopic: "NotoSansEthiopic-Regular.ttf",
	georgian: "NotoSansGeorgian-Regular.ttf",
	armenian: "NotoSansArmenian-Regular.ttf",
	thaana: "NotoSansThaana-Regular.ttf",
	japanese: "NotoSansCJKjp-Regular.otf",
	korean: "NotoSansCJKkr-Regular.otf",
	simplified: "NotoSansCJKsc-Regular.otf",
	traditional: "NotoSansCJKtc-Regular.otf",
};

/** Target languages not written in Latin, Cyrillic or Greek, by their script. */
const LANGUAGE_SCRIPT: Record<string, string> = {
	ar: "arabic",
	fa: "arabic",
	ur: "arabic",
	ps: "arabic",
	ckb: "arabic",
	sd: "arabic",
	ug: "arabic",
	he: "hebrew",
	yi: "hebrew",
	hi: "devanagari",
	mr: "devanagari",
	ne: "devanagari",
	sa: "devanagari",
	mai: "devanagari",
	bho: "devanagari",
	doi: "devanagari",
	gom: "devanagari",
	bn: "bengali",
	as: "bengali",
	pa: "gurmukhi",
	gu: "gujarati",
	or: "oriya",
	ta: "tamil",
	te: "telugu",
	kn: "kannada",
	ml: "malayalam",
	si: "sinhala",
	th: "thai",
	lo: "lao",
	km: "khmer",
	my: "myanmar",
	am: "ethiopic",
	ti: "ethiopic",
	ka: "georgian",
	hy: "armenian",
	dv: "thaana",
	ja: "japanese",
	ko: "korean",
	zh: "simplified",
	"zh-cn": "simplified",
	"zh-tw": "traditional",
};

/** Scripts whose glyphs stack above and below the line: they need more line spacing. */
const TALL_SCRIPTS = new Set([
	"arabic",
	"devanagari",
	"bengali",
	"gurmukhi",
	"gujarati",
	"oriya",
	"tamil",
	"telugu",
	"kannada",
	"malayalam",
	"sinhala",
	"thai",
	"lao",
	"khmer",
	"myanmar",
]);

export function scriptOf(language: string): string {
	return LANGUAGE_SCRIPT[language] ?? (language === "el" ? "greek" : "latin");
}

export function isCjk(language: string): boolean {
	return ["japanese", "korean", "simplified", "traditional"].includes(scriptOf(language));
}

/**
 * Japanese and Chinese are set in vertical columns when their source was (manga, novels, signs
 * alike: the container was shaped for columns). Korean is set horizontally, as Korean editions of
 * manga are lettered; every other script runs horizontally.
 */
export function setsVertically(language: string): boolean {
	return ["japanese", "simplified", "traditional"].includes(scriptOf(language));
}

export function isRightToLeft(language: string): boolean {
	const script = scriptOf(language);
	return script === "arabic" || script === "hebrew" || script === "thaana";
}

/** Line height as a multiple of the font size. */
export function lineSpacing(language: string): number {
	const script = scriptOf(language);
	if (script === "myanmar") return 1.75;
	return TALL_SCRIPTS.has(script) ? 1.5 : isCjk(language) ? 1.4 : 1.2;
}

/**
 * The font files for a target language and mode, first choice first, then the source language's:
 * a translation keeps names and sound effects in the source script often enough that they must
 * still be drawn. Faces further down the list load only when a character needs them.
 */
export function fontFilesFor(language: string, mode: Mode, sourceLanguage?: string): string[] {
	const own = targetFontFiles(language, mode);
	if (!sourceLanguage || sourceLanguage === "auto") return own;
	return [...new Set([...own, ...targetFontFiles(sourceLanguage, "general")])];
}

function targetFontFiles(language: string, mode: Mode): string[] {
	const script = scriptOf(language);
	if (script === "latin") return mode === "manga" ? [COMIC, LATIN] : [LATIN];
	if (script === "greek") return [LATIN];
	const primary = SCRIPT_FONT[script] ?? LATIN;
	if (isCjk(language)) return [primary, CJK_IDEOGRAPHS, LATIN];
	return [primary, LATIN];
}
