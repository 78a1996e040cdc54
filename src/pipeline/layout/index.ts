/**
 * The layout stage: the reader's regions and the pixels around them become text blocks. The model's
 * boxes are hints (off by a tenth of their size, cut short, merged, split, repeated); the pixels
 * say where the lettering is. For each region, in a capped search area around its box (plan.ts):
 * - its background, measured in and around the box (background.ts);
 * - on one flat colour, the closed shape of that colour that holds its lettering: a balloon or a
 *   panel, and all the glyphs inside it (in-container.ts);
 * - otherwise, or when no such shape holds it, the glyphs in the box and every text-sized glyph
 *   near them, on open background or art (around.ts);
 * - where no lettering could be told from the art, the container beside the box that it missed
 *   (near.ts), or else a cover over the box, run on along its line as far as the lettering goes
 *   (cover-reach.ts);
 * then regions in one container, or sharing their lettering, become one block (blocks.ts).
 *
 * It works on a crop (a `Patch`) holding the search areas (search.ts) of the regions it is given,
 * as crop-plan.ts cuts them; a crop may be the whole image. Page-wide, `settlePage` comes last
 * (blocks of different crops that are one, roles, ids in reading order).
 */

import type { Mode } from "../../request/options";
import { area, clipBox, cutPatch, distance, grow, overlap, toPatchBox, union } from "../patch";
import type { Box, Container, Patch, Rgb, TextBlock, TranslatedRegion } from "../types";
import { findAround } from "./around";
import { type Background, boxColours, colourOf, fitBackground, paperColours, predict } from "./background";
import { centre, groupBlocks, holds, holdsPoint, iou, type LaidOut } from "./blocks";
import { captionsOf, type LookFree } from "./captions";
import { coverColour } from "./cover-colour";
import { lineReach } from "./cover-reach";
import { contrasting, type Finding } from "./finding";
import { maxGlyph } from "./glyphs";
import { containerNear, FLOOD_TOLERANCE, findInShapes, shareOut, withLettering } from "./in-container";
import { paddedBox, searchArea } from "./search";
import { joinTexts, sameReading } from "./split-text";

export type { LaidOut } from "./blocks";
export type { Lettering } from "./finding";
export { MAX_SEARCH_PIXELS, searchArea } from "./search";

/** Margin (px) kept around a container found to hold a region's lettering: its outline and a little beyond. */
const HELD_MARGIN = 6;
/** Another region's box claims a component this much more than the region's own box does. */
const DUPLICATE_BOXES = 0.5;

/**
 * The blocks of the regions given, found in `crop` of an image of `image`'s size (the crop holds
 * each region's search area, or the part of it a tile of a region larger than a crop holds).
 * Blocks to erase carry their lettering.
 */
