/**
 * One small SVG per region. Nothing from the request or a model is ever written into it: text
 * arrives as glyph outlines (path data we generate from the font), colours as numbers, positions
 * as finite numbers. There is no <text>, no external reference (the only href is "#g<n>", a glyph
 * defined in the same document), no script, no style sheet. The manga outline is not drawn here:
 * it is added to the raster (outline.ts).
 */
import type { Rgb } from "../types";
import type { HbFont } from "./harfbuzz";
import type { PlacedGlyph } from "./place";
import type { Style } from "./style";

export interface Frame {
	/** Size of the SVG (and the overlay) in px. */
	width: number;
	height: number;
}

/** A finite number, short: two decimals are a hundredth of a pixel for coordinates. */
function num(v: number, decimals = 2): string {
	if (!Number.isFinite(v)) return "0";
	const scale = 10 ** decimals;
	const r = Math.round(v * scale) / scale;
	return Object.is(r, -0) ? "0" : String(r);
}

/** A glyph transform: the scale terms map font units to pixels (about 0.01 to 0.2) and need more digits. */
function matrix(m: PlacedGlyph["matrix"]): string {
	return `matrix(${num(m[0], 6)} ${num(m[1], 6)} ${num(m[2], 6)} ${num(m[3], 6)} ${num(m[4])} ${num(m[5])})`;
}

function hex([r, g, b]: Rgb): string {
	const c = (v: number) =>
		Math.max(0, Math.min(255, Math.round(Number.isFinite(v) ? v : 0)))
			.toString(16)
			.padStart(2, "0");
	return `#${c(r)}${c(g)}${c(b)}`;
}

export function buildSvg(
	glyphs: PlacedGlyph[],
	style: Style,
	frame: Frame,
	panel?: { x: number; y: number; width: number; height: number },
): string {
	const ids = new Map<HbFont, Map<number, string>>();
	const defs: string[] = [];
	const idOf = (font: HbFont, glyph: number): string => {
		let byGlyph = ids.get(font);
		if (!byGlyph) {
			byGlyph = new Map();
			ids.set(font, byGlyph);
		}
		let id = byGlyph.get(glyph);
		if (!id) {
			id = `g${defs.length}`;
			byGlyph.set(glyph, id);
			defs.push(`<path id="${id}" d="${font.path(glyph)}"/>`);
		}
		return id;
	};
	const uses = glyphs.map((g) => ({ id: idOf(g.font, g.glyph), transform: matrix(g.matrix) }));

	const parts = [
		`<svg xmlns="http://www.w3.org/2000/svg" width="${num(frame.width)}" height="${num(frame.height)}" viewBox="0 0 ${num(frame.width)} ${num(frame.height)}">`,
	];
	if (panel && style.panel) {
		parts.push(
			`<rect x="${num(panel.x)}" y="${num(panel.y)}" width="${num(panel.width)}" height="${num(panel.height)}" rx="${num(style.panel.radius)}" fill="${hex(style.panel.color)}" fill-opacity="${num(style.panel.opacity)}"/>`,
		);
	}
	parts.push(`<defs>${defs.join("")}</defs>`);
	// Bold without a bold face: the glyphs struck three times across `emboldenWidth` (strokes grow
	// horizontally, as FreeType's emboldening does). A stroke would do it too, at several times the cost.
	const strikes = style.emboldenWidth > 0 ? [-0.5, 0, 0.5].map((f) => f * style.emboldenWidth) : [0];
	parts.push(`<g fill="${hex(style.fill)}">`);
	for (const dx of strikes) {
		if (dx !== 0) parts.push(`<g transform="translate(${num(dx)} 0)">`);
		for (const u of uses) parts.push(`<use href="#${u.id}" transform="${u.transform}"/>`);
		if (dx !== 0) parts.push("</g>");
	}
	parts.push("</g>");
	parts.push("</svg>");
	return parts.join("");
}
