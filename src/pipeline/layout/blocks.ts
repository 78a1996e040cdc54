/**
 * Findings grouped into blocks: regions in the same container are one block, texts and translations
 * joined in reading order; regions repeating one another (tiles overlapping, a model reading a
 * balloon twice) are one region; the treatment of each block follows from what was found.
 */
import { area, overlap, union, within } from "../patch";
import type { Box, TextBlock } from "../types";
import { shiftBackground } from "./background";
import type { Finding, Lettering } from "./finding";
import { readingOrder } from "./in-container";
import { reframe } from "./masks";
import { joinTexts, sameReading, sameText } from "./split-text";

/** A block and, when it is to be erased, its lettering for the erase stage. */
export interface LaidOut {
	block: TextBlock;
	lettering?: Lettering;
}

/** Two containers are the same when their boxes overlap this much (intersection over union). */
const SAME_CONTAINER = 0.8;
/** Two findings share lettering when this share of the smaller one's glyph pixels are the other's too. */
const SHARED_INK = 0.3;
/** Free areas overlapping this much of the smaller one are one block's. */
const NESTED = 0.5;
/** Two boxes with nothing found in them repeat one another from this intersection over union... */
const SAME_BOX = 0.8;
/** ...or, reading the same text, from this share of the smaller box. */
const SAME_TEXT_OVERLAP = 0.6;

export function groupBlocks(findings: Finding[]): LaidOut[] {
	const parent = findings.map((_, k) => k);
	const root = (k: number): number => {
		while (parent[k] !== k) k = parent[k] = parent[parent[k]!]!;
		return k;
	};
	for (let i = 0; i < findings.length; i++) {
		for (let j = i + 1; j < findings.length; j++) {
			if (together(findings[i]!, findings[j]!)) parent[root(j)] = root(i);
		}
	}
	joinCoveredLines(findings, parent, root);
	const groups = new Map<number, Finding[]>();
	for (const [k, f] of findings.entries()) groups.set(root(k), [...(groups.get(root(k)) ?? []), f]);
	return [...groups.values()].map(blockOf);
}

function together(a: Finding, b: Finding): boolean {
	// Parts of one region went to different containers on purpose.
	if (a.region.id === b.region.id && a.part !== b.part) return false;
	if (a.closed && b.closed) {
		if (iou(a.container.box, b.container.box) >= SAME_CONTAINER) return true;
		// A piece of a tight panel (its lettering cuts the paper) found from one box, the whole panel
		// from another: the piece lies in the panel, and its glyphs are the panel's.
		const nested = within(a.container.box, b.container.box) || within(b.container.box, a.container.box);
		return nested && !!a.lettering && !!b.lettering && sharedInk(a.lettering, b.lettering) >= SHARED_INK;
	}
	// A box centred in a container, with nothing found of its own (its glyphs are the container's).
	if (
		(a.closed && !b.lettering && holds(a, centre(b.region.box))) ||
		(b.closed && !a.lettering && holds(b, centre(a.region.box)))
	)
		return true;
	if (a.lettering && b.lettering) {
		// Free lettering whose areas lie one within the other (lines of one paragraph read apart) is one block.
		const free = !a.closed && !b.closed;
		const nested =
			overlap(a.container.box, b.container.box) >= NESTED * Math.min(area(a.container.box), area(b.container.box));
		return sharedInk(a.lettering, b.lettering) >= SHARED_INK || (free && (nested || oneLine(a, b)));
	}
	const ra = a.region.box;
	const rb = b.region.box;
	if (iou(ra, rb) >= SAME_BOX) return true;
	return sameReading(a.text, b.text) && overlap(ra, rb) >= SAME_TEXT_OVERLAP * Math.min(area(ra), area(rb));
}

/**
 * Free lettering of one line read as two regions (a title cut between two glyphs): the two run on
 * along the same line, no further apart than a glyph's spacing, at about one size.
 */
function oneLine(a: Finding, b: Finding): boolean {
	const vertical = a.region.vertical && b.region.vertical;
	const [ta, tb] = [a.textBox, b.textBox];
	const [a0, a1, b0, b1] = vertical ? [ta.x0, ta.x1, tb.x0, tb.x1] : [ta.y0, ta.y1, tb.y0, tb.y1];
	const across = Math.min(a1, b1) - Math.max(a0, b0);
	const [sa, sb] = [a.measures.sourceSize, b.measures.sourceSize];
	const along = vertical ? Math.max(ta.y0 - tb.y1, tb.y0 - ta.y1) : Math.max(ta.x0 - tb.x1, tb.x0 - ta.x1);
	return (
		across >= ONE_LINE * Math.min(a1 - a0, b1 - b0) &&
		along <= LINE_GAP * Math.max(sa, sb) &&
		Math.max(sa, sb) <= SAME_SIZE * Math.min(sa, sb)
	);
}

