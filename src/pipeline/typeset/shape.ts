/**
 * Turns a paragraph into measured pieces: each piece split into runs of one font, one bidi level
 * and one orientation, shaped by HarfBuzz. Advances are in em, so fitting a font size is arithmetic
 * on these numbers and shaping happens once per region, not once per size tried.
 */
import bidiFactory from "bidi-js";
import type { FontSession } from "./font-cache";
import type { HbFont, ShapedGlyph } from "./harfbuzz";
import { cutWord, type Piece, segmentParagraph } from "./segment";

/**
 * horizontal: a line of text. In a vertical column: upright (CJK, shaped top to bottom with
 * vertical forms), tcy (two Latin letters or digits set across the column, tate-chu-yoko),
 * sideways (a longer Latin run, turned 90 degrees clockwise).
 */
export type Orientation = "horizontal" | "upright" | "tcy" | "sideways";

export interface Run {
	font: HbFont;
	glyphs: ShapedGlyph[];
	/** Bidi embedding level: odd is right to left. */
	level: number;
	orientation: Orientation;
	/** Length along the line (or column), in em. */
	advance: number;
}

export interface MeasuredPiece extends Piece {
	runs: Run[];
	advance: number;
	/** Bidi level of the space after the piece, if any. */
	spaceLevel: number;
	/** The word cut where it may be (segment.ts, cutWord), for when it is longer than a line (last resort only). */
	parts?: MeasuredPiece[];
}

export interface MeasuredParagraph {
	text: string;
	pieces: MeasuredPiece[];
	/** Width of the space drawn between pieces, in em. */
	space: number;
	/** 1 for a right-to-left paragraph, else 0. */
	baseLevel: number;
	/** The hyphen drawn where a word is broken (horizontal text only). */
	hyphen?: Run;
}

export interface ShapeOptions {
	language: string;
	fontFiles: string[];
	session: FontSession;
	rightToLeft: boolean;
	vertical: boolean;
}

const bidi = bidiFactory();
const INHERITS_FONT = /\p{M}|\u200c|\u200d|[\ufe00-\ufe0f]/u;
/** Characters set upright in a vertical column: CJK, kana, hangul, full-width and CJK punctuation. */
const UPRIGHT =
	/[\u1100-\u11ff\u2e80-\u2fff\u3000-\u30ff\u3130-\u318f\u3190-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\ufe10-\ufe4f\uff00-\uffef\u2026\u2025\u2014]/u;

/** Fonts from the chain, loaded as the text needs them, and the font index of each UTF-16 unit (-1: none has it). */
async function assignFonts(text: string, options: ShapeOptions): Promise<{ fonts: HbFont[]; index: Int16Array }> {
	const fonts: HbFont[] = [await options.session.get(options.fontFiles[0] ?? "")];
	const index = new Int16Array(text.length).fill(-1);
	let previous = -1;
	for (let i = 0; i < text.length; ) {
		const cp = text.codePointAt(i) ?? 0;
		const units = cp > 0xffff ? 2 : 1;
		let chosen = -1;
		if (previous >= 0 && INHERITS_FONT.test(String.fromCodePoint(cp))) chosen = previous;
		while (chosen < 0) {
			chosen = fonts.findIndex((font) => font.has(cp));
			if (chosen >= 0 || fonts.length >= options.fontFiles.length) break;
			fonts.push(await options.session.get(options.fontFiles[fonts.length] ?? ""));
		}
		index.fill(chosen, i, i + units);
		previous = chosen;
		i += units;
	}
	return { fonts, index };
}

function orientationAt(text: string, i: number, vertical: boolean): "horizontal" | "upright" | "latin" {
	if (!vertical) return "horizontal";
	return UPRIGHT.test(String.fromCodePoint(text.codePointAt(i) ?? 0)) ? "upright" : "latin";
}

