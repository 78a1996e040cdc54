/**
 * A region on open background or art that the reader merged from captions lying apart (two signs, a
 * caption and the line below it on a poster, read as one region): one box around both, a line of
 * text each. Found as one, the captions would become one block, its translation set in one place (or
 * in a panel over both and the art between, where one caption's colour hid the other's), and the
 * other caption left erased and empty, or as drawn. So each caption becomes a finding of its own,
 * found as if the reader had boxed it alone, with its share of the text:
 * - when the reader gave per-line boxes, lines lying apart by more than a line and a half are
 *   different captions;
 * - otherwise the pixels say: lettering found in the box with a gap of a line and a half or more
 *   across its lines is two captions; and where the lettering found leaves a line's thickness or
 *   more of the box empty across its lines, what lies there (and a little past the box, which a
 *   rough reader may have drawn short) is looked for on its own: on art, lettering is found by
 *   one colour, and captions of two colours are found one at a time.
 * Texts follow the captions one line each when the text has as many lines as there are captions
 * (a translation too, when it has as many); otherwise they are cut in proportion to the characters
 * each caption's lettering holds, at sentence ends where possible (split-text.ts). When the pixels
 * show only one caption, or a caption found there is not lettering when looked at alone, the region
 * stays whole.
 */
import { area, clipBox, distance, grow, intersects, union } from "../patch";
import type { Box, TranslatedRegion } from "../types";
import type { Finding, Lettering } from "./finding";
import { readingOrder } from "./in-container";
import { letteringLength } from "./measure";
import { splitByShares, textLines } from "./split-text";

/** Captions lie further apart across their lines than this many lines' thickness; a caption's lines, closer. */
const CAPTION_GAP = 1.5;
/**
 * How far past the reader's box a caption it was drawn short of may lie, as a share of the box's
 * thickness across its lines (a merged box is as rough as any: a side off by a quarter of its size).
 */
const PAST_BOX = 0.3;
/**
 * Characters of text per em of lettering (letteringLength) a caption found apart may hold: about one
 * in CJK, two in alphabets, three in Arabic's narrow joined letters; a stray mark holds far more.
 */
const CHARACTERS_PER_LENGTH = [0.5, 3.5] as const;
/** Margin (share of the lettering's size) of the box a caption is looked for in alone. */
const CAPTION_MARGIN = 0.15;

/** A caption found in the pixels; `probed`, found by a probe (findAround asking nothing of its text or the box's extent). */
interface Caption {
	box: Box;
	/** About how many characters its lettering holds (letteringLength). */
	characters: number;
	probed: boolean;
}

/**
 * Looks for a region's lettering in `box` (free lettering: findAround). `probe`: any lettering in
 * the box, however little of it the box spans; `apart`, boxes of other captions, whose glyphs are not taken.
 */
export type LookFree = (region: TranslatedRegion, box: Box, probe: boolean, apart: Box[]) => Finding;

/**
 * The findings of a free region read over several captions, one per caption, or undefined when
 * it holds one (`whole`: its lettering found in the reader's box as one).
 */
export function captionsOf(
	region: TranslatedRegion,
	readerBox: Box,
	whole: Finding,
	look: LookFree,
	search: Box,
): Finding[] | undefined {
	const groups = lineGroups(region);
	const lines = textLines(region.text);
	if (groups ? groups.length < 2 : lines.length < 2) return undefined;
	const probed = !whole.lettering;
	const found = probed ? look(region, readerBox, true, []) : whole;
	const size = Math.max(1, found.measures.sourceSize);
	const captions = found.lettering ? captionsIn(found, probed, readerBox, region, look, search) : [];
	const margin = Math.max(2, Math.round(CAPTION_MARGIN * size));
	if (groups) {
		// The reader's lines say what each caption reads; the pixels, where it is: the caption found
		// near a group's lines, or else lettering looked for alone around them (their boxes are rough).
		const boxes = groups.map((g) => {
			const near = captions.filter((c) => intersects(grow(g.box, size), c.box));
			if (near.length === 1 && holds(near[0]!, g.text)) return grow(near[0]!.box, margin);
			const around = grow(g.box, Math.round(PAST_BOX * Math.min(g.box.x1 - g.box.x0, g.box.y1 - g.box.y0)));
			const lone = look({ ...region, text: g.text, lines: undefined }, clipBox(around, search), true, []);
			const caption = lone.lettering && probedCaption(lone, region.vertical);
			return caption && holds(caption, g.text) ? grow(caption.box, margin) : g.box;
		});
		return apart(
			alone(
				region,
				boxes,
				groups.map((g) => g.text),
				look,
			),
		);
	}
	if (captions.length < 2) return undefined;
	const texts: string[] =
		lines.length === captions.length
			? lines
			: splitByShares(
					region.text,
					captions.map((c) => c.characters),
				);
	if (!captions.every((c, k) => holds(c, texts[k] ?? ""))) return undefined;
	const findings = alone(
		region,
		captions.map((c) => grow(c.box, margin)),
		texts,
		look,
	);
	return findings.every((f) => f.lettering) ? apart(findings) : undefined;
}