/** A group of findings all to be covered: their reader boxes' union and the longest along the line. */
interface CoveredGroup {
	box: Box;
	longest: number;
	vertical: boolean;
}

/**
 * Pieces to be covered that run on along one line (a caption the reader split in two, its boxes
 * touching or overlapping) are one block: one panel holding the whole translation, not two panels
 * each hiding part of the other's. Nothing but the reader's boxes says where their lettering is,
 * and grouping chains: so pieces are joined closest first, and a group never grows longer along
 * its line than a caption read in two (CAPTION_PIECES times its longest piece); a row of labels a
 * word space apart keeps a panel each.
 */
function joinCoveredLines(findings: Finding[], parent: number[], root: (k: number) => number): void {
	// null: the group holds lettering found (or a container), and is never covered.
	const groups = new Map<number, CoveredGroup | null>();
	for (const [k, f] of findings.entries()) {
		const r = root(k);
		const group = groups.get(r);
		if (group === null) continue;
		if (!toCover(f)) {
			groups.set(r, null);
			continue;
		}
		const { box, vertical } = f.region;
		const length = alongLine(box, vertical);
		groups.set(
			r,
			group
				? { box: union(group.box, box), longest: Math.max(group.longest, length), vertical }
				: { box, longest: length, vertical },
		);
	}
	const pairs: { i: number; j: number; gap: number }[] = [];
	for (let i = 0; i < findings.length; i++) {
		for (let j = i + 1; j < findings.length; j++) {
			const [a, b] = [findings[i]!, findings[j]!];
			if (!groups.get(root(i)) || !groups.get(root(j)) || root(i) === root(j)) continue;
			if (a.region.id === b.region.id) continue;
			const gap = runsOn(a, b);
			if (gap !== null) pairs.push({ i, j, gap });
		}
	}
	pairs.sort((p, q) => p.gap - q.gap);
	for (const { i, j } of pairs) {
		const [ri, rj] = [root(i), root(j)];
		const [a, b] = [groups.get(ri), groups.get(rj)];
		if (ri === rj || !a || !b) continue;
		const box = union(a.box, b.box);
		const longest = Math.max(a.longest, b.longest);
		if (alongLine(box, a.vertical) > CAPTION_PIECES * longest) continue;
		parent[rj] = ri;
		groups.set(ri, { box, longest, vertical: a.vertical });
	}
}

/** A finding whose block would be covered: nothing found, no container, and its text is to change. */
function toCover(f: Finding): boolean {
	return !f.lettering && !f.closed && !sameText(f.text, f.translation);
}

/**
 * How far apart two covers' lettering lies along one line they share (negative where it overlaps),
 * or null when they are not one line at one size: across it their boxes share most of the thinner
 * one, their thicknesses are within the reader's error of one another, and the gap between their
 * lettering (each box run on as far as its lettering was seen to go) is under a word space.
 */
function runsOn(a: Finding, b: Finding): number | null {
	const vertical = a.region.vertical;
	if (vertical !== b.region.vertical) return null;
	const [ta, tb] = [a.region.box, b.region.box];
	const [a0, a1, b0, b1] = vertical ? [ta.x0, ta.x1, tb.x0, tb.x1] : [ta.y0, ta.y1, tb.y0, tb.y1];
	const thin = Math.min(a1 - a0, b1 - b0);
	const thick = Math.max(a1 - a0, b1 - b0);
	const across = Math.min(a1, b1) - Math.max(a0, b0);
	const [ra, rb] = [a.lineRun ?? ta, b.lineRun ?? tb];
	const gap = vertical ? Math.max(ra.y0 - rb.y1, rb.y0 - ra.y1) : Math.max(ra.x0 - rb.x1, rb.x0 - ra.x1);
	const oneLine = across >= ONE_LINE * thin && thick <= COVER_SAME_SIZE * thin && gap <= COVER_GAP * thick;
	return oneLine ? gap : null;
}

function alongLine(box: Box, vertical: boolean): number {
	return vertical ? box.y1 - box.y0 : box.x1 - box.x0;
}

/** Boxes of one line read apart are this much thicker than one another at most (the reader's error)... */
const COVER_SAME_SIZE = 1.5;
/** ...and at most this share of the thicker apart along it: a word space (a line's box is about 1.3 em). */
const COVER_GAP = 0.3;
/** A group of covered pieces is at most this many times its longest piece long along its line. */
const CAPTION_PIECES = 2.5;

/** Lines sharing this much of the thinner one's height (width, in columns) are one line... */
const ONE_LINE = 0.7;
/** ...when their lettering is at most this many glyph sizes apart along it... */
const LINE_GAP = 0.5;
/** ...and the larger glyphs at most this much larger than the smaller. */
const SAME_SIZE = 1.3;

