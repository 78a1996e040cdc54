/**
 * A rough reader: what real vision models do to the boxes of a page, done deterministically to exact
 * ones, so that tests and benchmarks can see how the pipeline copes (issue 10).
 *
 *   - every box (and line box) is moved, its centre off by up to 12% of its size on each axis, and
 *     scaled by -20% to +30% on each axis;
 *   - some boxes are cut short: they hold only some of the columns or lines of their block;
 *   - some neighbouring regions are merged into one (two balloons read as one block), keeping their
 *     per-line boxes half of the time;
 *   - some regions are split in two (one balloon read as two blocks);
 *   - some regions are repeated, each copy with its own error, as where overlapping tiles meet.
 *
 * Regions are `{ text, box: { x0, y0, x1, y1 }, vertical?, lines?: [{ text, box }], translation?, ... }`
 * in any unit; `width` and `height` bound the boxes. The same regions and seed always give the same
 * result, and a region's fate depends on its own text and place, not on how many regions precede it.
 *
 *   roughen(regions, { seed: 7, width: 720, height: 540 })
 *   roughen(regions, { seed: 7, cut: 1, merge: 0, split: 0, duplicate: 0 })   // every box jittered and cut short
 *
 * `roughDocument` does the same to a reader's answer in the model contract (boxes as arrays).
 */

import { random } from "../../bench/corpus/backgrounds.mjs";

/** What happens, by default, to a share of regions (each decided by the region's own draw). */
export const ROUGH_DEFAULTS = {
	/** The centre moves by up to this share of the box's size, on each axis. */
	shift: 0.12,
	/** Each side's length is scaled by a factor drawn from [1 + shrink, 1 + grow]. */
	shrink: -0.2,
	grow: 0.3,
	/** Share of regions whose box is cut short (keeps 40% to 75% of its columns or lines). */
	cut: 0.2,
	/** Share of regions merged with the next one in reading order, when that one is near. */
	merge: 0.15,
	/** Share of regions split in two. */
	split: 0.12,
	/** Share of regions repeated (another copy, its own error). */
	duplicate: 0.1,
};

/**
 * @template {{ text: string, box: { x0: number, y0: number, x1: number, y1: number }, vertical?: boolean,
 *   lines?: { text: string, box: { x0: number, y0: number, x1: number, y1: number } }[] | null, translation?: string }} R
 * @param {R[]} regions
 * @param {Partial<typeof ROUGH_DEFAULTS> & { seed?: number, width?: number, height?: number }} [options]
 * @returns {R[]}
 */
export function roughen(regions, options = {}) {
	const o = { ...ROUGH_DEFAULTS, seed: 1, width: 1000, height: 1000, ...options };
	const drawFor = (region, salt) => random(hash(`${o.seed}|${salt}|${region.text}|${Math.round(region.box.x0)}`));

	// Merges first (they need the neighbours as the reader would have seen them), then splits.
	const merged = [];
	for (let i = 0; i < regions.length; i++) {
		const region = regions[i];
		const next = regions[i + 1];
		if (next && drawFor(region, "merge")() < o.merge && near(region.box, next.box)) {
			const keepLines = drawFor(region, "merge-lines")() < 0.5;
			merged.push(mergeTwo(region, next, keepLines));
			i++;
		} else merged.push(region);
	}
	const pieces = merged.flatMap((region) => (drawFor(region, "split")() < o.split ? splitInTwo(region) : [region]));

	const out = [];
	for (const region of pieces) {
		const draw = drawFor(region, "box");
		const rough = { ...region, box: jitter(region.box, draw, o) };
		if (drawFor(region, "cut")() < o.cut) rough.box = cutShort(rough.box, region, draw);
		if (region.lines)
			rough.lines = region.lines.map((line) => ({ ...line, box: jitter(line.box, drawFor(line, "line"), o) }));
		out.push(rough);
		if (drawFor(region, "duplicate")() < o.duplicate) {
			out.push({ ...region, box: jitter(region.box, drawFor(region, "copy"), o), lines: rough.lines });
		}
	}
	return out.filter((r) => r.box.x1 - r.box.x0 >= 1e-6 && r.box.y1 - r.box.y0 >= 1e-6);
}

