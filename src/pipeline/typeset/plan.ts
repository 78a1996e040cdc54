/**
 * The page plan: every block of the page laid out as glyphs, sizes decided page-wide, nothing
 * rasterised yet. Per block: clean the translation, shape it once with the target's fonts, find its
 * room (its container's inside) and the largest size it fits at; then per style group (page-style.ts)
 * one size, and each block laid out at that size or, when it can't hold it, at the largest it can.
 * drawBlock (draw.ts) turns one block's plan into an overlay when the pipeline reaches its rows.
 */
import type { Mode } from "../../request/options";
import type { Box, TextBlock } from "../types";
import { coverRoom, roomBesideCovers } from "./cover-room";
import { type FitOptions, type Fitted, fitText, layoutOverflowing } from "./fit";
import type { FontLoader } from "./font-cache";
import { FontSession } from "./font-cache";
import { fontFilesFor, isRightToLeft, lineSpacing, setsVertically } from "./fonts";
import type { Frame } from "./frame";
import { groupSize, styleGroups } from "./page-style";
import { type InkBounds, type PlacedGlyph, shift } from "./place";
import { haloFor, roomFrame } from "./room";
import { cleanTranslation } from "./sanitize";
import { type ShapedText, shapeParagraphs } from "./shape";
import { sourceFontSize } from "./source-size";
import { type Style, strokeReach, styleFor } from "./style";

export interface PageOptions {
	mode: Mode;
	targetLanguage: string;
	sourceLanguage: string;
	imageWidth: number;
	imageHeight: number;
	loadFont: FontLoader;
}

/** One block, laid out: what drawBlock needs, and what tests and benchmarks inspect. */
export interface BlockPlan {
	blockId: number;
	regionIds: number[];
	/** The overlay's rectangle in the image, whole px: drawBlock renders exactly this (its rows say when). */
	area: Box;
	/** The room the text was fitted in, image px (its bounding box). */
	room: Box;
	/** Font size set, px (0 for a panel with no text). */
	size: number;
	/** The size the block's style group was set at: larger than `size` when the block couldn't hold it. */
	groupSize: number;
	/** Not even the legible minimum fitted: the text is smaller than that, or runs past its room. */
	overflowed: boolean;
	vertical: boolean;
	lines: number;
	/** Placed in overlay px (relative to `area`'s top left). */
	glyphs: PlacedGlyph[];
	/** Ink bounds, image px, stroke reach included; absent for a panel with no text. */
	ink?: InkBounds;
	style: Style;
	/** The panel under the text, overlay px (light-novel's translucent one, a cover's opaque one). */
	panel?: { x: number; y: number; width: number; height: number };
}

export interface PagePlan {
	blocks: BlockPlan[];
	/** Reader region ids of blocks whose text did not fit at the legible minimum, or were not set at all. */
	overflow: number[];
	/** Lets the fonts the plan's glyphs use go; call once every block is drawn. */
	release(): void;
}

/** Beyond this many blocks the rest are left untypeset (and reported as overflow). */
export const MAX_BLOCKS = 2000;
/** Characters set on one page at most: the plan holds every glyph until its block is drawn. */
export const MAX_PAGE_CHARACTERS = 30_000;
/** Below this a reader squints (on large images the floor is a share of the image instead). */
export const MIN_LEGIBLE_PX = 10;
/** Smaller than legible, set only when the text fits its room no other way (reported as overflow). */
export const MIN_FONT_PX = 6;
/** No lettering is drawn larger than this. */
export const MAX_FONT_PX = 160;
/** A translation is set at most this much larger than the source lettering: it should read as the same voice. */
export const VOICE_HEADROOM = 1.1;
/**
 * An overlay's pixels at most (16 MB of RGBA, and as much again inside resvg while it renders):
 * long text is kept small enough for its ink to fit, a light-novel panel shrinks to the text.
 */
export const MAX_OVERLAY_PIXELS = 4_000_000;
/** Gap kept between ink and the room's edge (art), in em of the source size (at least a pixel). */
export const ART_GAP_EM = 0.08;
/** How far a cover panel reaches beyond the lettering it hides, in em of the source (at least 2 px). */
const COVER_MARGIN_EM = 0.15;

interface Prepared {
	block: TextBlock;
	frame: Frame;
	shaped?: ShapedText;
	voice: number;
	options: FitOptions;
	/** The most the text may be, px: its voice, the page's limit, the overlay memory bound. */
	cap: (voice: number) => number;
}

