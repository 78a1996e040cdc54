/**
 * The colour of a cover's panel. A cover stands for the art it hides, so its panel is the colour
 * the art shows just outside it: each channel's median over a thin ring round the panel (the cover
 * holds the lettering, so the ring holds art). The background measured around the reader's box is
 * not: on texture it is a plane through a photo's colours, and where lettering fills much of the
 * box (a third of it passes for a flat background, or a ring that crosses a box cut short), it is
 * the ink's colour: a black slab on a light texture.
 */
import { clipBox, grow } from "../patch";
import type { Box, Patch, Rgb } from "../types";
import type { Background } from "./background";

/** Width (px) of the ring outside the panel the colour is read from. */
const RING = 3;
/** Levels (any channel) within which the colour measured before is the art's: it is kept. */
const SAME_COLOUR = 24;

/**
 * The panel's colour for a cover over `box` (image px), `measured` the colour the background around
 * the reader's box gave. A repeating pattern's is its mean tone, kept: the median of a dot screen is
 * its paper or its dots.
 */
export function coverColour(crop: Patch, box: Box, bg: Background, measured: Rgb): Rgb {
	if (bg.kind === "periodic") return measured;
	const around = colourAround(crop, box);
	if (!around) return measured;
	const far = around.some((v, c) => Math.abs(v - measured[c]!) > SAME_COLOUR);
	return bg.kind === "texture" || far ? around : measured;
}

/** Each channel's median over the ring of RING px outside `box` (image px) within the crop; undefined when the crop holds none of it. */
function colourAround(crop: Patch, box: Box): Rgb | undefined {
	const outer = clipBox(grow(box, RING), crop.box);
	const counts = [new Uint32Array(256), new Uint32Array(256), new Uint32Array(256)];
	let n = 0;
	for (let y = outer.y0; y < outer.y1; y++) {
		const inRows = y >= box.y0 && y < box.y1;
		for (let x = outer.x0; x < outer.x1; x++) {
			if (inRows && x >= box.x0 && x < box.x1) {
				x = box.x1 - 1;
				continue;
			}
			const i = ((y - crop.box.y0) * crop.width + (x - crop.box.x0)) * 4;
			for (let c = 0; c < 3; c++) counts[c]![crop.data[i + c]!]!++;
			n++;
		}
	}
	if (n === 0) return undefined;
	const median = (c: number) => {
		let v = 0;
		for (let seen = counts[c]![0]!; seen * 2 < n; seen += counts[c]![v]!) v++;
		return v;
	};
	return [median(0), median(1), median(2)];
}