/**
 * The captions of lettering found in a reader's box, in reading order: the lettering's bands apart
 * across its lines, and lettering the box's empty rest holds (of another colour, on art).
 */
function captionsIn(
	found: Finding,
	probed: boolean,
	readerBox: Box,
	region: TranslatedRegion,
	look: LookFree,
	search: Box,
): Caption[] {
	const lettering = found.lettering!;
	const size = Math.max(1, found.measures.sourceSize);
	const captions = bandsOf(lettering, region.vertical, size).map((c) => ({ ...c, probed }));
	for (const beyond of restOf(found.textBox, readerBox, region.vertical, size, search)) {
		const rest = look(region, beyond, true, [found.textBox]);
		if (rest.lettering && !intersects(rest.textBox, found.textBox)) captions.push(probedCaption(rest, region.vertical));
	}
	return captions.sort((a, b) => readingOrder(a.box, b.box, region.vertical));
}

/** The reader's lines grouped into captions (lines more than a line and a half apart), in reading order; undefined without lines. */
function lineGroups(region: TranslatedRegion): { box: Box; text: string }[] | undefined {
	if ((region.lines?.length ?? 0) < 2) return undefined;
	const lines = [...region.lines!].sort((a, b) => readingOrder(a.box, b.box, region.vertical));
	const thick = (b: Box) => (region.vertical ? b.x1 - b.x0 : b.y1 - b.y0);
	const thickness = lines.map((l) => thick(l.box)).sort((a, b) => a - b)[lines.length >> 1]!;
	const groups: { box: Box; texts: string[] }[] = [];
	for (const line of lines) {
		const near = groups.find((g) => distance(g.box, line.box) <= CAPTION_GAP * thickness);
		if (near) {
			near.box = union(near.box, line.box);
			near.texts.push(line.text);
		} else groups.push({ box: line.box, texts: [line.text] });
	}
	return groups
		.map((g) => ({ box: g.box, text: g.texts.join("\n") }))
		.sort((a, b) => readingOrder(a.box, b.box, region.vertical));
}

/**
 * A finding per caption, each looked for in its own box with its own text, the translation shared
 * out as the texts are: a line each when it has one per caption, else in proportion to their length.
 */
function alone(region: TranslatedRegion, boxes: Box[], texts: string[], look: LookFree): Finding[] {
	const lines = textLines(region.translation);
	const translations =
		lines.length === boxes.length
			? lines
			: splitByShares(
					region.translation,
					texts.map((t) => [...t].length),
				);
	return boxes.map((box, k) => {
		const text = texts[k] ?? "";
		const translation = translations[k] ?? "";
		const caption = { ...region, box, text, translation, lines: undefined };
		const finding = look(
			caption,
			box,
			false,
			boxes.filter((_, j) => j !== k),
		);
		return { ...finding, text, translation };
	});
}

/**
 * The findings when each caption's lettering lies apart from the others': captions looked for alone
 * that found the same lettering (art joining them, such as a panel's edge taken for lettering) are no
 * captions apart, and would be set on top of one another.
 */
function apart(findings: Finding[]): Finding[] | undefined {
	const meet = findings.some((f, k) => findings.some((g, j) => j > k && intersects(f.textBox, g.textBox)));
	return meet ? undefined : findings;
}

/**
 * The lettering's captions: runs of its lines across them (rows, or columns when vertical) with no
 * gap of CAPTION_GAP lines between them, each with its box and about how many characters it holds.
 */