export async function planPage(blocks: TextBlock[], opts: PageOptions): Promise<PagePlan> {
	const session = new FontSession(opts.loadFont);
	const image = { width: opts.imageWidth, height: opts.imageHeight };
	const minSize = Math.max(MIN_LEGIBLE_PX, Math.min(image.width, image.height) / 120);
	const overflow: number[] = [];
	const prepared: Prepared[] = [];
	let characters = 0;
	const rooms = blocks.map((block) => ({
		block,
		frame: block.treatment === "keep" ? null : roomFrame(block, image),
	}));
	const roomed = rooms.flatMap(({ block, frame }) =>
		block.treatment === "keep" ? [{ block, room: block.textBox }] : frame ? [{ block, room: frame.box }] : [],
	);
	// Covers first: lettering on the art beside one gives way to it where its panel reaches.
	const covers = roomed.flatMap((r) =>
		r.block.treatment === "cover" ? [{ block: r.block, room: coverRoom(r, roomed) }] : [],
	);
	try {
		for (const [index, { block, frame: room }] of rooms.entries()) {
			if (block.treatment === "keep") continue;
			if (index >= MAX_BLOCKS) {
				overflow.push(...block.regionIds);
				continue;
			}
			if (!room) continue;
			const cover = covers.find((c) => c.block === block)?.room;
			const beside = cover ?? roomBesideCovers({ block, room: room.box }, covers);
			const frame = cover || beside !== room.box ? room.within(beside) : room;
			// A cover with no room left beside other blocks is not drawn: its lettering stays, reported.
			if (frame.box.x1 <= frame.box.x0 || frame.box.y1 <= frame.box.y0) {
				overflow.push(...block.regionIds);
				continue;
			}
			let paragraphs = cleanTranslation(block.translation);
			const length = paragraphs.reduce((n, p) => n + p.length, 0);
			if (characters + length > MAX_PAGE_CHARACTERS) {
				overflow.push(...block.regionIds);
				paragraphs = [];
			}
			characters += length;
			const item = await prepare(block, frame, paragraphs, opts, session, minSize);
			if (item.shaped || block.treatment === "cover") prepared.push(item);
		}

		const sized = new Map<Prepared, { fitted?: Fitted; groupSize: number; overflowed: boolean }>();
		const withText = prepared.filter((p) => p.shaped);
		for (const group of styleGroups(
			withText.map((p) => ({ role: p.block.role, voice: p.voice })),
			opts.mode,
		)) {
			const members = group.members.map((i) => withText[i] as Prepared);
			const fits = members.map((p) =>
				fitText(p.shaped?.paragraphs ?? [], p.frame, p.options, minSize, p.cap(group.voice)),
			);
			const size = groupSize(
				Math.max(minSize, Math.min(MAX_FONT_PX, group.voice * VOICE_HEADROOM)),
				fits.map((f) => f?.size ?? null),
			);
			members.forEach((p, k) => {
				const target = Math.min(size, p.cap(group.voice));
				const early = fits[k];
				const fitted = early && early.size <= target + 1e-9 ? early : undefined;
				sized.set(p, { ...(fitted ? { fitted, overflowed: false } : settle(p, target, minSize)), groupSize: size });
			});
		}

		const plans: BlockPlan[] = [];
		for (const p of prepared) {
			const { fitted, groupSize: group = 0, overflowed = false } = sized.get(p) ?? {};
			if (overflowed) overflow.push(...p.block.regionIds);
			const plan = toPlan(p, fitted, group, overflowed, opts);
			if (plan) plans.push(plan);
		}
		return { blocks: plans, overflow, release: () => session.release() };
	} catch (error) {
		session.release();
		throw error;
	}
}

async function prepare(
	block: TextBlock,
	frame: Frame,
	paragraphs: string[],
	opts: PageOptions,
	session: FontSession,
	minSize: number,
): Promise<Prepared> {
	const language = opts.targetLanguage;
	const vertical = block.vertical && setsVertically(language);
	const rightToLeft = isRightToLeft(language);
	const voice =
		Number.isFinite(block.sourceSize) && block.sourceSize > 0
			? block.sourceSize
			: sourceFontSize({ ...block, id: block.id, box: block.textBox });
	const align =
		opts.mode === "manga" || block.container.kind === "balloon" ? "center" : rightToLeft ? "right" : block.align;
	const options: FitOptions = {
		vertical,
		spacing: lineSpacing(language),
		align,
		reach: (size) => strokeReach(styleFor(opts.mode, block, size)),
		halo: (size) => haloFor(block, size),
		gap: Math.max(1, ART_GAP_EM * voice),
	};
	// Ink area of n characters is at most about n * (1.5 em)^2 in any script.
	const characters = paragraphs.reduce((n, p) => n + p.length, 0);
	const memoryBound = Math.sqrt(MAX_OVERLAY_PIXELS / (Math.max(1, characters) * 2.25));
	const cap = (groupVoice: number) =>
		Math.max(minSize, Math.min(MAX_FONT_PX, groupVoice * VOICE_HEADROOM, memoryBound));
	const item: Prepared = { block, frame, voice, options, cap };
	if (paragraphs.length === 0) return item;
	const shaped = await shapeParagraphs(paragraphs, {
		language,
		fontFiles: fontFilesFor(language, opts.mode, opts.sourceLanguage),
		session,
		rightToLeft,
		vertical,
	});
	// Nothing any face can draw (emoji only, say): nothing to place.
	if (shaped.paragraphs.some((p) => p.pieces.length > 0)) item.shaped = shaped;
	return item;
}

