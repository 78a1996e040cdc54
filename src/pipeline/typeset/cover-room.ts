/**
 * How far a cover may reach. A cover's panel is opaque: where it ran into another block, it would
 * hide that block's translation (two halves of a caption the reader split, each covered on its own,
 * "Translat" under "text"), or lettering kept as drawn. So a cover's room stops where another
 * block's begins: halfway between two covers (each hides its own half of what lies between them),
 * at the edge of the room of a block set on erased lettering, and at the edge of lettering kept.
 * Lettering set straight on the art is the exception: its room is only its erased lettering with a
 * margin round it, and a caption read in two pieces, one found in the pixels and one covered, has
 * the covered piece's last glyphs in that margin ("re" of "are" left beside the panel). There, along
 * the cover's line, the cover runs on to the erased lettering itself, and the other block's room
 * gives way to it; above or below the line the margin stays the other block's (nothing of the
 * cover's line lies in it, and its translation would lose the room it is set in).
 */
import { intersects } from "../patch";
import type { Box, TextBlock } from "../types";

export interface Roomed {
	block: TextBlock;
	/** Where the block's translation may go (its lettering, for a block kept as drawn), image px. */
	room: Box;
}

/** The part of a cover's room (`own`) that reaches no other block's; empty when none is left. */
export function coverRoom(own: Roomed, others: Roomed[]): Box {
	const a = own.block.textBox;
	let reach = own.room;
	for (const other of others) {
		if (other.block === own.block || !intersects(own.room, other.room)) continue;
		const apart = apartAxis(a, other.block.textBox);
		if (!apart) continue;
		const [lo, hi] = sides(apart.axis);
		const b = other.block.textBox;
		// Where the other block begins: halfway to a cover, at erased lettering on the art, else at its room.
		const cover = other.block.treatment === "cover";
		const bound = cover ? undefined : givesWay(other.block, own.block, apart.axis) ? b : other.room;
		if (apart.after) reach = { ...reach, [hi]: Math.min(reach[hi], bound ? bound[lo] : (a[hi] + b[lo]) / 2) };
		else reach = { ...reach, [lo]: Math.max(reach[lo], bound ? bound[hi] : (b[hi] + a[lo]) / 2) };
	}
	return reach;
}

/**
 * The room of a block set on erased lettering on the art (`own`), cut where the covers' rooms
 * (`covers`, each as coverRoom gave it) reach into it: a cover runs on to its lettering.
 */
export function roomBesideCovers(own: Roomed, covers: Roomed[]): Box {
	let room = own.room;
	for (const cover of covers) {
		if (!intersects(room, cover.room)) continue;
		const apart = apartAxis(own.block.textBox, cover.block.textBox);
		if (!apart || !givesWay(own.block, cover.block, apart.axis)) continue;
		const [lo, hi] = sides(apart.axis);
		if (apart.after) room = { ...room, [hi]: Math.min(room[hi], cover.room[lo]) };
		else room = { ...room, [lo]: Math.max(room[lo], cover.room[hi]) };
	}
	return room;
}

/**
 * Whether `block`, lettering erased on the art (its room that lettering and a margin round it, no
 * container of its own), gives way to `cover`: when the two are pieces of one line, lying apart along
 * the cover's line (`axis`) and side by side across it. A cover above or below keeps out of its margin.
 */
function givesWay(block: TextBlock, cover: TextBlock, axis: "x" | "y"): boolean {
	if (block.treatment !== "replace" || block.container.kind !== "free") return false;
	if ((axis === "y") !== cover.vertical) return false;
	const [lo, hi] = sides(axis === "x" ? "y" : "x");
	const [a, b] = [block.textBox, cover.textBox];
	return a[lo] < b[hi] && b[lo] < a[hi];
}

/**
 * The axis along which two blocks' lettering (`a`, `b`) lie apart, the one on which their centres are
 * further apart for their size, and whether `b` comes after `a` on it; undefined for two readings of
 * one place (no line between them could part them: layout joins repeats).
 */
function apartAxis(a: Box, b: Box): { axis: "x" | "y"; after: boolean } | undefined {
	const apartX = Math.abs(a.x0 + a.x1 - b.x0 - b.x1) / (a.x1 - a.x0 + b.x1 - b.x0);
	const apartY = Math.abs(a.y0 + a.y1 - b.y0 - b.y1) / (a.y1 - a.y0 + b.y1 - b.y0);
	if (Math.max(apartX, apartY) < SAME_PLACE) return undefined;
	const axis = apartX >= apartY ? "x" : "y";
	const [lo, hi] = sides(axis);
	return { axis, after: b[lo] + b[hi] >= a[lo] + a[hi] };
}

function sides(axis: "x" | "y"): ["x0", "x1"] | ["y0", "y1"] {
	return axis === "x" ? ["x0", "x1"] : ["y0", "y1"];
}

/** Centres closer than this share of the two boxes' mean size on both axes are one place. */
const SAME_PLACE = 0.25;