function bandsOf(lettering: Lettering, vertical: boolean, size: number): Caption[] {
	const { box, mask } = lettering;
	const w = box.x1 - box.x0;
	const h = box.y1 - box.y0;
	const across = vertical ? w : h;
	const inked = new Uint8Array(across);
	for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (mask[y * w + x]) inked[vertical ? x : y] = 1;
	const runs: [number, number][] = [];
	for (let v = 0; v < across; v++) {
		if (!inked[v]) continue;
		const last = runs.at(-1);
		if (last && v - last[1] <= CAPTION_GAP * size) last[1] = v + 1;
		else runs.push([v, v + 1]);
	}
	return runs.map(([v0, v1]) => {
		const band = vertical ? { x0: v0, y0: 0, x1: v1, y1: h } : { x0: 0, y0: v0, x1: w, y1: v1 };
		const ink = inkBox(mask, w, band);
		const inImage = { x0: box.x0 + ink.x0, y0: box.y0 + ink.y0, x1: box.x0 + ink.x1, y1: box.y0 + ink.y1 };
		return { box: inImage, characters: charactersIn(lettering, ink, vertical), probed: false };
	});
}

/** A caption probed for (lettering found without asking whether it is the text's). */
function probedCaption(found: Finding, vertical: boolean): Caption {
	const { box, mask } = found.lettering!;
	const all = { x0: 0, y0: 0, x1: box.x1 - box.x0, y1: box.y1 - box.y0 };
	return { box: found.textBox, characters: charactersIn({ box, mask }, all, vertical), probed: true };
}

/**
 * Whether a caption may hold `text`: lettering found as the text's is; lettering probed for holds
 * about as many characters as the text (not a stray mark, nor the edge of a panel or a balloon).
 */
function holds(caption: Caption, text: string): boolean {
	const ratio = [...text.replace(/\s+/gu, "")].length / Math.max(caption.characters, 1e-3);
	return !caption.probed || (ratio >= CHARACTERS_PER_LENGTH[0] && ratio <= CHARACTERS_PER_LENGTH[1]);
}

/** The bounding box of the mask's pixels within `band` (mask px). */
function inkBox(mask: Uint8Array, w: number, band: Box): Box {
	let [x0, y0, x1, y1] = [band.x1, band.y1, band.x0, band.y0];
	for (let y = band.y0; y < band.y1; y++) {
		for (let x = band.x0; x < band.x1; x++) {
			if (!mask[y * w + x]) continue;
			[x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x + 1), Math.max(y1, y + 1)];
		}
	}
	return { x0, y0, x1, y1 };
}

/** About how many characters the lettering holds within `part` (mask px): letteringLength there. */
function charactersIn(lettering: Pick<Lettering, "box" | "mask">, part: Box, vertical: boolean): number {
	const w = lettering.box.x1 - lettering.box.x0;
	const pw = part.x1 - part.x0;
	const mask = new Uint8Array(pw * (part.y1 - part.y0));
	for (let y = part.y0; y < part.y1; y++)
		mask.set(lettering.mask.subarray(y * w + part.x0, y * w + part.x1), (y - part.y0) * pw);
	return letteringLength({ mask, core: mask, box: { x0: 0, y0: 0, x1: pw, y1: part.y1 - part.y0 } }, pw, vertical);
}

/**
 * The parts of the reader's box the lettering found leaves empty across its lines, a line's
 * thickness or more each: where another caption may be, reaching PAST_BOX of the box beyond it (each way).
 */
function restOf(found: Box, box: Box, vertical: boolean, size: number, search: Box): Box[] {
	const [w, h] = [box.x1 - box.x0, box.y1 - box.y0];
	const past = Math.round(PAST_BOX * (vertical ? w : h));
	// Along the lines too: the caption's colour must be rarer in the margin than in the box (ink.ts).
	const along = Math.round(PAST_BOX * (vertical ? h : w));
	const gap = Math.round(size / 2);
	const [f0, f1, b0, b1] = vertical ? [found.x0, found.x1, box.x0, box.x1] : [found.y0, found.y1, box.y0, box.y1];
	const out: Box[] = [];
	const side = (v0: number, v1: number) =>
		vertical
			? { x0: v0, y0: box.y0 - along, x1: v1, y1: box.y1 + along }
			: { x0: box.x0 - along, y0: v0, x1: box.x1 + along, y1: v1 };
	if (f0 - b0 + past >= size) out.push(side(b0 - past, f0 - gap));
	if (b1 - f1 + past >= size) out.push(side(f1 + gap, b1 + past));
	return out.map((b) => clipBox(b, search)).filter((b) => area(b) > 0);
}