function shapeRun(font: HbFont, text: string, level: number, orientation: Orientation, language: string): Run {
	const direction = orientation === "upright" ? "ttb" : level % 2 === 1 ? "rtl" : "ltr";
	const glyphs = font.shape(text, direction, language);
	let units = 0;
	for (const g of glyphs) units += orientation === "upright" ? -g.yAdvance : g.xAdvance;
	const advance = orientation === "tcy" ? 1 : units / font.upem;
	return { font, glyphs, level, orientation, advance };
}

/** Splits [start, end) into maximal runs sharing font, level and orientation, and shapes each. */
function shapePiece(
	text: string,
	piece: Piece,
	fonts: { fonts: HbFont[]; index: Int16Array },
	levels: Uint8Array,
	options: ShapeOptions,
): MeasuredPiece {
	const runs: Run[] = [];
	let runStart = -1;
	let key = "";
	let runText = "";
	const flush = () => {
		if (runStart < 0 || runText === "") return;
		const fontIndex = fonts.index[runStart] ?? -1;
		const font = fonts.fonts[fontIndex];
		if (!font) return;
		const kind = orientationAt(text, runStart, options.vertical);
		const graphemes = [...new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(runText)].length;
		const orientation: Orientation = kind === "latin" ? (graphemes <= 2 ? "tcy" : "sideways") : kind;
		runs.push(shapeRun(font, runText, levels[runStart] ?? 0, orientation, options.language));
	};
	for (let i = piece.start; i < piece.end; i++) {
		const fontIndex = fonts.index[i] ?? -1;
		if (fontIndex < 0) continue; // no face has it: leave it out rather than draw a box
		const lowSurrogate = (text.charCodeAt(i) & 0xfc00) === 0xdc00;
		const k = lowSurrogate ? key : `${fontIndex}/${levels[i]}/${orientationAt(text, i, options.vertical)}`;
		if (k !== key || runStart < 0) {
			flush();
			runStart = i;
			key = k;
			runText = "";
		}
		runText += text[i];
	}
	flush();
	let advance = 0;
	for (const run of runs) advance += run.advance;
	return { ...piece, runs, advance, spaceLevel: levels[piece.end] ?? 0 };
}

export interface ShapedText {
	paragraphs: MeasuredParagraph[];
	/** The same text, long words allowed to be cut (cutWord): used only when nothing else fits. */
	broken(): MeasuredParagraph[];
}

export async function shapeParagraphs(texts: string[], options: ShapeOptions): Promise<ShapedText> {
	const prepared = await Promise.all(
		texts.map(async (text) => {
			const fonts = await assignFonts(text, options);
			const { levels } = bidi.getEmbeddingLevels(text, options.rightToLeft ? "rtl" : "ltr");
			return { text, fonts, levels };
		}),
	);
	const measure = (split: boolean) =>
		prepared.map(({ text, fonts, levels }) => {
			const shape = (p: Piece) => shapePiece(text, p, fonts, levels, options);
			const drawable = (p: MeasuredPiece) => p.runs.length > 0;
			const measured = segmentParagraph(text, options.language)
				.map((piece) => {
					const whole = shape(piece);
					const parts = split ? cutWord(text, piece) : null;
					if (parts) whole.parts = parts.map(shape).filter(drawable);
					return whole;
				})
				.filter(drawable);
			const baseLevel = options.rightToLeft ? 1 : 0;
			const spaceFont = fonts.fonts[0];
			const space = spaceFont
				? shapeRun(spaceFont, " ", baseLevel, options.vertical ? "upright" : "horizontal", options.language).advance
				: 0.25;
			const hyphenFont = fonts.fonts.find((f) => f.has(0x2d));
			const hyphen =
				split && !options.vertical && hyphenFont
					? shapeRun(hyphenFont, "-", 0, "horizontal", options.language)
					: undefined;
			return { text, pieces: measured, space, baseLevel, hyphen };
		});
	return { paragraphs: measure(false), broken: () => measure(true) };
}