export function layoutCrop(
	crop: Patch,
	regions: TranslatedRegion[],
	image: { width: number; height: number },
): LaidOut[] {
	const findings: Finding[] = [];
	const open: OpenRegion[] = [];
	const backgrounds: Backgrounds = new Map();
	const boxes = regions.map((r) => ({ id: r.id, box: clipBox(r.box, crop.box) }));
	for (const region of regions) {
		const search = clipBox(searchArea(region.box, image), crop.box);
		const readerBox = clipBox(region.box, search);
		if (readerBox.x1 - readerBox.x0 < 2 || readerBox.y1 - readerBox.y0 < 2) continue;
		// A region whose box is centred in a container found for another is in that container.
		const holder = findings.find((f) => f.closed && holds(f, centre(readerBox)));
		if (holder) {
			findings.push({ ...holder, region, text: region.text, translation: region.translation, part: 0 });
			continue;
		}
		const padded = paddedBox(readerBox, search);
		const first = cutPatch(crop, padded);
		if (first.width < 3 || first.height < 3) continue;
		const { bg: measured } = measuredAt(crop, backgrounds, readerBox, search);
		const claimed = (shape: { box: Box; inside: Uint8Array }) =>
			boxes.some((o) => o.id !== region.id && holdsPoint(shape.box, shape.inside, centre(o.box)));
		// On screentone or a gradient, the box's own colours may be those of panels or labels it runs
		// over the edge of, or holds two of (a caption box run onto tone, two signs on a wall). On
		// texture, those flat as paper (none on a photo): a balloon the box ran past onto art. A bold
		// glyph's strokes close shapes too: in-container.ts tells them from containers.
		const flat = measured.kind === "flat";
		const shapesOfBox = measured.kind === "periodic" || measured.kind === "gradient";
		const containerColours = flat
			? [measured]
			: shapesOfBox
				? boxColours(first, toPatchBox(first, readerBox))
				: paperColours(first, toPatchBox(first, readerBox));
		let { found, rest, held } = findInShapes(crop, region, search, readerBox, containerColours, claimed, {
			enclosing: !flat,
			onArt: measured.kind === "texture",
		});
		// A box on a flat page around containers of other colours (a label and a balloon read as one):
		// those of the box's own colours, with room round their lettering, as off a flat background.
		const ofBox = flat && !held && found.length === 0;
		if (ofBox) {
			const others = boxColours(first, toPatchBox(first, readerBox)).filter((c) => !oneFlood(c, measured));
			const glyphSize = maxGlyph(region.text, readerBox, region.vertical);
			({ found, rest, held } = findInShapes(crop, region, search, readerBox, others, claimed, {
				enclosing: true,
				glyphSize,
			}));
		}
		if (held) {
			// Off a flat background the box may run past the container onto art, which holds none of its
			// lettering; a box around containers apart holds each one's lettering only within it.
			const whole = flat && !ofBox && held.containers.length === 1;
			const parts = held.containers.map((container) => {
				const lettered = whole ? readerBox : clipBox(readerBox, grow(container.box, HELD_MARGIN));
				return { container, readerBox: lettered, padded: whole ? padded : paddedBox(lettered, search) };
			});
			const one = parts.length === 1 ? parts[0] : undefined;
			open.push({
				region,
				part: 0,
				search,
				readerBox: one?.readerBox ?? readerBox,
				bg: held.bg,
				padded: one?.padded ?? padded,
				colour: centreColour(held.bg, first.width, first.height),
				held: parts,
			});
			continue;
		}
		if (found.length > 0) {
			findings.push(...found);
			if (rest) {
				const readerBox = clipBox(rest.box, search);
				open.push({
					region: rest,
					part: rest.part,
					search,
					readerBox,
					...measuredAt(crop, backgrounds, readerBox, search),
				});
			}
			continue;
		}
		const colour = centreColour(measured, first.width, first.height);
		open.push({ region, part: 0, search, readerBox, bg: measured, padded, colour });
	}
	// Free lettering after every container is known: a glyph in another block's balloon is never taken.
	const containers = findings.filter((f) => f.closed);
	for (const entry of open) {
		const { region, part, search, readerBox, bg, padded, colour, held } = entry;
		if (!held) {
			const free = freeLettering(crop, backgrounds, entry, boxes, containers);
			const near = free.length === 1 && !free[0]!.lettering ? nearContainer(crop, entry, boxes, containers) : undefined;
			// A container taken so is no other region's to take from near.
			if (near) containers.push(near);
			findings.push(...(near ? [near] : free));
			continue;
		}
		const { beside } = ownedElsewhere(region, readerBox, boxes, containers);
		const apart =
			held.length === 1 ? besideHeld(crop, backgrounds, entry, held[0]!.container, boxes, containers) : undefined;
		if (apart) {
			findings.push(...apart.map((f) => ({ ...f, part: part + f.part })));
			continue;
		}
		const tried = held.map((h) =>
			findAround(crop, region, search, h.readerBox, bg, h.padded, beside(h.readerBox), colour, h.container),
		);
		const lettered = tried.flatMap((f, k) =>
			f.lettering ? [{ ...f, container: held[k]!.container, closed: true }] : [],
		);
		if (lettered.length > 0) {
			// Each container its share of the text: by the lines it holds, or the characters its lettering
			// holds. A container held alone takes all of it: found from a box around it whole, it may be a
			// piece of a balloon its lettering cuts (glyphs fitted to the outline), which no line lies in.
			const { found: shared, rest } = lettered.length > 1 ? shareOut(region, lettered) : { found: lettered };
			findings.push(...shared.map((f) => ({ ...f, part: part + f.part })));
			// Lines no container holds (lettering on the page beside the containers the box held) are
			// free lettering, looked for as the reader's lines place it; it takes no glyph of those containers.
			if (rest) {
				const restBox = clipBox(rest.box, search);
				const at = { region: rest, part: part + rest.part, search, readerBox: restBox };
				const beside = [...containers, ...shared];
				const measured = measuredAt(crop, backgrounds, restBox, search);
				findings.push(...freeLettering(crop, backgrounds, { ...at, ...measured }, boxes, beside));
			}
			continue;
		}
		// Nothing found in a container held: the box is covered, as where no container is.
		const finding =
			tried.length === 1
				? tried[0]!
				: findAround(crop, region, search, readerBox, bg, padded, beside(readerBox), colour, held[0]?.container);
		if (finding.lettering) findings.push({ ...finding, part });
		else findings.push({ ...reachingOn(crop, finding, lineReach(crop, readerBox, region.vertical, search), bg), part });
	}
	return groupBlocks(findings.map((f) => withLettering(crop, f)));
}

