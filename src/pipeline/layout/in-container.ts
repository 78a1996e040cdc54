/**
 * A region in a closed container: the balloon or panel the reader's box meets, and all its
 * lettering, wherever the box was. A box spanning two containers (two balloons read as one) gives
 * a finding per container, the region's text shared out between them; so does a region whose text
 * the container it meets cannot hold, beside a container no region was given for (two balloons read
 * as one, the box cut short to the first: neighbour.ts).
 */
import { area, clipBox, cutPatch, grow, overlap, toImageBox, toPatchBox, union } from "../patch";
import type { Box, Container, Patch, TranslatedRegion } from "../types";
import { type Background, colourOf } from "./background";
import { bodyOf } from "./body";
import { closedShapes, type Shape } from "./container";
import { type Finding, measureGlyphs } from "./finding";
import { glyphsInContainer, maxGlyph } from "./glyphs";
import { inkScore } from "./ink";
import { reframe } from "./masks";
import { letteringLength } from "./measure";
import { holdsMoreText, shapesBeside, textBeyond } from "./neighbour";
import { joinTexts, splitByShares } from "./split-text";

/** Levels (each channel) within which a pixel is the container's background: JPEG noise and paper grain. */
const FLOOD_TOLERANCE = 18;
/** Margin kept around a container's inside in the work patch: its outline and a little beyond. */
const OUTLINE_MARGIN = 6;
/**
 * Share of a container its lettering fills at least: a word in a balloon fills a few hundredths of
 * it; a line of narration in a panel of the page, whose flat background is its container, far less.
 */
const MIN_FILL = 0.02;
/**
 * A rectangle's: captions and labels are cut to their lettering; a flat rectangle far larger (a
 * door, a wall, a panel of the page) is the art the lettering is on.
 */
const MIN_RECTANGLE_FILL = 0.1;
/** Without lines, another shape is part of the region when its box holds this share of the shape's lettering. */
const SECOND_SHARE = 0.5;
/** How far (px) a container may reach past the reader's box and still be held by it. */
const HELD_SLACK = 4;
/** An inside this full of its bounding box is a rectangle: a panel, as is any dark shape. */
const RECTANGULAR = 0.9;

/**
 * What a region holds in closed shapes of the flat colours given (its background's, or, off a flat
 * background, the box's own commonest colours, commonest first): a finding per shape (none when no
 * shape holds its lettering), and, when the reader gave lines and some lie in no shape, those lines
 * as a region of their own, to be looked for on open background. The first colour with a shape
 * holding lettering gives the region's container; shapes of the other colours join it only as a
 * second container would (two signs on a wall read as one region). `claimed` says a shape belongs
 * to another region (its box's centre is inside): it is never taken as this region's second container.
 * `enclosing`: for colours taken from the box rather than measured as its background, a shape counts
 * only with room all round the lettering it holds.
 */
export function findInShapes(
	crop: Patch,
	region: TranslatedRegion,
	search: Box,
	readerBox: Box,
	colours: Background[],
	claimed: (shape: Shape) => boolean,
	{ enclosing = false } = {},
): { found: Finding[]; rest?: TranslatedRegion & { part: number }; held?: { container: Container; bg: Background } } {
	const lines = region.lines ?? [];
	const found: Finding[] = [];
	let primary: Shape | undefined;
	let primaryGlyphs = 0;
	for (const bg of colours) {
		const shapes = closedShapes(crop, search, readerBox, colourOf(bg), FLOOD_TOLERANCE);
		const first = shapes[0];
		if (!first) continue;
		// A box around the whole container is a box around all its lettering: the lettering is found as
		// on open background, from the box (glyphs fitted tightly, touching the outline on every side,
		// cut the container's background in pieces the flood cannot join), the container kept. Not for
		// a colour of the box's own: there a shape inside the box may be a glyph's, not a container.
		if (!enclosing && !primary && within(first.box, grow(readerBox, HELD_SLACK))) {
			let insideArea = 0;
			for (const v of first.inside) insideArea += v;
			return { found: [], held: { container: containerOf(first, insideArea, bg), bg } };
		}
		// Another shape is part of the region when the reader said a line is in it, or else when the box
		// holds most of its lettering (a neighbour the box only grazes keeps its own).
		const part = (shape: Shape) =>
			lines.length > 0
				? lines.some((l) => overlap(l.box, shape.box) >= 0.5 * area(l.box))
				: shape.inkInBox >= SECOND_SHARE * shape.ink && shape.inkInBox >= 0.1 * (primary ?? first).inkInBox;
		for (const shape of shapes) {
			if ((primary || shape !== first) && (!part(shape) || claimed(shape))) continue;
			const inside = inShape(crop, region, search, readerBox, bg, shape);
			if (!inside || (enclosing && !surrounds(shape.box, inside.finding.textBox))) continue;
			found.push(inside.finding);
			if (!primary) {
				primary = shape;
				primaryGlyphs = inside.glyphCount;
			}
		}
	}
	if (found.length === 1 && lines.length === 0 && holdsMoreText(region.text, primaryGlyphs)) {
		const beside = restBeside(crop, region, search, readerBox, found[0]!, primaryGlyphs, claimed);
		if (beside) found.push(beside);
	}
	return found.length > 0 ? shareOut(region, found) : { found };
}

