/**
 * From what readers answered to regions of the original image: boxes mapped back from
 * the reader copy (or tile) to original pixels, clipped, degenerate ones dropped, and
 * duplicates merged (models repeat themselves, and neighbouring tiles overlap).
 */
import type { ReadRegion, UnitBox } from "../models/contract";
import type { Window } from "./read-copy";
import type { Box, TextRegion } from "./types";

/** A region in original pixels, before ids are given. */
export type PlacedRegion = Omit<TextRegion, "id"> & { translation?: string };

/** Smaller than this on either side, a box holds no legible text. */
const MIN_SIDE_PX = 2;
/** Two boxes overlapping this much (of the smaller one) with the same text are one region. */
const SAME_TEXT_OVERLAP = 0.6;
/** A region holding this much of each of two or more regions read apart holds them all. */
const HELD_APART = 0.6;

export function placeRegions(
	read: ReadRegion[],
	window: Window,
	image: { width: number; height: number },
): PlacedRegion[] {
	const place = (box: UnitBox) => toPixels(box, window, image);
	const placed: PlacedRegion[] = [];
	for (const region of read) {
		const box = place(region.box);
		const text = region.text.trim();
		if (!box || text === "") continue;
		const lines = region.lines?.flatMap((line) => {
			const lineBox = place(line.box);
			return lineBox && line.text.trim() !== "" ? [{ text: line.text, box: lineBox }] : [];
		});
		placed.push({
			text,
			box,
			vertical: region.vertical,
			...(lines && lines.length > 0 ? { lines } : {}),
			...(region.color ? { color: region.color } : {}),
			...(region.translation !== undefined ? { translation: region.translation } : {}),
		});
	}
	return placed;
}

function toPixels(box: UnitBox, window: Window, image: { width: number; height: number }): Box | null {
	const clamp = (v: number, max: number) => Math.min(max, Math.max(0, v));
	const x0 = clamp(Math.floor(window.x + box[0] * window.width), image.width);
	const y0 = clamp(Math.floor(window.y + box[1] * window.height), image.height);
	const x1 = clamp(Math.ceil(window.x + box[2] * window.width), image.width);
	const y1 = clamp(Math.ceil(window.y + box[3] * window.height), image.height);
	if (!(x1 - x0 >= MIN_SIDE_PX && y1 - y0 >= MIN_SIDE_PX)) return null;
	return { x0, y0, x1, y1 };
}

/**
 * Regions of all windows in reading order (window by window, each in the model's order),
 * duplicates dropped: of two copies the fuller reading stays (the other is usually a balloon
 * cut by a tile edge), of two as full the larger box. Two different texts read from nearly one
 * place both stay: dropping one would lose its reading, and the layout stage joins regions in one
 * container, a repeated reading there dropped. A region that holds two or more regions another
 * window read apart is a reading of neighbours as one (a crop loses the space between them):
 * the readings apart stay.
 */
export function mergeRegions(perWindow: PlacedRegion[][]): PlacedRegion[] {
	const all = perWindow.flat();
	const windowOf = perWindow.flatMap((regions, w) => regions.map(() => w));
	const dropped = new Set<number>();
	for (let i = 0; i < all.length; i++) {
		const box = all[i]!.box;
		for (let w = 0; w < perWindow.length; w++) {
			if (w === windowOf[i]) continue;
			const held = perWindow[w]!.filter((r) => intersection(box, r.box) >= HELD_APART * area(r.box));
			if (held.length >= 2) dropped.add(i);
		}
	}
	for (let i = 0; i < all.length; i++) {
		for (let j = i + 1; j < all.length && !dropped.has(i); j++) {
			const a = all[i] as PlacedRegion;
			const b = all[j] as PlacedRegion;
			if (dropped.has(j) || !sameRegion(a, b)) continue;
			dropped.add(fuller(a, b) ? j : i);
		}
	}
	return all.filter((_, i) => !dropped.has(i));
}

function sameRegion(a: PlacedRegion, b: PlacedRegion): boolean {
	const inter = intersection(a.box, b.box);
	if (inter === 0) return false;
	const ta = normalized(a.text);
	const tb = normalized(b.text);
	// Boxes however alike are one region only when one reading holds the other.
	const related = ta.includes(tb) || tb.includes(ta);
	return related && inter / Math.min(area(a.box), area(b.box)) >= SAME_TEXT_OVERLAP;
}

/** Whether `a` is the copy to keep of two readings of one region: the longer text, else the larger box. */
function fuller(a: PlacedRegion, b: PlacedRegion): boolean {
	const [la, lb] = [[...normalized(a.text)].length, [...normalized(b.text)].length];
	return la !== lb ? la > lb : area(a.box) >= area(b.box);
}

function normalized(text: string): string {
	return text.replace(/\s+/g, "").toLowerCase();
}

function area(box: Box): number {
	return (box.x1 - box.x0) * (box.y1 - box.y0);
}

function intersection(a: Box, b: Box): number {
	const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
	const h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
	return w > 0 && h > 0 ? w * h : 0;
}