/** Centre off by up to `shift` of the size on each axis, each side scaled within [shrink, grow], clipped. */
function jitter(box, draw, o) {
	const w = box.x1 - box.x0;
	const h = box.y1 - box.y0;
	const cx = (box.x0 + box.x1) / 2 + (draw() * 2 - 1) * o.shift * w;
	const cy = (box.y0 + box.y1) / 2 + (draw() * 2 - 1) * o.shift * h;
	const sw = w * (1 + o.shrink + draw() * (o.grow - o.shrink));
	const sh = h * (1 + o.shrink + draw() * (o.grow - o.shrink));
	return clip({ x0: cx - sw / 2, y0: cy - sh / 2, x1: cx + sw / 2, y1: cy + sh / 2 }, o);
}

/**
 * Keeps 40% to 75% of the box along the way its lines follow one another (columns right to left for
 * vertical text, lines top to bottom otherwise; along the line for a single horizontal line), from
 * one end or the other.
 */
function cutShort(box, region, draw) {
	const keep = 0.4 + draw() * 0.35;
	const fromStart = draw() < 0.5;
	const acrossX = region.vertical || (region.lines?.length ?? 1) < 2;
	const [a, b] = acrossX ? [box.x0, box.x1] : [box.y0, box.y1];
	const span = (b - a) * keep;
	const [c, d] = fromStart ? [a, a + span] : [b - span, b];
	return acrossX ? { ...box, x0: c, x1: d } : { ...box, y0: c, y1: d };
}

/** Two regions read as one: the union of the boxes, texts and translations joined in reading order. */
function mergeTwo(a, b, keepLines) {
	const linesOf = (r) => r.lines ?? [{ text: r.text, box: r.box }];
	const merged = {
		...a,
		text: `${a.text}\n${b.text}`,
		box: union(a.box, b.box),
		lines: keepLines ? [...linesOf(a), ...linesOf(b)] : undefined,
	};
	if (!keepLines) delete merged.lines;
	if (a.translation !== undefined || b.translation !== undefined)
		merged.translation = [a.translation, b.translation].filter(Boolean).join(" ");
	return merged;
}

/**
 * One region read as two: at a line boundary when it has lines, else at the middle of its text;
 * the box divided in proportion along the way the lines follow one another.
 */
function splitInTwo(region) {
	if (!cutsBetweenParts(region.translation)) return [region];
	const lines = region.lines ?? [];
	if (lines.length >= 2) {
		const cut = Math.ceil(lines.length / 2);
		const parts = [lines.slice(0, cut), lines.slice(cut)];
		const translations = splitTranslation(region.translation, cut / lines.length);
		return parts.map((part, k) => ({
			...region,
			text: part.map((l) => l.text).join("\n"),
			...(translations ? { translation: translations[k] } : {}),
			box: union(...part.map((l) => l.box)),
			lines: part,
		}));
	}
	const chars = [...region.text];
	if (chars.length < 2) return [region];
	const words = region.text.split(" ");
	const head =
		words.length > 1
			? words.slice(0, Math.ceil(words.length / 2)).join(" ")
			: chars.slice(0, Math.ceil(chars.length / 2)).join("");
	const share = head.length / region.text.length;
	const texts = [head, region.text.slice(head.length).trim()];
	const translations = splitTranslation(region.translation, share);
	const b = region.box;
	const mid = region.vertical ? b.y0 + (b.y1 - b.y0) * share : b.x0 + (b.x1 - b.x0) * share;
	const boxes = region.vertical
		? [
				{ ...b, y1: mid },
				{ ...b, y0: mid },
			]
		: [
				{ ...b, x1: mid },
				{ ...b, x0: mid },
			];
	const { lines: _none, ...rest } = region;
	return texts.map((text, k) => ({
		...rest,
		text,
		...(translations ? { translation: translations[k] } : {}),
		box: boxes[k],
	}));
}