/** A region (or the part of one a container left) whose lettering is looked for once every container is known. */
interface OpenRegion {
	region: TranslatedRegion;
	part: number;
	search: Box;
	readerBox: Box;
	bg: Background;
	padded: Box;
	colour: Rgb;
	/** Containers the box holds whole, each with the part of the box its lettering is looked for in. */
	held?: { container: Container; readerBox: Box; padded: Box }[];
}

/**
 * A box holding a container whole and lettering on the page beside it (the reader merged a balloon
 * and a caption, without per-line boxes): the lettering each holds decides what is whose, not the
 * box. The widest strip of the box outside the container (its outline's margin aside) is looked at
 * as free lettering, taking no glyph that reaches the container; when lettering is found there and
 * in the container (looked for within it only), each gets its share of the text by the characters
 * its lettering holds (shareOut). Undefined when the strip holds no lettering: the container then
 * takes the region whole, as before.
 */
function besideHeld(
	crop: Patch,
	backgrounds: Backgrounds,
	{ region, search, readerBox, bg, colour }: OpenRegion,
	container: Container,
	boxes: { id: number; box: Box }[],
	containers: Finding[],
): Finding[] | undefined {
	const margin = grow(container.box, HELD_MARGIN);
	const strips = [
		{ ...readerBox, y1: Math.min(readerBox.y1, margin.y0) },
		{ ...readerBox, y0: Math.max(readerBox.y0, margin.y1) },
		{ ...readerBox, x1: Math.min(readerBox.x1, margin.x0) },
		{ ...readerBox, x0: Math.max(readerBox.x0, margin.x1) },
	].filter((s) => Math.min(s.x1 - s.x0, s.y1 - s.y0) >= MIN_STRIP);
	const strip = strips.sort((a, b) => area(b) - area(a))[0];
	if (!strip) return undefined;
	const reachesContainer = (c: Box) => overlap(c, margin) > 0;
	const stripOwned = ownedElsewhere(region, strip, boxes, containers).beside(strip);
	const at = measuredAt(crop, backgrounds, strip, search);
	const owned = (c: Box) => reachesContainer(c) || stripOwned(c);
	// A caption is a line or two of a strip the box's error made tall: any lettering there, looked
	// for again from its own box, as a reader boxing it alone would ask (a stray mark is not text).
	const probed = findAround(crop, region, search, strip, at.bg, at.padded, owned, at.colour, undefined, true);
	if (!probed.lettering) return undefined;
	const lettered = clipBox(grow(probed.textBox, 2), search);
	const near = measuredAt(crop, backgrounds, lettered, search);
	const free = findAround(crop, region, search, lettered, near.bg, near.padded, owned, near.colour);
	// Lettering a line's height or more from the container is the page's; nearer, it is the rest of a
	// tight balloon the container is a piece of (its glyphs cut the paper), and the balloon takes it.
	if (!free.lettering || distance(free.textBox, container.box) < Math.max(MIN_STRIP, free.measures.sourceSize))
		return undefined;
	const inside = clipBox(readerBox, margin);
	const insideOwned = ownedElsewhere(region, inside, boxes, containers).beside(inside);
	const ownedHere = (c: Box) => insideOwned(c) || overlap(c, free.textBox) >= 0.5 * area(c);
	const held = findAround(crop, region, search, inside, bg, paddedBox(inside, search), ownedHere, colour, container);
	if (!held.lettering) return undefined;
	const { lines: _byLettering, ...read } = region;
	return shareOut(read, [{ ...held, container, closed: true }, free]).found;
}

