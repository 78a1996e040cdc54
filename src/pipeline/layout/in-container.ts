/**
 * A region in a closed container: the balloon or panel the reader's box meets, and all its
 * lettering, wherever the box was. A box spanning two containers (two balloons read as one) gives
 * a finding per container, the region's text shared out between them; so does a region whose text
 * the container it meets cannot hold, beside a container no region was given for (two balloons read
 * as one, the box cut short to the first: neighbour.ts).
 */
import {
	area,
	clipBox,
	cutPatch,
	distance,
	grow,
	intersects,
	overlap,
	toImageBox,
	toPatchBox,
	union,
	within,
} from "../patch";
import type { Box, Container, Patch, TranslatedRegion } from "../types";
import { type Background, colourOf } from "./background";
import { bodyOf } from "./body";
import { closedShapes, holdingLettering, type Outline, type Shape } from "./container";
import { type Finding, measureGlyphs } from "./finding";
import { glyphsInContainer, maxGlyph } from "./glyphs";
import { inkScore } from "./ink";
import { reframe } from "./masks";
import { letteringLength } from "./measure";
import { histogramMedian } from "./median";
import { shapesNear } from "./near";
import { holdsMoreText, readsAs, shapesBeside, textBeyond } from "./neighbour";
import { joinTexts, splitByLinesOrShares } from "./split-text";