/**
 * Whether a translation can be cut as two halves' translations would read: a real reader's halves
 * are translated apart, so a word of a spaced script ("Exit") never comes back cut in two ("Ex it").
 */
function cutsBetweenParts(translation) {
	return translation === undefined || translation.includes(" ") || UNSPACED.test(translation);
}
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;

/** A translation in two, its first part about `share` of it (cut at a word, or a character for CJK). */
function splitTranslation(translation, share) {
	if (translation === undefined) return undefined;
	const words = translation.split(" ");
	const units = words.length > 1 ? words : [...translation];
	const cut = Math.min(units.length - 1, Math.max(1, Math.round(units.length * share)));
	const glue = words.length > 1 ? " " : "";
	return [units.slice(0, cut).join(glue), units.slice(cut).join(glue)];
}

/** Two boxes whose gap is under their larger side: neighbours on a page. */
function near(a, b) {
	const gapX = Math.max(0, Math.max(a.x0, b.x0) - Math.min(a.x1, b.x1));
	const gapY = Math.max(0, Math.max(a.y0, b.y0) - Math.min(a.y1, b.y1));
	const side = Math.max(a.x1 - a.x0, a.y1 - a.y0, b.x1 - b.x0, b.y1 - b.y0);
	return gapX < side && gapY < side;
}

function union(...boxes) {
	return {
		x0: Math.min(...boxes.map((b) => b.x0)),
		y0: Math.min(...boxes.map((b) => b.y0)),
		x1: Math.max(...boxes.map((b) => b.x1)),
		y1: Math.max(...boxes.map((b) => b.y1)),
	};
}

function clip(box, { width, height }) {
	const cx = (v) => Math.min(width, Math.max(0, v));
	const cy = (v) => Math.min(height, Math.max(0, v));
	return { x0: cx(box.x0), y0: cy(box.y0), x1: cx(box.x1), y1: cy(box.y1) };
}

/** FNV-1a of a string: the seed of a region's own draws. */
function hash(text) {
	let h = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
	return h >>> 0;
}

/**
 * A reader's answer (`{ regions: [{ text, box | box_2d: [...], lines? }] }`, the model contract) made
 * rough. `field` is the box's name (`box_2d` is Gemini's [y0, x0, y1, x1]); `bound` the unit's extent
 * on each axis (1000 for the contract's 0..1000, the image size for pixels).
 */
export function roughDocument(document, { field, bound, options }) {
	const toBox = (a) => {
		const [x0, y0, x1, y1] = field === "box_2d" ? [a[1], a[0], a[3], a[2]] : a;
		return { x0: Math.min(x0, x1), y0: Math.min(y0, y1), x1: Math.max(x0, x1), y1: Math.max(y0, y1) };
	};
	const round = (v) => (bound.width > 10 ? Math.round(v) : Math.round(v * 1000) / 1000);
	const toArray = (b) => {
		const [x0, y0, x1, y1] = [b.x0, b.y0, b.x1, b.y1].map(round);
		return field === "box_2d" ? [y0, x0, y1, x1] : [x0, y0, x1, y1];
	};
	const regions = document.regions.map(({ [field]: box, lines, ...rest }) => ({
		...rest,
		box: toBox(box),
		...(lines ? { lines: lines.map(({ [field]: lineBox, ...line }) => ({ ...line, box: toBox(lineBox) })) } : {}),
	}));
	const rough = roughen(regions, { ...options, width: bound.width, height: bound.height });
	return {
		...document,
		regions: rough.map(({ box, lines, ...rest }) => ({
			...rest,
			[field]: toArray(box),
			...(lines ? { lines: lines.map(({ box: lineBox, ...line }) => ({ ...line, [field]: toArray(lineBox) })) } : {}),
		})),
	};
}