/**
 * The largest size up to `target` the block holds: whole words first, then long words cut where
 * they may be, then below the legible minimum (overflow), and last running past its room.
 */
function settle(p: Prepared, target: number, minSize: number): { fitted?: Fitted; overflowed: boolean } {
	const shaped = p.shaped;
	if (!shaped) return { overflowed: false };
	const whole = fitText(shaped.paragraphs, p.frame, p.options, minSize, target);
	if (whole) return { fitted: whole, overflowed: false };
	const cut = shaped.broken();
	const broken = fitText(cut, p.frame, p.options, minSize, target);
	if (broken) return { fitted: broken, overflowed: false };
	const floor = Math.min(MIN_FONT_PX, minSize);
	const small =
		fitText(shaped.paragraphs, p.frame, p.options, floor, minSize) ?? fitText(cut, p.frame, p.options, floor, minSize);
	return { fitted: small ?? layoutOverflowing(cut, floor, p.frame, p.options) ?? undefined, overflowed: true };
}

/** The block's overlay: its ink and its panel, in whole pixels of the image; glyphs moved into it. */
function toPlan(
	p: Prepared,
	fitted: Fitted | undefined,
	group: number,
	overflowed: boolean,
	opts: PageOptions,
): BlockPlan | null {
	const { block, frame } = p;
	const size = fitted?.size ?? 0;
	const style = styleFor(opts.mode, block, size || p.voice);
	const ink = fitted?.ink;
	let panel: Box | undefined;
	if (style.panel) {
		const pad = style.panel.padding;
		const text = ink && { x0: ink.x0 - pad, y0: ink.y0 - pad, x1: ink.x1 + pad, y1: ink.y1 + pad };
		if (block.treatment === "cover") {
			// The lettering it hides, and the text set on it, inside the room.
			const margin = Math.max(2, COVER_MARGIN_EM * p.voice);
			const t = block.textBox;
			const hidden = { x0: t.x0 - margin, y0: t.y0 - margin, x1: t.x1 + margin, y1: t.y1 + margin };
			panel = intersect(text ? union(hidden, text) : hidden, frame.box);
		} else {
			// Light-novel: over the whole source block, unless that is beyond the overlay budget.
			const t = block.textBox;
			const whole = text && union(text, { x0: t.x0 - pad, y0: t.y0 - pad, x1: t.x1 + pad, y1: t.y1 + pad });
			panel = whole && area(whole) <= MAX_OVERLAY_PIXELS ? whole : text;
		}
		if (panel && area(panel) > MAX_OVERLAY_PIXELS) panel = text;
	}
	const drawn = ink && panel ? union(ink, panel) : (ink ?? panel);
	if (!drawn) return null;
	const whole = {
		x0: Math.max(0, Math.floor(drawn.x0)),
		y0: Math.max(0, Math.floor(drawn.y0)),
		x1: Math.min(opts.imageWidth, Math.ceil(drawn.x1)),
		y1: Math.min(opts.imageHeight, Math.ceil(drawn.y1)),
	};
	if (whole.x1 <= whole.x0 || whole.y1 <= whole.y0) return null;
	const glyphs = fitted?.glyphs ?? [];
	shift(glyphs, -whole.x0, -whole.y0);
	return {
		blockId: block.id,
		regionIds: block.regionIds,
		area: whole,
		room: frame.box,
		size,
		groupSize: group,
		overflowed,
		vertical: p.options.vertical,
		lines: fitted?.lines ?? 0,
		glyphs,
		ink,
		style,
		panel: panel && {
			x: panel.x0 - whole.x0,
			y: panel.y0 - whole.y0,
			width: panel.x1 - panel.x0,
			height: panel.y1 - panel.y0,
		},
	};
}

const area = (b: Box) => (b.x1 - b.x0) * (b.y1 - b.y0);

function union(a: Box, b: Box): Box {
	return { x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) };
}

function intersect(a: Box, b: Box): Box {
	return { x0: Math.max(a.x0, b.x0), y0: Math.max(a.y0, b.y0), x1: Math.min(a.x1, b.x1), y1: Math.min(a.y1, b.y1) };
}