/** Levels (each channel) within which a pixel is the container's background: JPEG noise and paper grain. */
export const FLOOD_TOLERANCE = 18;
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
/** Length (px) of the container's colour between two containers apart, at least: two outlines' spacing. */
const APART = 8;
/** A container found again holds this share of one found before. */
const SAME_CONTAINER = 0.8;
/** Share of a container's inside its lettering (and anything else in it) covers at most: the rest is its paper. */
const MAX_INK = 0.5;
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
 * only with room all round the lettering it holds, or as a balloon fitted to its lettering
 * (tightBalloon); there the pieces such lettering cuts a balloon's inside into are joined.
 * `onArt`: the box's background is texture, and a shape must end in ink all round besides.
 * `glyphSize`: a shape no longer than this along its longer side may be a glyph (a bold glyph's
 * strokes, of the ink's colour, enclose its counters), and is no container.
 */
export function findInShapes(
	crop: Patch,
	region: TranslatedRegion,
	search: Box,
	readerBox: Box,
	colours: Background[],
	claimed: (shape: Shape) => boolean,
	{ enclosing = false, onArt = false, glyphSize = 0 } = {},
): {
	found: Finding[];
	rest?: TranslatedRegion & { part: number };
	held?: { containers: Container[]; bg: Background };
} {
	const lines = region.lines ?? [];
	const found: Finding[] = [];
	const lettered = lines.map((l) => l.box).reduce(union, readerBox);
	let primary: Shape | undefined;
	let primaryGlyphs = 0;
	const pieces = enclosing ? { vertical: region.vertical } : undefined;
	// Shapes the box meets that hold too little of their lettering in it to be the region's: the
	// balloon beside the one found, when the region's text is both's (restBeside).
	const met: { shape: Shape; bg: Background }[] = [];
	for (const bg of colours) {
		const shapes = wholeBeforePieces(
			closedShapes(crop, search, readerBox, colourOf(bg), FLOOD_TOLERANCE, pieces, lettered),
		);
		const first = shapes[0];
		if (!first) continue;
		// Another shape is part of the region when the reader said a line is in it, or else when the box
		// holds most of its lettering (a neighbour the box only grazes keeps its own).
		const part = (shape: Shape) =>
			lines.length > 0
				? lines.some((l) => overlap(l.box, shape.box) >= 0.5 * area(l.box))
				: shape.inkInBox >= SECOND_SHARE * shape.ink && shape.inkInBox >= 0.1 * (primary ?? first).inkInBox;
		// A box around the whole container is a box around all its lettering: the lettering is found as
		// on open background, from the box (glyphs fitted tightly, touching the outline on every side,
		// cut the container's background in pieces the flood cannot join), the container kept. Not for
		// a colour of the box's own: there a shape inside the box may be a glyph's, not a container.
		// A box around two containers apart (two panels read as one) holds each of them so.
		if (!enclosing && !primary && within(first.box, grow(readerBox, HELD_SLACK))) {
			const held = [first];
			for (const shape of shapes) {
				if (shape === first || !within(shape.box, grow(readerBox, HELD_SLACK)) || !part(shape) || claimed(shape))
					continue;
				if (held.every((h) => apart(crop, h.box, shape.box, colourOf(bg)))) held.push(shape);
			}
			return { found: [], held: { containers: held.map((s) => containerOf(s, colourOf(bg))), bg } };
		}
		for (const shape of shapes) {
			if ((primary || shape !== first) && (!part(shape) || claimed(shape))) {
				if (!claimed(shape)) met.push({ shape, bg });
				continue;
			}
			if (Math.max(shape.box.x1 - shape.box.x0, shape.box.y1 - shape.box.y0) <= glyphSize) continue;
			// A shape around the container found (its outline, with the glyphs touching it) holds nothing more.
			if (primary && within(primary.box, shape.box)) continue;
			// A balloon fitted to its lettering, the box around it (and the art it ran onto): as above, its
			// lettering is found from the box, there cut to the balloon.
			// Whether it ends in one ink all round (outlined), asked at most once a shape: it walks the whole rim.
			let rimOutlined: boolean | undefined;
			const endsInInk = () => (rimOutlined ??= outlined(crop, shape, colourOf(bg)));
			const boxHolds = within(shape.box, grow(readerBox, HELD_SLACK));
			// A box meeting another shape of its colour (a piece of this one) is no box around it alone;
			// one running onto another balloon apart from it and cutting it (two balloons read as one,
			// the second cut short) holds this one alone, and the region's text is shared out between
			// them (below, restBeside). Shapes the box holds whole (the counters of one word and of the
			// next) are no such balloon.
			const besideIt = (o: Shape) =>
				!within(shape.box, o.box) && distance(o.box, shape.box) >= APART && !within(o.box, grow(readerBox, HELD_SLACK));
			const others = shapes.filter((o) => !within(o.box, shape.box) && intersects(o.box, readerBox));
			const alone = boxHolds && others.every(besideIt);
			const tight = enclosing && tightBalloon(shape, region, readerBox, alone, endsInInk);
			// One the box misses part of, its lettering too dense for a container's paper to be told
			// (below), is held as well: its lettering is found from the part of the box on it.
			if (
				tight &&
				!primary &&
				(others.length === 0 || !alone) &&
				(boxHolds || shape.ink > MAX_INK * shape.insideArea) &&
				lines.every((l) => overlap(l.box, shape.box) >= 0.5 * area(l.box))
			) {
				return { found: [], held: { containers: [containerOf(shape, colourOf(bg))], bg } };
			}
			// What rules a shape out without its lettering is asked before its lettering is looked for
			// (glyphsInContainer costs more than the rim's walk). Joined pieces are a container only
			// fitted to their lettering. On art, a balloon ends in its outline (and lettering) all round:
			// an outline's ring, whose inside is the balloon's paper, ends in the art as often; a glyph
			// with a counter, in the art.
			if (enclosing && shape.joined && !tight) continue;
			// Of a colour of the box's own, a shape mostly ink is an outline's ring around a balloon, not its paper.
			if (enclosing && shape.ink > MAX_INK * shape.insideArea) continue;
			if (onArt && !tight && !endsInInk()) continue;
			const inside = inShape(crop, region, search, readerBox, bg, shape);
			if (!inside) continue;
			if (enclosing && !tight && !surrounds(shape.box, inside.finding.textBox)) continue;
			// Pieces of one balloon (its shape and its pieces joined) are one container, given its text once.
			const same = (c: Box) => overlap(c, inside.finding.container.box) >= SAME_CONTAINER * area(c);
			if (found.some((f) => same(f.container.box))) continue;
			found.push(inside.finding);
			if (!primary) {
				primary = shape;
				primaryGlyphs = inside.glyphCount;
			}
		}
	}
	if (found.length === 1 && lines.length === 0 && holdsMoreText(region.text, primaryGlyphs)) {
		const beside = restBeside(crop, region, search, readerBox, found[0]!, primaryGlyphs, claimed, met);
		if (beside) found.push(beside);
	}
	return found.length > 0 ? shareOut(region, found) : { found };
}

/**
 * The shapes, each joined one (pieces of a panel its lettering cuts) moved before the first of its
 * pieces: a piece of a tight panel, held by the box or fitted to its lettering, passes for a container
 * itself, and taken first it leaves the panel's other glyphs beside the translation. The joined shape
 * is asked first, and gives way to its pieces only when it is no container (not fitted to its lettering).
 */
function wholeBeforePieces(shapes: Shape[]): Shape[] {
	const out = shapes.filter((s) => !s.joined);
	for (const whole of shapes) {
		if (!whole.joined) continue;
		const at = out.findIndex((s) => !s.joined && within(s.box, whole.box));
		out.splice(at < 0 ? out.length : at, 0, whole);
	}
	return out;
}

/**
 * Whether two shapes of `colour` are containers apart, not pieces of one balloon its lettering cut
 * (glyphs fitted to the outline part the paper between them): on the way from one's centre to the
 * other's, outside both, the colour runs on for APART px at least, as the page between two panels'
 * outlines does; between pieces lie strokes, and counters narrower than that.
 */
function apart(crop: Patch, a: Box, b: Box, colour: number[]): boolean {
	const [ax, ay] = [(a.x0 + a.x1) / 2, (a.y0 + a.y1) / 2];
	const [bx, by] = [(b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2];
	const steps = Math.ceil(Math.max(Math.abs(bx - ax), Math.abs(by - ay)));
	const inBox = (box: Box, x: number, y: number) => x >= box.x0 && y >= box.y0 && x < box.x1 && y < box.y1;
	let run = 0;
	for (let k = 0; k <= steps; k++) {
		const x = Math.floor(ax + ((bx - ax) * k) / Math.max(1, steps)) - crop.box.x0;
		const y = Math.floor(ay + ((by - ay) * k) / Math.max(1, steps)) - crop.box.y0;
		if (x < 0 || y < 0 || x >= crop.width || y >= crop.height) continue;
		if (inBox(a, x + crop.box.x0, y + crop.box.y0) || inBox(b, x + crop.box.x0, y + crop.box.y0)) continue;
		const p = (y * crop.width + x) * 4;
		let off = 0;
		for (let c = 0; c < 3; c++) off = Math.max(off, Math.abs(crop.data[p + c]! - colour[c]!));
		run = off <= FLOOD_TOLERANCE ? run + 1 : 0;
		if (run >= APART) return true;
	}
	return false;
}

/**
 * The container beside the box holding the rest of a region's text (neighbour.ts), its lettering
 * found as if the reader had boxed it and read the characters `own` (`ownGlyphs` found) does not
 * hold; with room all round it, as a balloon or a label leaves, or, fitted tight to it, the
 * shape ending in one ink all round (outlined: a panel's border and the glyphs touching it).
 */
function restBeside(
	crop: Patch,
	region: TranslatedRegion,
	search: Box,
	readerBox: Box,
	own: Finding,
	ownGlyphs: number,
	claimed: (shape: Shape) => boolean,
	met: { shape: Shape; bg: Background }[],
): Finding | undefined {
	const rest = textBeyond(region.text, ownGlyphs);
	const holdsRest = ({ shape, bg }: { shape: Shape; bg: Background }) => {
		const inside = inShape(crop, region, search, shape.enclosed, bg, shape, rest);
		return inside && (surrounds(shape.box, inside.finding.textBox) || outlined(crop, shape, colourOf(bg)))
			? inside.finding
			: undefined;
	};
	// A shape the box met, apart from the container found (a piece of it lies a stroke away), is
	// asked first: its colour floods from the box, which a wide search of the colours around may miss.
	for (const candidate of met) {
		if (distance(candidate.shape.box, own.container.box) < APART) continue;
		const finding = holdsRest(candidate);
		if (finding) return finding;
	}
	for (const candidate of shapesBeside(crop, search, readerBox, own.container.box, claimed, FLOOD_TOLERANCE)) {
		const finding = holdsRest(candidate);
		if (finding) return finding;
	}
	return undefined;
}

/**
 * The container near a box that holds none (near.ts), its lettering found as if the reader had boxed
 * it: a panel or balloon with room round its lettering, or fitted to it (ending in ink all round: the
 * only kind its pieces joined may be), whose glyphs could be the region's text (neither clearly fewer
 * than its characters nor many times more). `refused`: a shape that is not this region's to take.
 */
export function containerNear(
	crop: Patch,
	region: TranslatedRegion,
	search: Box,
	readerBox: Box,
	refused: (shape: Shape) => boolean,
): Finding | undefined {
	for (const { shape, bg } of shapesNear(crop, search, readerBox, refused, FLOOD_TOLERANCE, region.vertical)) {
		// An outline's ring around a balloon is mostly ink, not paper.
		if (shape.ink > MAX_INK * shape.insideArea) continue;
		const inside = inShape(crop, region, search, shape.enclosed, bg, shape);
		if (!inside || !readsAs(region.text, inside.glyphCount)) continue;
		// Joined pieces are a container only fitted to their lettering.
		const roomy = !shape.joined && surrounds(shape.box, inside.finding.textBox);
		if (roomy || outlined(crop, shape, colourOf(bg))) return inside.finding;
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
	const { insideArea } = shape;
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
		container: containerOf(shape, colourOf(bg)),
		closed: true,
		lettering,
		textBox: toImageBox(patch, glyphs.box),
		inkArea,
		measures,
	};
	return { finding, glyphCount: glyphs.components.length };
}

/**
 * A closed container's finding with its lettering inside its container (container.ts,
 * holdingLettering), and the container then told a balloon or a panel, and cut to its body, again:
 * glyphs fitted tight to the outline leave the flood's inside the paper between the letters. Done
 * once every region's lettering is found (index.ts): on the flood's inside, a region whose box is
 * centred on such a glyph looks for its own lettering, which a tight container's, found from
 * another rough box, may lack.
 */
export function withLettering(crop: Patch, finding: Finding): Finding {
	const { container, lettering } = finding;
	if (!finding.closed || !lettering || container.kind === "free") return finding;
	const colour = [...finding.measures.backgroundColor, 255];
	const held = holdingLettering(container, lettering, crop, colour, FLOOD_TOLERANCE);
	return held ? { ...finding, container: containerOf(held, colour) } : finding;
}

/** A shape as a container: a balloon when light and not rectangular (its body, without its tail), else a panel. */
function containerOf(shape: Outline, colour: number[]): Container {
	const fill = shape.insideArea / area(shape.box);
	const [r, g, b] = colour as [number, number, number];
	const light = 0.299 * r + 0.587 * g + 0.114 * b >= 128;
	const kind = light && fill < RECTANGULAR ? "balloon" : "panel";
	if (fill >= 0.98) return { kind, box: shape.box };
	// The shape is given when it is not its box (a balloon's ellipse, a rounded label); a balloon's
	// without its tail, where no text is set.
	const { box, inside } = fill < RECTANGULAR ? bodyOf(shape.box, shape.inside, shape.insideArea) : shape;
	return { kind, box, inside };
}

/**
 * One region over several containers, or over a container and open background: each container takes
 * the lines whose boxes it holds, when the reader gave lines (a container given none is a neighbour
 * the box only touched, and is dropped; lines no container holds are the rest, free lettering);
 * otherwise the text and translation are cut in proportion to the characters each container's
 * lettering holds, at sentence or clause ends where possible, so each balloon reads as a whole.
 */
export function shareOut(
	region: TranslatedRegion,
	found: Finding[],
): { found: Finding[]; rest?: TranslatedRegion & { part: number } } {
	const lines = region.lines ?? [];
	if (lines.length === 0) {
		if (found.length === 1) return { found };
		const ordered = [...found].sort((a, b) => readingOrder(a.container.box, b.container.box, region.vertical));
		const shares = ordered.map((f) => charactersHeld(f, region.vertical));
		const texts = splitByLinesOrShares(region.text, shares);
		// The translation a line a container as well, else as the text was cut (at a sentence end near
		// the containers' shares): each balloon's translation then reads as its own text does.
		const translations = splitByLinesOrShares(
			region.translation,
			texts.map((t) => [...t].length),
		);
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
	const translations = splitByLinesOrShares(
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

/**
 * Whether a shape of one of the box's own colours is a balloon fitted to its lettering (glyphs touch
 * its outline, so it leaves no room around them), not a glyph of that colour, a row of such glyphs or
 * a halo around lettering. It holds one of the lines the reader gave or, without lines, spans most of
 * the reader's box along its longer side (a glyph spans a character's share of it), or the box holds
 * it whole and meets no other shape of its colour (`heldAlone`: a box read far too large); and (endsInInk: outlined) it
 * ends in ink nearly all round, one ink (its outline and the glyphs touching it; a halo ends at the
 * tone or art around it as often, a glyph on texture in the texture), it encloses nothing but that
 * ink (outlined glyphs enclose art between them), and the ink ends a little past it (the background
 * around glyphs of the shape's colour runs on).
 */
function tightBalloon(
	shape: Shape,
	region: TranslatedRegion,
	readerBox: Box,
	heldAlone: boolean,
	endsInInk: () => boolean,
): boolean {
	const lines = region.lines ?? [];
	const holdsLine = lines.some((l) => overlap(l.box, shape.box) >= 0.5 * area(l.box));
	const w = readerBox.x1 - readerBox.x0;
	const h = readerBox.y1 - readerBox.y0;
	const along = w >= h ? shape.box.x1 - shape.box.x0 : shape.box.y1 - shape.box.y0;
	const wide = along >= BALLOON_SPAN * Math.max(w, h);
	const heldWhole = heldAlone && shape.insideArea >= HELD_SHARE * area(readerBox);
	return (lines.length > 0 ? holdsLine : wide || heldWhole) && endsInInk();
}

/** Share of the reader box's longer side a balloon fitted to its lettering spans at least... */
const BALLOON_SPAN = 0.5;
/**
 * ...or, held whole by it, the share of its area the balloon fills at least: a box up to ten times
 * its balloon (each side a third too long, around the art beside it too); a glyph's counter or the
 * paper between two glyphs fills far less.
 */
const HELD_SHARE = 0.1;

/**
 * Whether a shape's rim is a balloon's: of what lies two steps beyond its interior (past an
 * anti-aliased edge pixel), most is ink (INK_CONTRAST levels or more from the shape's colour), most
 * of that ink within INK_SPREAD of its median colour (one ink); the shape encloses nothing but that
 * ink (notLettering), and little of that ink lies past it (inkBeyond). Each test is asked only when
 * those before it passed, the cheapest first: most shapes on art fail the first.
 */
function outlined(crop: Patch, shape: Shape, colour: number[]): boolean {
	// Two walks of the rim, the ink's colours counted in histograms, not listed: a flood over texture
	// is nearly all rim, and a list of its pixels would grow with the search area.
	const histograms = new Uint32Array(4 * 256);
	const { rim, inked } = walkRim(crop, shape, colour, (p) => {
		for (let c = 0; c < 4; c++) histograms[c * 256 + crop.data[p + c]!]!++;
	});
	if (inked / Math.max(1, rim) < INKED_RIM) return false;
	const ink = histogramMedian(histograms, inked);
	if (!ink) return false;
	let oneInk = 0;
	walkRim(crop, shape, colour, (p) => {
		let off = 0;
		for (let c = 0; c < 3; c++) off = Math.max(off, Math.abs(crop.data[p + c]! - ink[c]!));
		if (off <= INK_SPREAD) oneInk++;
	});
	if (oneInk / Math.max(1, inked) < ONE_INK) return false;
	return inkBeyond(crop, shape, ink) <= INK_BEYOND && notLettering(crop, shape, colour, ink) <= NOT_INK;
}

/**
 * Each step out of the shape's interior, to the pixel two steps beyond (past an anti-aliased edge):
 * how many there are, and how many of them are ink, each given to `ink` (its byte in the crop).
 */
function walkRim(
	crop: Patch,
	shape: Shape,
	colour: number[],
	ink: (p: number) => void,
): { rim: number; inked: number } {
	const w = shape.box.x1 - shape.box.x0;
	const h = shape.box.y1 - shape.box.y0;
	const inInterior = (x: number, y: number) => x >= 0 && y >= 0 && x < w && y < h && shape.interior[y * w + x] === 1;
	let rim = 0;
	let inked = 0;
	for (let y = 0; y < h; y++) {
		for (let x = 0; x < w; x++) {
			if (!inInterior(x, y)) continue;
			for (const [dx, dy] of STEPS) {
				if (inInterior(x + dx, y + dy)) continue;
				const cx = shape.box.x0 + x + 2 * dx - crop.box.x0;
				const cy = shape.box.y0 + y + 2 * dy - crop.box.y0;
				if (cx < 0 || cy < 0 || cx >= crop.width || cy >= crop.height) continue;
				const p = (cy * crop.width + cx) * 4;
				let far = 0;
				for (let c = 0; c < 3; c++) far = Math.max(far, Math.abs(crop.data[p + c]! - colour[c]!));
				rim++;
				if (far < INK_CONTRAST) continue;
				inked++;
				ink(p);
			}
		}
	}
	return { rim, inked };
}

/**
 * Share of the pixels OUTLINE_REACH px outside the shape's box (a ring round it, in the crop) of
 * `ink`: past a balloon's outline lies art; around glyphs of the shape's colour, the background
 * that rims them runs on.
 */
function inkBeyond(crop: Patch, shape: Shape, ink: number[]): number {
	const { x0, y0, x1, y1 } = grow(shape.box, OUTLINE_REACH);
	let ring = 0;
	let inked = 0;
	const visit = (x: number, y: number) => {
		const cx = x - crop.box.x0;
		const cy = y - crop.box.y0;
		if (cx < 0 || cy < 0 || cx >= crop.width || cy >= crop.height) return;
		const p = (cy * crop.width + cx) * 4;
		let off = 0;
		for (let c = 0; c < 3; c++) off = Math.max(off, Math.abs(crop.data[p + c]! - ink[c]!));
		ring++;
		if (off <= INK_SPREAD) inked++;
	};
	for (let x = x0; x < x1; x++) {
		visit(x, y0);
		visit(x, y1 - 1);
	}
	for (let y = y0 + 1; y < y1 - 1; y++) {
		visit(x0, y);
		visit(x1 - 1, y);
	}
	return inked / Math.max(1, ring);
}

/** How far past a balloon's inside its outline has surely ended (px). */
const OUTLINE_REACH = 8;
/**
 * Share of the ring past a balloon's outline, at most, of the outline's ink: a tenth at most around
 * bench/corpus's balloons on art, two fifths around lettering outlined in white on screentone.
 */
const INK_BEYOND = 0.25;

/**
 * Share of what the shape encloses that is neither `ink` (within INK_SPREAD), nor its own `colour`
 * (glyphs' counters), nor an edge between the two: a balloon encloses its lettering only; glyphs
 * outlined in the ink, the art between them and in their counters.
 */
function notLettering(crop: Patch, shape: Shape, colour: number[], ink: number[]): number {
	const w = shape.box.x1 - shape.box.x0;
	// Only what the shape encloses is asked about, with the pixels next to it: one mask of their
	// box, each pixel's bits saying ink (1) and paper (2), not a mask per question over the shape's box.
	const { x0, y0, x1, y1 } = clipBox(grow(shape.enclosed, 1), shape.box);
	const cw = x1 - x0;
	const ch = y1 - y0;
	const kind = new Uint8Array(cw * ch);
	for (let y = 0; y < ch; y++) {
		const row = (y0 + y - crop.box.y0) * crop.width + x0 - crop.box.x0;
		for (let x = 0; x < cw; x++) {
			const p = (row + x) * 4;
			let off = 0;
			let offPaper = 0;
			for (let c = 0; c < 3; c++) {
				off = Math.max(off, Math.abs(crop.data[p + c]! - ink[c]!));
				offPaper = Math.max(offPaper, Math.abs(crop.data[p + c]! - colour[c]!));
			}
			kind[y * cw + x] = (off <= INK_SPREAD ? INK : 0) | (offPaper <= FLOOD_TOLERANCE ? PAPER : 0);
		}
	}
	let enclosed = 0;
	let other = 0;
	for (let y = 0; y < ch; y++) {
		for (let x = 0; x < cw; x++) {
			const j = (y0 - shape.box.y0 + y) * w + x0 - shape.box.x0 + x;
			if (!shape.inside[j] || shape.interior[j]) continue;
			enclosed++;
			if (kind[y * cw + x]) continue;
			// An anti-aliased edge pixel lies between the ink and the paper, next to both (of the 3×3 around it).
			let near = 0;
			for (let ny = Math.max(0, y - 1); ny <= Math.min(ch - 1, y + 1); ny++)
				for (let nx = Math.max(0, x - 1); nx <= Math.min(cw - 1, x + 1); nx++) near |= kind[ny * cw + nx]!;
			if (near !== (INK | PAPER)) other++;
		}
	}
	return other / Math.max(1, enclosed);
}

/** notLettering's bits: a pixel of the ink, of the paper. */
const INK = 1;
const PAPER = 2;

/** Share of what a balloon encloses, at most, that is neither its lettering's ink nor its edge. */
const NOT_INK = 0.1;

/** Levels from the ink's median within which a rim pixel is the same ink (anti-aliasing aside). */
const INK_SPREAD = 24;
/** Share of a balloon's inked rim, at least, of one ink: its outline's and its lettering's. */
const ONE_INK = 0.8;

const STEPS = [
	[1, 0],
	[-1, 0],
	[0, 1],
	[0, -1],
] as const;
/**
 * Share of a balloon's rim in ink, at least: nine tenths around a tight balloon on bench/corpus,
 * under two thirds around a halo on screentone or an outline's ring.
 */
const INKED_RIM = 0.8;
/** Levels from the container's colour at which a pixel of its rim is ink (black on white: 240). */
const INK_CONTRAST = 128;

/** Room a panel leaves around its lettering, at least, as a share of the lettering's shorter side. */
const SURROUND = 0.1;