function blockOf(group: Finding[]): LaidOut {
	const vertical = group.filter((f) => f.region.vertical).length * 2 > group.length;
	const ordered = [...group].sort(
		(a, b) => readingOrder(a.region.box, b.region.box, vertical) || a.region.id - b.region.id || a.part - b.part,
	);
	// Of readings of the same lettering, the fullest stays.
	const kept = ordered.filter(
		(f, k) =>
			!ordered.some(
				(o, j) =>
					j !== k &&
					sameReading(o.text, f.text) &&
					([...o.text].length > [...f.text].length || ([...o.text].length === [...f.text].length && j < k)),
			),
	);
	const main = group.reduce((best, f) => (f.inkArea > best.inkArea ? f : best));
	const letterings = [...new Set(group.flatMap((f) => (f.lettering ? [f.lettering] : [])))];
	const lettering = letterings.reduce<Lettering | undefined>((a, b) => (a ? mergeLettering(a, b) : b), undefined);
	const found = group.filter((f) => f.lettering);
	const textBox = (found.length > 0 ? found : group).map((f) => f.textBox).reduce(union);
	// A panel found whole holds the pieces of it other boxes found: the whole one is the container.
	const closedOnes = group.filter((f) => f.closed);
	const closed =
		closedOnes.find((f) => closedOnes.every((o) => within(o.container.box, f.container.box))) ?? closedOnes[0];
	const container = closed?.container ?? {
		kind: "free" as const,
		box: group.map((f) => f.container.box).reduce(union),
	};
	const text = joinTexts(kept.map((f) => f.text));
	const translation = joinTexts(kept.map((f) => f.translation));
	const treatment: TextBlock["treatment"] = sameText(text, translation) ? "keep" : lettering ? "replace" : "cover";
	const block: TextBlock = {
		id: 0,
		regionIds: [...new Set(ordered.map((f) => f.region.id))],
		text,
		translation,
		vertical,
		container,
		textBox,
		treatment,
		role: container.kind === "balloon" ? "dialogue" : "caption",
		...main.measures,
	};
	return treatment === "replace" ? { block, lettering } : { block };
}

/** Share of the smaller lettering's glyph pixels that the other one also has. */
function sharedInk(a: Lettering, b: Lettering): number {
	const common = {
		x0: Math.max(a.box.x0, b.box.x0),
		y0: Math.max(a.box.y0, b.box.y0),
		x1: Math.min(a.box.x1, b.box.x1),
		y1: Math.min(a.box.y1, b.box.y1),
	};
	if (common.x1 <= common.x0 || common.y1 <= common.y0) return 0;
	const ma = reframe(a.mask, a.box, common);
	const mb = reframe(b.mask, b.box, common);
	let both = 0;
	for (let i = 0; i < ma.length; i++) both += ma[i]! & mb[i]!;
	const count = (m: Uint8Array) => m.reduce((n, v) => n + v, 0);
	const smaller = Math.min(count(a.mask), count(b.mask));
	return smaller === 0 ? 0 : both / smaller;
}

/** Both letterings over their union: glyphs and barriers of either; the background of the larger. */
function mergeLettering(a: Lettering, b: Lettering): Lettering {
	const box = union(a.box, b.box);
	const mask = reframe(a.mask, a.box, box);
	const other = reframe(b.mask, b.box, box);
	for (let i = 0; i < mask.length; i++) mask[i]! |= other[i]!;
	let barrier: Uint8Array | undefined;
	if (a.barrier || b.barrier) {
		barrier = new Uint8Array(mask.length);
		for (const l of [a, b]) {
			if (!l.barrier) continue;
			const part = reframe(l.barrier, l.box, box);
			for (let i = 0; i < barrier.length; i++) barrier[i]! |= part[i]!;
		}
		// A glyph pixel of one reading is never art in the other's.
		for (let i = 0; i < barrier.length; i++) barrier[i]! &= 1 - mask[i]!;
	}
	const larger = area(a.box) >= area(b.box) ? a : b;
	const background = shiftBackground(larger.background, box.x0 - larger.box.x0, box.y0 - larger.box.y0);
	return { box, mask, ...(barrier ? { barrier } : {}), background };
}

export function iou(a: Box, b: Box): number {
	const common = overlap(a, b);
	return common === 0 ? 0 : common / (area(a) + area(b) - common);
}

/** Whether the finding's container holds the point (its shape, when it has one). */
export function holds(f: Finding, point: [number, number]): boolean {
	return holdsPoint(f.container.box, f.container.inside, point);
}

export function holdsPoint(box: Box, inside: Uint8Array | undefined, [x, y]: [number, number]): boolean {
	if (x < box.x0 || y < box.y0 || x >= box.x1 || y >= box.y1) return false;
	return !inside || inside[(y - box.y0) * (box.x1 - box.x0) + (x - box.x0)] === 1;
}

export function centre(b: Box): [number, number] {
	return [Math.floor((b.x0 + b.x1) / 2), Math.floor((b.y0 + b.y1) / 2)];
}
