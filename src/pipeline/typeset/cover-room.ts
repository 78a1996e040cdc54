/**
 * How far a cover may reach. A cover's panel is opaque: where it ran into another block, it would
 * hide that block's translation (two halves of a caption the reader split, each covered on its own,
 * "Translat" under "text"), or lettering kept as drawn. So a cover's room stops where another
 * block's begins: halfway between two covers (each hides its own half of what lies between them),
 * at the edge of the room of a block set on erased lettering, and at the edge of lettering kept.
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
		const b = other.block.textBox;
		// The two lie apart along the axis on which their centres are further apart for their size.
		const apartX = Math.abs(a.x0 + a.x1 - b.x0 - b.x1) / (a.x1 - a.x0 + b.x1 - b.x0);
		const apartY = Math.abs(a.y0 + a.y1 - b.y0 - b.y1) / (a.y1 - a.y0 + b.y1 - b.y0);
		// Two readings of one place: no line between them could part them (layout joins repeats).
		if (Math.max(apartX, apartY) < SAME_PLACE) continue;
		const cover = other.block.treatment === "cover";
		if (apartX >= apartY) {
			const after = b.x0 + b.x1 >= a.x0 + a.x1;
			const edge = cover ? (after ? (a.x1 + b.x0) / 2 : (b.x1 + a.x0) / 2) : after ? other.room.x0 : other.room.x1;
			reach = after ? { ...reach, x1: Math.min(reach.x1, edge) } : { ...reach, x0: Math.max(reach.x0, edge) };
		} else {
			const after = b.y0 + b.y1 >= a.y0 + a.y1;
			const edge = cover ? (after ? (a.y1 + b.y0) / 2 : (b.y1 + a.y0) / 2) : after ? other.room.y0 : other.room.y1;
			reach = after ? { ...reach, y1: Math.min(reach.y1, edge) } : { ...reach, y0: Math.max(reach.y0, edge) };
		}
	}
	return reach;
}

/** Centres closer than this share of the two boxes' mean size on both axes are one place. */
const SAME_PLACE = 0.25;