/** Thickness (px) of a strip of the box beside a container held, at least, to be looked at for lettering: a line of small print. */
const MIN_STRIP = 12;

/**
 * What free lettering looked for from the region's box leaves to others: glyphs (their boxes, image
 * px) in a container found, and, `beside(box)`, those another region's box (not a repeat of this
 * one's) holds more of than `box` does.
 */
function ownedElsewhere(
	region: TranslatedRegion,
	readerBox: Box,
	boxes: { id: number; box: Box }[],
	containers: Finding[],
): { inContainer: (c: Box) => boolean; others: Box[]; beside: (box: Box) => (c: Box) => boolean } {
	const others = boxes.filter((o) => o.id !== region.id && iou(o.box, readerBox) < DUPLICATE_BOXES).map((o) => o.box);
	const inContainer = (c: Box) => containers.some((f) => holds(f, centre(c)));
	const beside = (box: Box) => (c: Box) =>
		inContainer(c) || others.some((o) => overlap(c, o) > Math.max(overlap(c, box), 0.5 * area(c)));
	return { inContainer, others, beside };
}

/**
 * Lettering on open background or art: the region's glyphs, a finding per caption when it was read
 * over captions lying apart (captions.ts), or, when no lettering could be told from the art, a cover
 * run on along its line.
 */
function freeLettering(
	crop: Patch,
	backgrounds: Backgrounds,
	{ region, part, search, readerBox, bg, padded, colour }: OpenRegion,
	boxes: { id: number; box: Box }[],
	containers: Finding[],
): Finding[] {
	const { inContainer, others, beside } = ownedElsewhere(region, readerBox, boxes, containers);
	const finding = findAround(crop, region, search, readerBox, bg, padded, beside(readerBox), colour);
	// A box around captions lying apart (the reader merged them): a finding each.
	const look: LookFree = (caption, box, probe, apart) => {
		const at = measuredAt(crop, backgrounds, box, search);
		// A probe takes no glyph another region's box holds half of; a caption, none its sibling's box holds more of.
		const elsewhere = [...others, ...apart];
		const ownedHere = (c: Box) =>
			inContainer(c) ||
			elsewhere.some((o) =>
				probe ? overlap(c, o) >= 0.5 * area(c) : overlap(c, o) > Math.max(overlap(c, box), 0.5 * area(c)),
			);
		const found = findAround(crop, caption, search, box, at.bg, at.padded, ownedHere, at.colour, undefined, probe);
		return found.lettering || probe
			? found
			: reachingOn(crop, found, lineReach(crop, box, caption.vertical, search), at.bg);
	};
	const captions = captionsOf(region, readerBox, finding, look, search);
	// Parts of a part (free lines a container left) stay between it and the next.
	if (captions) return captions.map((f, k) => ({ ...f, part: part + k / captions.length }));
	if (finding.lettering) return [{ ...finding, part }];
	return [{ ...reachingOn(crop, finding, lineReach(crop, readerBox, region.vertical, search), bg), part }];
}

