/**
 * A region on open background or art, with no container in the pixels: its lettering is the glyphs
 * the reader's box holds and every text-sized glyph near them (glyphs.ts), so a box cut short or
 * moved still gets all of its lettering. The work patch starts a little beyond the box and grows
 * while the lettering runs to its edge (on texture, to the edge of where ink may be, and along the
 * lines by as much again as the lettering found), within the search area. The container is the clean
 * background around the lettering (for the translation to use), at most a glyph's size beyond it.
 */
import { area, clipBox, cutPatch, grow, toImageBox, toPatchBox, union, within } from "../patch";
import type { Box, Container, Patch, Rgb, TranslatedRegion } from "../types";
import { type Background, shiftBackground } from "./background";
import { cleanArea } from "./clean-area";
import { type Finding, measureGlyphs, nothingFound } from "./finding";
import { type Component, glyphsAround, linkReach, maxGlyph, type Sides } from "./glyphs";
import { type InkScore, inkScore } from "./ink";
import { edgesCovered } from "./plausible";
import { paddedBox } from "./search";

/** Rounds of growing the work patch after the lettering: most lettering is whole after one. */
const MAX_ROUNDS = 4;
/** Lettering spread over more than this many squares of the largest glyph size per character is art. */
const SPREAD = 4;
/**
 * Share of the reader's box (each way) that the lettering found spans at least: a box is at most 30%
 * larger than its text, and text a box was cut short of runs past it; a loose box around a headline
 * may be twice its text. A stray mark on texture spans a fifth of the box or less.
 */
const MIN_SPAN = 0.35;
/** Share of the sharp edges among glyphs found on texture that the glyphs must reach (lettering found whole reaches nearly all). */
const MIN_EDGES_COVERED = 0.8;
/**
 * Ink (strong pixels) the lettering holds at least per character, as a share of the square of the
 * largest glyph size: a thin digit holds an eightieth. Less is a few specks of a pattern the ink score
 * could not predict (a scanned screen whose step is no whole number of pixels, its thresholds then
 * as high as the lettering's contrast), the lettering itself not found.
 */
const MIN_INK = 1 / 256;
/** Lettering denser than this share of its box is no lettering (outlined bold lettering fills three quarters): texture of the ink's colour, joined up. */
const MAX_DENSITY = 0.8;

/**
 * `padded` is the patch the background was fitted on; `ownedElsewhere` tells a component (image
 * px) that belongs to another block; `held`, the container the reader's box holds, when it holds one;
 * `probe`: any lettering the box holds, however little of the box or of the text it spans (a box
 * known to hold more than one caption's lettering: captions.ts).
 */
export function findAround(
	crop: Patch,
	region: TranslatedRegion,
	search: Box,
	readerBox: Box,
	bg: Background,
	padded: Box,
	ownedElsewhere: (box: Box) => boolean,
	backgroundColor: Rgb,
	held?: Container,
	probe = false,
): Finding {
	const seen = { twoTones: false };
	const look = (marginBySide: boolean, oneTone = false) =>
		lookAround(
			crop,
			region,
			search,
			readerBox,
			bg,
			padded,
			ownedElsewhere,
			backgroundColor,
			held,
			probe,
			{ marginBySide, oneTone },
			seen,
		);
	let found = look(false);
	// Lettering in two tones is looked for by its fill (two-tone.ts); where that finds none, the colour
	// that stood out is another caption's the box holds too (thin lettering of the colour of a bold
	// caption's outline), and it is looked for alone, as one tone.
	if (!found.lettering && seen.twoTones) found = look(false, true);
	// On texture the lettering's colour is the one the box holds and its margin lacks; a box cut
	// short leaves the rest of its lettering in the margin, and another colour is taken for the ink.
	// Nothing found so: looked for again, each side of the margin counted apart (ink.ts). What that
	// finds must run on past the box, into the margin it was cut from: lettering inside it (one line
	// of several) would be erased and the rest left standing beside the translation; a cover hides more.
	if (found.lettering || probe || bg.kind !== "texture") return found;
	const again = look(true);
	return again.lettering && !within(again.textBox, grow(readerBox, PAST_BOX_PX)) ? again : found;
}

/** How far (px) lettering found must run past the reader's box to count as running on into its margin. */
const PAST_BOX_PX = 4;

/**
 * The lettering around the reader's box, its colour on texture told as `colour` says (ink.ts);
 * `seen` records whether that colour was a two-toned lettering's fill.
 */
