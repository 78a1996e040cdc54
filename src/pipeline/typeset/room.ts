/**
 * Where a block's translation may go: its container's inside, not the reader's box. A balloon's
 * own shape (the layout's `inside` mask, else the ellipse inscribed in its box), a label's or
 * caption's panel, and for text set straight on the art the area cleared around the lettering.
 */
import type { Box, TextBlock } from "../types";
import { Frame } from "./frame";

/** How far the room of text on the art reaches beyond its lettering, in em of the source. */
const FREE_GROWTH_EM = 0.3;

/** A letterer's halo between the text block and the container's edge, in em of the size set. */
const HALO_EM: Record<TextBlock["container"]["kind"], number> = { balloon: 0.3, panel: 0.15, free: 0 };

const finite = (b: Box) => [b.x0, b.y0, b.x1, b.y1].every(Number.isFinite);
const empty = (b: Box) => !finite(b) || b.x1 <= b.x0 || b.y1 <= b.y0;

/** The rectangle that bounds a block's room, image px (not yet cut to the image); null when it has none. */
function roomBounds(block: TextBlock): Box | null {
	const { container, textBox } = block;
	if (container.kind !== "free" && !empty(container.box)) return container.box;
	// The cleared area around the lettering: what layout found of it, with a little room around.
	const grow = Math.max(2, FREE_GROWTH_EM * (Number.isFinite(block.sourceSize) ? block.sourceSize : 0));
	const around = empty(container.box) ? textBox : union(container.box, textBox);
	if (empty(around)) return null;
	return { x0: around.x0 - grow, y0: around.y0 - grow, x1: around.x1 + grow, y1: around.y1 + grow };
}

/** The block's room as a shape to fit lines into, cut to the image; null when it has none. */
export function roomFrame(block: TextBlock, image: { width: number; height: number }): Frame | null {
	const box = roomBounds(block);
	if (!box) return null;
	const { container } = block;
	let frame: Frame;
	if (container.kind === "balloon" && box === container.box) {
		const w = box.x1 - box.x0;
		const h = box.y1 - box.y0;
		const whole = [box.x0, box.y0, box.x1, box.y1].every(Number.isInteger);
		frame =
			container.inside && whole && container.inside.length === w * h
				? Frame.mask(box, container.inside)
				: Frame.ellipse(box);
	} else frame = Frame.rectangle(box);
	const cut = frame.within({ x0: 0, y0: 0, x1: image.width, y1: image.height });
	return empty(cut.box) ? null : cut;
}

/** The halo a block's container asks for, px, at a font size. */
export function haloFor(block: TextBlock, size: number): number {
	return HALO_EM[block.container.kind] * size;
}

function union(a: Box, b: Box): Box {
	return { x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) };
}