/**
 * The container a box holding none and finding no lettering missed (near.ts: moved off it, or cut from
 * a box merged over two), rather than a cover over the art the box is on. Lettering the box finds is
 * its own: a caption beside a balloon, or a halo around lettering on tone, which a flood of paper takes
 * for a shape. Never a container another block has, nor one another region's box (not a repeat of
 * this one's) is centred in or lies nearer its lettering than this box (or as near, meeting more of
 * it): that region's own container, its box off the other way.
 */
function nearContainer(
	crop: Patch,
	{ region, part, search, readerBox }: OpenRegion,
	boxes: { id: number; box: Box }[],
	containers: Finding[],
): Finding | undefined {
	const { others } = ownedElsewhere(region, readerBox, boxes, containers);
	const refused = ({ box, inside, enclosed }: { box: Box; inside: Uint8Array; enclosed: Box }) => {
		if (containers.some((f) => holdsPoint(box, inside, centre(f.container.box)))) return true;
		const gap = distance(readerBox, enclosed);
		return others.some((o) => {
			const other = distance(o, enclosed);
			return (
				holdsPoint(box, inside, centre(o)) ||
				other < gap ||
				(other === 0 && gap === 0 && overlap(o, enclosed) > overlap(readerBox, enclosed))
			);
		});
	};
	const found = containerNear(crop, region, search, readerBox, refused);
	return found ? { ...found, part } : undefined;
}

/**
 * The backgrounds measured in a crop, by the padded box and the box they were measured around: a box
 * looked at again (captions.ts probes the reader's box when its lettering was not found) takes the
 * same background, and with a pattern's shifts the ink scores made on them (ink.ts).
 */
type Backgrounds = Map<string, { bg: Background; padded: Box; colour: Rgb }>;

/** The background around `box` (image px), measured on its padded box, and the colour at its centre. */
function measuredAt(
	crop: Patch,
	backgrounds: Backgrounds,
	box: Box,
	search: Box,
): { bg: Background; padded: Box; colour: Rgb } {
	const padded = paddedBox(box, search);
	const key = [padded.x0, padded.y0, padded.x1, padded.y1, box.x0, box.y0, box.x1, box.y1].join();
	const known = backgrounds.get(key);
	if (known) return known;
	const patch = cutPatch(crop, padded);
	const bg = fitBackground(patch, toPatchBox(patch, box));
	const measured = { bg, padded, colour: centreColour(bg, patch.width, patch.height) };
	backgrounds.set(key, measured);
	return measured;
}

/**
 * A cover run on as far as its line's lettering: the box it covers, and its room, reach it too. Its
 * panel takes the colour of the art round it (cover-colour.ts).
 */
function reachingOn(crop: Patch, cover: Finding, line: Box, bg: Background): Finding {
	const box = union(cover.textBox, line);
	const colour = coverColour(crop, box, bg, cover.measures.backgroundColor);
	const measures =
		colour === cover.measures.backgroundColor
			? cover.measures
			: { ...cover.measures, backgroundColor: colour, textColor: cover.region.color ?? contrasting(colour) };
	return { ...cover, textBox: box, container: { kind: "free", box }, lineRun: line, measures };
}

/**
 * The page's blocks from every crop (one list per crop), settled: blocks of different crops that
 * share a container (or their lettering), or a region (the tiles of a region larger than a crop),
 * are one; free lettering much larger than the page's dialogue is a sound effect (in manga mode);
 * ids follow reading order (the reader's order of their first regions).
 */