function lookAround(
	crop: Patch,
	region: TranslatedRegion,
	search: Box,
	readerBox: Box,
	bg: Background,
	padded: Box,
	ownedElsewhere: (box: Box) => boolean,
	backgroundColor: Rgb,
	held: Container | undefined,
	probe: boolean,
	colour: { marginBySide: boolean; oneTone: boolean },
	seen: { twoTones: boolean },
): Finding {
	const largest = maxGlyph(region.text, readerBox, region.vertical);
	// The first patch is the one the background was measured on; the lettering's colour and the
	// thresholds found there hold on the larger ones, which only show more of it.
	let work = padded;
	let first: InkScore | undefined;
	let near = readerBox;
	for (let round = 0; ; round++) {
		const patch = cutPatch(crop, work);
		const local = shiftBackground(bg, work.x0 - padded.x0, work.y0 - padded.y0);
		const inReader = toPatchBox(patch, readerBox);
		const { marginBySide, oneTone } = colour;
		const ink = inkScore(patch, local, inReader, first, toPatchBox(patch, near), marginBySide, oneTone);
		if (!ink) return nothingFound(region, coverArea(readerBox), search, backgroundColor);
		seen.twoTones ||= !!ink.edging;
		first ??= ink;
		const final: Sides = {
			left: work.x0 <= search.x0,
			top: work.y0 <= search.y0,
			right: work.x1 >= search.x1,
			bottom: work.y1 >= search.y1,
		};
		const owned = (c: Component) => ownedElsewhere(toImageBox(patch, c));
		const balloon = held && insideOver(held, patch.box);
		const glyphs = glyphsAround(patch, ink, inReader, region.vertical, largest, owned, final, balloon);
		if (!glyphs.box) return nothingFound(region, coverArea(readerBox), search, backgroundColor);
		const textBox = toImageBox(patch, glyphs.box);
		// On texture only pixels near the lettering may be ink (ink.ts): lettering running to the
		// edge of that area may go on past it, as past the patch's edge.
		const runsOn =
			glyphs.reachesEdge || (!!ink.colour && runsToSide(textBox, near, search, linkReach(glyphs.glyphSize)));
		if (round + 1 < MAX_ROUNDS && runsOn) {
			const wanted = clipBox(
				grow(textBox, ...growth(textBox, glyphs.glyphSize, region.vertical, !!ink.colour)),
				search,
			);
			if (!within(wanted, near) || area(union(work, wanted)) > area(work)) {
				work = union(work, wanted);
				near = wanted;
				continue;
			}
		}
		// Lettering that, when the rounds run out, still runs to the patch's edge across its lines
		// (along them, a line cut short may run on) grew with every patch: a pattern the ink score
		// could not predict (a scanned screen whose step is no whole number of pixels), scored as ink
		// all round. Erasing it would fill the area with copies of the lettering the pattern's shifts
		// bring in.
		if (round + 1 === MAX_ROUNDS && glyphs.reachesEdge && acrossToEdge(glyphs.box, patch, region.vertical))
			return nothingFound(region, coverArea(readerBox), search, backgroundColor);
		const found = { ...glyphs, box: glyphs.box };
		return settle(patch, found, local, region, readerBox, search, work, backgroundColor, largest, probe);
	}
}

function settle(
	patch: Patch,
	glyphs: Parameters<typeof measureGlyphs>[1] & { reachesEdge: boolean },
	bg: Background,
	region: TranslatedRegion,
	readerBox: Box,
	search: Box,
	work: Box,
	backgroundColor: Rgb,
	largest: number,
	probe: boolean,
): Finding {
	const textBox = toImageBox(patch, glyphs.box);
	// The core lies within the glyphs' box (the mask grew from it): only that is summed.
	const { box } = glyphs;
	let core = 0;
	for (let y = box.y0; y < box.y1; y++)
		for (let i = y * patch.width + box.x0, end = y * patch.width + box.x1; i < end; i++) core += glyphs.core[i]!;
	// Lettering cut off at the search area's edge, spread far wider than the text could be, ink as
	// dense as a blot (art joined to the lettering), or too little ink for its text: not separable.
	// Lettering far narrower than the box is a stray mark the reader's text is not in.
	const chars = [...region.text.replace(/\s+/gu, "")].length;
	const separable =
		!(glyphs.reachesEdge && touchesSide(textBox, work, search)) &&
		core <= MAX_DENSITY * area(textBox) &&
		(probe ||
			(area(textBox) <= SPREAD * Math.max(1, chars) * largest ** 2 &&
				core >= MIN_INK * Math.max(1, chars) * largest ** 2 &&
				spans(textBox, readerBox, MIN_SPAN)));
	if (!separable) return nothingFound(region, coverArea(readerBox), search, backgroundColor);
	// On texture the ink's colour is a guess from the pixels (ink.ts): glyphs that miss the sharp
	// edges among them are of another colour (the photo's, in the lettering's counters), and erasing
	// them would leave the lettering under the translation.
	if (bg.kind === "texture" && edgesCovered(patch, glyphs.mask, glyphs.box) < MIN_EDGES_COVERED)
		return nothingFound(region, coverArea(readerBox), search, backgroundColor);
	const container = freeArea(patch, glyphs, bg);
	const { lettering, measures, inkArea } = measureGlyphs(patch, glyphs, bg, region, container, true);
	return {
		region,
		text: region.text,
		translation: region.translation,
		part: 0,
		container: { kind: "free", box: container },
		closed: false,
		lettering,
		textBox,
		inkArea,
		measures,
	};
}

