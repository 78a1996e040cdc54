import type { Mode } from "../../request/options";
import type { Box, ErasedRegion, Raster, Rgb, TranslatedRegion } from "../types";
import { type Background, fitBackground, predict } from "./background";
import { cleanArea } from "./clean-area";
import { inkScore } from "./ink";
import { inpaint } from "./inpaint";
import { boundingBox, dilate, findLettering } from "./mask";
import { lineAlignment, looksBold, medianColour } from "./measure";
import { clipBox, cutPatch, type Patch, paddedBox, pastePatch, toPatchBox } from "./patch";

/**
 * Finds the lettering inside each region and, except in light-novel mode, erases it in place.
 * Pixels outside each region's padded box are never written. Regions are handled in order, so
 * an overlapping later region sees the earlier one already cleaned.
 */
export function eraseRegions(raster: Raster, regions: TranslatedRegion[], mode: Mode): ErasedRegion[] {
	return regions.map((region) => eraseRegion(raster, region, mode !== "light-novel"));
}

function eraseRegion(raster: Raster, region: TranslatedRegion, erase: boolean): ErasedRegion {
	const readerBox = clipBox(region.box, raster);
	const area = paddedBox(readerBox, raster);
	const patch = cutPatch(raster, area);
	if (patch.width < 3 || patch.height < 3) return nothingFound(region, readerBox);

	const inReader = toPatchBox(patch, readerBox);
	const bg = fitBackground(patch, inReader);
	const ink = inkScore(patch, bg, inReader);
	const lettering = ink && findLettering(patch, ink, inReader);
	if (!lettering?.box) return nothingFound(region, readerBox, patch, bg);
	const textColor = medianColour(patch, lettering.core) ?? region.color ?? [0, 0, 0];

	// JPEG ringing and soft shadows reach a little past the glyph rim.
	const erased = dilate(lettering.mask, patch.width, patch.height, bg.kind === "texture" ? 3 : 2);
	// A balloon outline the glyphs touch is art: the margin stops at it.
	if (lettering.outline) for (let i = 0; i < erased.length; i++) erased[i]! &= 1 - lettering.outline[i]!;
	// Light-novel mode keeps the lettering under its panel: nothing is filled, nothing written.
	if (erase) {
		inpaint(patch, bg, erased, lettering.outline);
		pastePatch(raster, patch, erased);
	}

	// The translation may grow past the text into clean background: on flat art and gradients that
	// is the plain part of the padded area; on texture and patterns, only what was cleaned and the reader's box.
	const textBox = toImageBox(lettering.box, area);
	const erasedBox =
		bg.kind === "texture" || bg.kind === "periodic"
			? union(toImageBox(boundingBox(erased, patch.width, patch.height)!, area), readerBox)
			: toImageBox(cleanArea(patch, bg, lettering.box), area);
	return {
		...region,
		textBox,
		erasedBox,
		textColor,
		// Filled, the erased pixels are the background; unfilled (light-novel), what lies between the glyphs is.
		backgroundColor:
			(erase ? medianColour(patch, erased) : medianColour(patch, behind(erased, lettering.box, patch.width))) ??
			textColor,
		bold: looksBold(lettering, patch.width, region.vertical),
		align: lineAlignment(lettering, patch.width, region.vertical, toPatchBox(patch, erasedBox)),
	};
}

/** No lettering told apart from the background: nothing is erased, the reader's box stands. */
function nothingFound(region: TranslatedRegion, box: Box, patch?: Patch, bg?: Background): ErasedRegion {
	const centre = (c: number) =>
		patch && bg ? Math.max(0, Math.min(255, Math.round(predict(bg, patch.width / 2, patch.height / 2, c)))) : 255;
	const backgroundColor: Rgb = [centre(0), centre(1), centre(2)];
	const textColor: Rgb = region.color ?? contrasting(backgroundColor);
	return { ...region, textBox: box, erasedBox: box, textColor, backgroundColor, bold: false, align: "center" };
}

/** The pixels of the lettering's box (patch px) outside the erase mask: what lies behind the text. */
function behind(erased: Uint8Array, box: Box, width: number): Uint8Array {
	const out = new Uint8Array(erased.length);
	for (let y = box.y0; y < box.y1; y++) {
		for (let i = y * width + box.x0; i < y * width + box.x1; i++) out[i] = erased[i] ? 0 : 1;
	}
	return out;
}

function contrasting([r, g, b]: Rgb): Rgb {
	return 0.299 * r + 0.587 * g + 0.114 * b > 128 ? [0, 0, 0] : [255, 255, 255];
}

function toImageBox(box: Box, area: Box): Box {
	return { x0: box.x0 + area.x0, y0: box.y0 + area.y0, x1: box.x1 + area.x0, y1: box.y1 + area.y0 };
}

function union(a: Box, b: Box): Box {
	return { x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) };
}