export function settlePage(crops: TextBlock[][], mode: Mode): TextBlock[] {
	const merged: { block: TextBlock; crop: number }[] = [];
	for (const [crop, blocks] of crops.entries()) {
		for (const block of blocks) {
			const same = merged.find(
				(m) =>
					m.crop !== crop &&
					m.block.treatment === block.treatment &&
					(sameBlock(m.block, block) || m.block.regionIds.some((id) => block.regionIds.includes(id))),
			)?.block;
			if (same) joinBlock(same, block);
			else merged.push({ block: { ...block }, crop });
		}
	}
	// A crop's edge can cut a balloon open: a region there finds free lettering (or covers what it
	// could not find) where another crop found the balloon and all of its lettering. Such a block is
	// the balloon's: one translation in the balloon, no panel over it.
	const blocks = merged.map((m) => m.block);
	for (let k = blocks.length - 1; k >= 0; k--) {
		const block = blocks[k]!;
		if (block.container.kind !== "free") continue;
		const at = centre(block.textBox);
		const holder = blocks.find(
			(b) =>
				b !== block &&
				b.container.kind !== "free" &&
				b.treatment !== "keep" &&
				holdsPoint(b.container.box, b.container.inside, at) &&
				(block.treatment === "replace" || holdsPoint(b.textBox, undefined, at)),
		);
		if (!holder) continue;
		joinBlock(holder, block);
		blocks.splice(k, 1);
	}
	const dialogue = blocks
		.filter((b) => b.role === "dialogue")
		.map((b) => b.sourceSize)
		.sort((a, b) => a - b);
	const typical = dialogue[dialogue.length >> 1];
	const sorted = blocks.sort((a, b) => Math.min(...a.regionIds) - Math.min(...b.regionIds));
	return sorted.map((block, id) => ({
		...block,
		id,
		role:
			mode === "manga" && block.container.kind === "free" && typical && block.sourceSize >= SFX_SIZE * typical
				? "sfx"
				: block.role,
	}));
}

/**
 * `from`'s regions, lettering box and text join `into`, whose treatment stays; a balloon or panel
 * either found is the container. Two regions reading one lettering give the fuller one's text and translation.
 */
function joinBlock(into: TextBlock, from: TextBlock): void {
	const fromFirst = Math.min(...from.regionIds) < Math.min(...into.regionIds);
	const tiles = from.regionIds.some((id) => into.regionIds.includes(id));
	into.regionIds = [...new Set([...into.regionIds, ...from.regionIds])].sort((a, b) => a - b);
	// A cover's box is where it would have covered, not where lettering was found.
	if (from.treatment !== "cover") into.textBox = union(into.textBox, from.textBox);
	if (into.container.kind === "free" && from.container.kind === "free")
		into.container = { kind: "free", box: union(into.container.box, from.container.box) };
	else if (into.container.kind === "free") into.container = from.container;
	if (!sameReading(into.text, from.text)) {
		const [a, b] = fromFirst ? [from, into] : [into, from];
		into.text = joinTexts([a.text, b.text]);
		into.translation = joinTexts([a.translation, b.translation]);
	} else if (!tiles && [...from.text].length > [...into.text].length) {
		// Of two regions reading the same lettering the fuller stays (one crop's may be cut by a tile's
		// edge); the tiles of one region keep the part each was given when a crop shared it out.
		into.text = from.text;
		into.translation = from.translation;
	}
}

/** Free lettering this many times the page's dialogue size is a sound effect, not a caption. */
const SFX_SIZE = 2;

function sameBlock(a: TextBlock, b: TextBlock): boolean {
	if (a.container.kind !== "free" && b.container.kind !== "free") return iou(a.container.box, b.container.box) >= 0.9;
	return overlap(a.textBox, b.textBox) >= 0.5 * Math.min(area(a.textBox), area(b.textBox));
}

/** Whether two flat colours are one to a container's flood. */
function oneFlood(a: Background, b: Background): boolean {
	const [ca, cb] = [colourOf(a), colourOf(b)];
	return ca.every((v, c) => Math.abs(v - cb[c]!) <= FLOOD_TOLERANCE);
}

function centreColour(bg: Background, w: number, h: number): Rgb {
	const at = (c: number) => Math.max(0, Math.min(255, Math.round(predict(bg, w / 2, h / 2, c))));
	return [at(0), at(1), at(2)];
}
