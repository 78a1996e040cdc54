/**
 * How each mode draws (DESIGN, Modes): the lettering's colour always comes from the source;
 * manga adds an outline in the contrast colour; e-commerce keeps bold labels bold; light-novel
 * puts a translucent panel over the untouched source block. In every mode a block whose lettering
 * could not be erased ("cover") gets an opaque panel of its background colour under the text.
 */
import type { Mode } from "../../request/options";
import type { Rgb, TextBlock } from "../types";

/** What of a block its style depends on. */
export type StyleSource = Pick<TextBlock, "textColor" | "backgroundColor" | "bold" | "treatment">;

export interface Style {
	fill: Rgb;
	/** Ring around the glyphs, under the fill: how far it reaches beyond the glyph edge, px. */
	outline?: { color: Rgb; radius: number };
	/** Extra weight, px: the fill struck again this far apart (our faces are regular weight only). */
	emboldenWidth: number;
	panel?: { color: Rgb; opacity: number; padding: number; radius: number };
}

const WHITE: Rgb = [255, 255, 255];
const BLACK: Rgb = [0, 0, 0];

function luminance([r, g, b]: Rgb): number {
	const lin = (c: number) => {
		const s = c / 255;
		return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
	};
	return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG contrast ratio, 1 to 21. */
export function contrast(a: Rgb, b: Rgb): number {
	const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
	return (hi + 0.05) / (lo + 0.05);
}

/** Black or white, whichever stands out more against `colour`. */
export function contrastColour(colour: Rgb): Rgb {
	return contrast(colour, WHITE) >= contrast(colour, BLACK) ? WHITE : BLACK;
}

/** The source colour, unless a misread left it unreadable on its background. */
function readableFill(block: StyleSource): Rgb {
	return contrast(block.textColor, block.backgroundColor) >= 2
		? block.textColor
		: contrastColour(block.backgroundColor);
}

export function styleFor(mode: Mode, block: StyleSource, size: number): Style {
	const style = modeStyle(mode, block, size);
	if (block.treatment !== "cover") return style;
	return {
		...style,
		panel: { color: block.backgroundColor, opacity: 1, padding: Math.max(2, size * 0.25), radius: size * 0.2 },
	};
}

function modeStyle(mode: Mode, block: StyleSource, size: number): Style {
	const fill = readableFill(block);
	switch (mode) {
		case "manga":
			return { fill, outline: { color: contrastColour(fill), radius: Math.max(1.5, size * 0.1) }, emboldenWidth: 0 };
		case "e-commerce":
			return { fill, emboldenWidth: block.bold ? Math.max(0.8, size * 0.06) : 0 };
		case "light-novel":
			return {
				fill,
				emboldenWidth: 0,
				panel: { color: block.backgroundColor, opacity: 0.9, padding: Math.max(4, size * 0.4), radius: size * 0.3 },
			};
		default:
			return { fill, emboldenWidth: 0 };
	}
}

/** How far ink may reach beyond the glyph outlines, in px. */
export function strokeReach(style: Style): number {
	return Math.max(style.outline?.radius ?? 0, style.emboldenWidth / 2);
}