/**
 * Where a translation may go around free lettering: on flat art and gradients the clean background
 * around it, at most a glyph's size beyond the glyphs and no further than an exact box's padding
 * (the work patch's size, larger after a rough box, says nothing of the room); on texture and
 * patterns a quarter of a glyph.
 */
function freeArea(patch: Patch, glyphs: Parameters<typeof measureGlyphs>[1], bg: Background): Box {
	const g = Math.max(2, glyphs.glyphSize);
	const bounds = { x0: 0, y0: 0, x1: patch.width, y1: patch.height };
	const limit = clipBox(grow(glyphs.box, Math.ceil(g)), paddedBox(glyphs.box, bounds));
	const box =
		bg.kind === "flat" || bg.kind === "gradient"
			? cleanArea(patch, bg, glyphs.box, glyphs.mask, limit)
			: clipBox(grow(glyphs.box, Math.ceil(g / 4)), limit);
	return toImageBox(patch, box);
}

/**
 * How far past the lettering found the next patch reaches: a glyph and a half all round; on texture
 * (`byColour`), along the lines as far again as the lettering found, so that a box cut to a third
 * of its line holds all of it after two rounds. Elsewhere rounds stay small: on a pattern, pieces
 * of it that lettering touches run on along the line, and the rounds' limit is what stops them.
 */
function growth(textBox: Box, glyphSize: number, vertical: boolean, byColour: boolean): [number, number] {
	const reach = Math.ceil(1.5 * glyphSize) + 2;
	if (!byColour) return [reach, reach];
	const w = textBox.x1 - textBox.x0;
	const h = textBox.y1 - textBox.y0;
	return vertical ? [reach, Math.max(reach, h)] : [Math.max(reach, w), reach];
}

/** A container's inside (its box where it has no shape) as a mask over a patch (image px). */
function insideOver(container: Container, patch: Box): Uint8Array {
	const { box, inside } = container;
	const bw = box.x1 - box.x0;
	const pw = patch.x1 - patch.x0;
	const mask = new Uint8Array(pw * (patch.y1 - patch.y0));
	for (let y = Math.max(box.y0, patch.y0); y < Math.min(box.y1, patch.y1); y++) {
		for (let x = Math.max(box.x0, patch.x0); x < Math.min(box.x1, patch.x1); x++) {
			if (!inside || inside[(y - box.y0) * bw + x - box.x0]) mask[(y - patch.y0) * pw + x - patch.x0] = 1;
		}
	}
	return mask;
}

/** Whether `box` comes within `reach` of a side of `limit` that is not the search area's. */
function runsToSide(box: Box, limit: Box, search: Box, reach: number): boolean {
	return (
		(limit.x0 > search.x0 && box.x0 < limit.x0 + reach) ||
		(limit.y0 > search.y0 && box.y0 < limit.y0 + reach) ||
		(limit.x1 < search.x1 && box.x1 > limit.x1 - reach) ||
		(limit.y1 < search.y1 && box.y1 > limit.y1 - reach)
	);
}

/** Whether `box` (patch coordinates) runs to the patch's edge across lines of the direction given. */
function acrossToEdge(box: Box, patch: Patch, vertical: boolean): boolean {
	return vertical ? box.x0 <= 1 || box.x1 >= patch.width - 1 : box.y0 <= 1 || box.y1 >= patch.height - 1;
}

function touchesSide(box: Box, work: Box, search: Box): boolean {
	return (
		(box.x0 <= work.x0 + 1 && work.x0 <= search.x0) ||
		(box.y0 <= work.y0 + 1 && work.y0 <= search.y0) ||
		(box.x1 >= work.x1 - 1 && work.x1 >= search.x1) ||
		(box.y1 >= work.y1 - 1 && work.y1 >= search.y1)
	);
}

/**
 * Where a panel covers lettering that could not be told from the art: the reader's box and as far
 * past it as the lettering of a box a fifth too small and an eighth off centre runs.
 */
function coverArea(box: Box): Box {
	return grow(box, Math.round(COVER_REACH * (box.x1 - box.x0)), Math.round(COVER_REACH * (box.y1 - box.y0)));
}

const COVER_REACH = 0.2;

/** Whether `found` spans at least `share` of `box`'s width and of its height. */
function spans(found: Box, box: Box, share: number): boolean {
	const w = Math.min(found.x1, box.x1) - Math.max(found.x0, box.x0);
	const h = Math.min(found.y1, box.y1) - Math.max(found.y0, box.y0);
	return w >= share * (box.x1 - box.x0) && h >= share * (box.y1 - box.y0);
}