/**
 * The container beside the box holding the rest of a region's text (neighbour.ts), its lettering
 * found as if the reader had boxed it and read the characters `own` (`ownGlyphs` found) does not
 * hold; with room all round it, as a balloon or a label leaves.
 */
function restBeside(
	crop: Patch,
	region: TranslatedRegion,
	search: Box,
	readerBox: Box,
	own: Finding,
	ownGlyphs: number,
	claimed: (shape: Shape) => boolean,
): Finding | undefined {
	const rest = textBeyond(region.text, ownGlyphs);
	for (const { shape, bg } of shapesBeside(crop, search, readerBox, own.container.box, claimed, FLOOD_TOLERANCE)) {
		const inside = inShape(crop, region, search, shape.enclosed, bg, shape, rest);
		if (inside && surrounds(shape.box, inside.finding.textBox)) return inside.finding;
	}
	return undefined;
}

/**
 * The lettering `shape` holds, with the glyphs it has found; `readText`, what the lettering reads,
 * bounds the glyphs' size (maxGlyph).
 */
function inShape(
	crop: Patch,
	region: TranslatedRegion,
	search: Box,
	readerBox: Box,
	bg: Background,
	shape: Shape,
	readText = region.text,
): { finding: Finding; glyphCount: number } | undefined {
	// The work patch holds what the shape encloses and the reader's box meets, a glyph or two beyond
	// (glyphs touching the outline are not enclosed), not the whole balloon: the rest of it is empty.
	const largest = maxGlyph(readText, readerBox, region.vertical);
	const met = clipBox(readerBox, shape.box);
	const lettered = area(met) > 0 ? union(shape.enclosed, met) : shape.enclosed;
	const work = clipBox(
		clipBox(grow(lettered, Math.ceil(1.5 * largest) + OUTLINE_MARGIN), grow(shape.box, OUTLINE_MARGIN)),
		search,
	);
	const patch = cutPatch(crop, work);
	const interior = reframe(shape.interior, shape.box, work);
	const inside = reframe(shape.inside, shape.box, work);
	// A flat background is the same colour anywhere: its planes need no shift to this patch.
	const ink = inkScore(patch, bg, toPatchBox(patch, readerBox));
	if (!ink) return undefined;
	const strokeBox = toPatchBox(patch, area(met) > 0 ? met : shape.box);
	const inReader = toPatchBox(patch, readerBox);
	const inLettering = toPatchBox(patch, lettered);
	const glyphs = glyphsInContainer(
		patch,
		ink,
		interior,
		inside,
		strokeBox,
		inReader,
		inLettering,
		region.vertical,
		largest,
	);
	if (!glyphs?.box) return undefined;
	let insideArea = 0;
	for (const v of shape.inside) insideArea += v;
	if (area(glyphs.box) < MIN_FILL * insideArea) return undefined;
	// Where the lettering lies, as the shape and the reader's box say (the glyphs found may be fewer:
	// glyphs touching a label's edge are found only in part).
	const rectangular = insideArea >= RECTANGULAR * area(shape.box);
	if (rectangular && Math.max(area(glyphs.box), area(lettered)) < MIN_RECTANGLE_FILL * insideArea) return undefined;
	const { lettering, measures, inkArea } = measureGlyphs(
		patch,
		{ ...glyphs, box: glyphs.box },
		bg,
		region,
		shape.box,
		false,
	);
	const finding: Finding = {
		region,
		text: region.text,
		translation: region.translation,
		part: 0,
		container: containerOf(shape, insideArea, bg),
		closed: true,
		lettering,
		textBox: toImageBox(patch, glyphs.box),
		inkArea,
		measures,
	};
	return { finding, glyphCount: glyphs.components.length };
}

function containerOf(shape: Shape, insideArea: number, bg: Background): Container {
	const fill = insideArea / area(shape.box);
	const [r, g, b] = colourOf(bg) as [number, number, number];
	const light = 0.299 * r + 0.587 * g + 0.114 * b >= 128;
	const kind = light && fill < RECTANGULAR ? "balloon" : "panel";
	if (fill >= 0.98) return { kind, box: shape.box };
	// The shape is given when it is not its box (a balloon's ellipse, a rounded label); a balloon's
	// without its tail, where no text is set.
	const { box, inside } = fill < RECTANGULAR ? bodyOf(shape.box, shape.inside) : shape;
	return { kind, box, inside };
}

