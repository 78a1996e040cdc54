/**
 * A region the model merged from two containers, its box then cut short to one of them (a caption
 * and the balloon beside it, boxed over the caption alone): its text holds clearly more characters
 * than the container its box meets has glyphs, and the rest of its lettering lies in a container
 * beside the box that no other region's box is in. A user would rather see both translated than
 * one container holding both texts and the other left in the source language.
 */
import { area, clipBox, cutPatch, distance, grow, overlap, toPatchBox } from "../patch";
import type { Box, Patch } from "../types";
import { type Background, boxColours, colourOf } from "./background";
import { closedShapes, type Shape } from "./container";

/** Characters per glyph found beyond which a text holds more than the lettering it was found for. */
const EXCESS = 1.4;
/**
 * Characters drawn as one glyph or more each, counted against the glyphs found: letters of the
 * alphabets, CJK, digits, punctuation. Scripts whose letters join (Arabic, Devanagari) are not
 * counted: a word there is one glyph, and their texts never look like more than their lettering.
 */
const APART =
	/[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Nd}\p{P}]/gu;

/** Whether `text` holds clearly more characters than `glyphs`, the glyph components found for it. */
export function holdsMoreText(text: string, glyphs: number): boolean {
	return (text.match(APART)?.length ?? 0) > EXCESS * glyphs;
}

/**
 * Whether `glyphs` glyph components found could be the lettering of `text`: not clearly fewer than
 * its characters (holdsMoreText), nor more than GLYPHS_PER_CHARACTER times as many (a kanji's
 * radicals, an accent are glyphs of their own; a balloon of thirty letters is not two characters').
 * A text of joining scripts says nothing.
 */
export function readsAs(text: string, glyphs: number): boolean {
	const characters = text.match(APART)?.length ?? 0;
	return characters === 0 || (!holdsMoreText(text, glyphs) && glyphs <= GLYPHS_PER_CHARACTER * characters);
}

/** Glyph components a character is drawn as, at most, for readsAs. */
const GLYPHS_PER_CHARACTER = 4;

/** The text past its first `glyphs` characters that stand apart: roughly, what those glyphs do not hold. */
export function textBeyond(text: string, glyphs: number): string {
	let seen = 0;
	for (const m of text.matchAll(APART)) if (++seen > glyphs) return text.slice(m.index);
	return "";
}

/**
 * Closed shapes holding ink beside the reader's box (within the box's longer side of it), of the
 * colours found there, nearest lettering first; never the container `own` the box met, a shape
 * around it, or a shape another region's box is in (`claimed`).
 */
export function shapesBeside(
	crop: Patch,
	search: Box,
	readerBox: Box,
	own: Box,
	claimed: (shape: Shape) => boolean,
	tolerance: number,
): { shape: Shape; bg: Background }[] {
	const reach = Math.max(readerBox.x1 - readerBox.x0, readerBox.y1 - readerBox.y0);
	const beside = clipBox(grow(readerBox, reach), search);
	const patch = cutPatch(crop, beside);
	const out: { shape: Shape; bg: Background; gap: number }[] = [];
	for (const bg of boxColours(patch, toPatchBox(patch, beside))) {
		for (const shape of closedShapes(crop, search, beside, colourOf(bg), tolerance)) {
			if (overlap(shape.box, own) >= 0.5 * Math.min(area(shape.box), area(own)) || claimed(shape)) continue;
			out.push({ shape, bg, gap: distance(shape.enclosed, readerBox) });
		}
	}
	return out.sort((a, b) => a.gap - b.gap);
}