/**
 * One region over several containers, or over a container and open background: each container takes
 * the lines whose boxes it holds, when the reader gave lines (a container given none is a neighbour
 * the box only touched, and is dropped; lines no container holds are the rest, free lettering);
 * otherwise the text and translation are cut in proportion to the characters each container's
 * lettering holds, at sentence or clause ends where possible, so each balloon reads as a whole.
 */
function shareOut(
	region: TranslatedRegion,
	found: Finding[],
): { found: Finding[]; rest?: TranslatedRegion & { part: number } } {
	const lines = region.lines ?? [];
	if (lines.length === 0) {
		if (found.length === 1) return { found };
		const ordered = [...found].sort((a, b) => readingOrder(a.container.box, b.container.box, region.vertical));
		const shares = ordered.map((f) => charactersHeld(f, region.vertical));
		const texts = splitByShares(region.text, shares);
		const translations = splitByShares(region.translation, shares);
		return {
			found: ordered.map((f, k) => ({ ...f, text: texts[k] ?? "", translation: translations[k] ?? "", part: k })),
		};
	}
	// Each line goes to the container holding most of it, or to none (-1) when none holds half of it.
	const owner = lines.map((line) => {
		const held = found.map((f) => overlap(line.box, f.container.box));
		const most = Math.max(...held);
		return most >= 0.5 * area(line.box) ? held.indexOf(most) : -1;
	});
	const free = lines.filter((_, l) => owner[l] === -1);
	const freeBox = free.map((l) => l.box).reduce<Box | undefined>((a, b) => (a ? union(a, b) : b), undefined);
	const parts: { box: Box; finding?: Finding; text: string }[] = found.flatMap((finding, k) => {
		const mine = lines.filter((_, l) => owner[l] === k);
		return mine.length > 0 ? [{ box: finding.container.box, finding, text: joinTexts(mine.map((l) => l.text)) }] : [];
	});
	if (freeBox) parts.push({ box: freeBox, text: joinTexts(free.map((l) => l.text)) });
	if (parts.length <= 1 && parts[0]?.finding)
		return { found: [{ ...parts[0].finding, text: region.text, translation: region.translation }] };
	parts.sort((a, b) => readingOrder(a.box, b.box, region.vertical));
	const translations = splitByShares(
		region.translation,
		parts.map((p) => [...p.text].length),
	);
	const out: Finding[] = [];
	let rest: (TranslatedRegion & { part: number }) | undefined;
	for (const [k, part] of parts.entries()) {
		const translation = translations[k] ?? "";
		if (part.finding) out.push({ ...part.finding, text: part.text, translation, part: k });
		else rest = { ...region, box: part.box, text: part.text, translation, lines: free, part: k };
	}
	return rest ? { found: out, rest } : { found: out };
}

/**
 * About how many characters a container's lettering holds (letteringLength), for sharing a text out:
 * its ink area would give a banner lettered large and bold most of a small label's text too.
 */
function charactersHeld(f: Finding, vertical: boolean): number {
	if (!f.lettering) return 0;
	const { box, mask } = f.lettering;
	const width = box.x1 - box.x0;
	const all = { x0: 0, y0: 0, x1: width, y1: box.y1 - box.y0 };
	return letteringLength({ mask, core: mask, box: all }, width, vertical);
}

/**
 * Reading order of two boxes: vertical sources in columns right to left, each top to bottom; others
 * in rows top to bottom, each left to right. Boxes sharing over half of the smaller one's width (its
 * height) are in one column (one row).
 */
export function readingOrder(a: Box, b: Box, vertical: boolean): number {
	const cx = (box: Box) => (box.x0 + box.x1) / 2;
	const cy = (box: Box) => (box.y0 + box.y1) / 2;
	if (vertical) {
		const shared = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
		const oneColumn = shared > 0.5 * Math.min(a.x1 - a.x0, b.x1 - b.x0);
		return oneColumn ? cy(a) - cy(b) : cx(b) - cx(a);
	}
	const shared = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
	const oneRow = shared > 0.5 * Math.min(a.y1 - a.y0, b.y1 - b.y0);
	return oneRow ? cx(a) - cx(b) : cy(a) - cy(b);
}

/**
 * Whether `outer` has room all round `inner`, as a panel has around its lettering; the paper between
 * hatching lines or a fleck of texture that a glyph's strokes happen to close has none.
 */
function surrounds(outer: Box, inner: Box): boolean {
	const margin = Math.max(2, SURROUND * Math.min(inner.x1 - inner.x0, inner.y1 - inner.y0));
	return within(grow(inner, margin), outer);
}

/** Room a panel leaves around its lettering, at least, as a share of the lettering's shorter side. */
const SURROUND = 0.1;

function within(inner: Box, outer: Box): boolean {
	return inner.x0 >= outer.x0 && inner.y0 >= outer.y0 && inner.x1 <= outer.x1 && inner.y1 <= outer.y1;
}
