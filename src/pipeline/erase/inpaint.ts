import { type Background, dominantColour } from "../layout/background";
import { inverted } from "../layout/masks";
import { maskedPixels } from "../layout/median";
import { isPatterned } from "../layout/pattern";
import type { Patch } from "../types";
import { fillByPushPull, fillFromPlane } from "./fill";
import { fillByPatchMatch } from "./patch-match";
import { fillFromRepeats } from "./repeats";
import { ringAround, sameSide } from "./surroundings";

/**
 * Largest padded patch (pixels) filled by PatchMatch: it holds about 60 bytes a pixel while it works
 * and takes about 5 ms per thousand hole pixels, so a caption-sized patch costs tens of ms and a few MB;
 * a larger one (a page-wide banner) falls back on push-pull rather than risk seconds and the memory cap.
 */
const MATCHED_AREA = 250_000;
/**
 * How far around the hole (pixels) the background is judged: a pattern period or two (screentone,
 * hatching), wide enough for the 3×3 grain test, narrow enough to stay inside a tight balloon.
 */
const REACH = 6;
/** Share of the surroundings within a few levels of one colour from which they are that colour. */
const ONE_COLOUR = 0.9;

/**
 * Fills the masked pixels of the patch with the background that the lettering hid, by the method
 * that measured best for that kind of background (bench/quality-erase.mjs, docs/benchmarks.md),
 * judged on what surrounds the hole on its side of `barrier` (the balloon outline the lettering
 * touches, if any): around a tight balloon on art, the patch is mostly art but the hole is in the balloon.
 * - a background that repeats (screentone, line tones: periodic.ts): the pixels a period or two away,
 *   exact on digital tone and a few ms a region;
 * - patterned surroundings: PatchMatch, the only method that continues the pattern (a smooth fill
 *   leaves a grey blank), copying only from the hole's side of the barrier, at tens of ms a region;
 * - gradients: push-pull, exact on ramps and following curved ones (radial, vignettes);
 * - surroundings of one colour: that colour, exact and instant, whatever the rest of the patch holds;
 * - other flat art: its colour (or fitted plane);
 * - smooth texture: push-pull, the best PSNR there (a smooth guess is the closest to grain that
 *   cannot be known), at a few ms a region.
 * Fast marching (Telea 2004) was measured too and removed: never better than push-pull, 5 to 15 dB
 * worse with its gradient term (streaks from the rim's edges), and ten times slower.
 */
export function inpaint(patch: Patch, bg: Background, mask: Uint8Array, barrier?: Uint8Array): void {
	const { width: w, height: h } = patch;
	if (bg.repeats) {
		fillFromRepeats(patch, bg.repeats, mask);
		return;
	}
	const ring = ringAround(mask, w, h, REACH, barrier);
	const outside = inverted(ring);
	// Checked first: a pattern of two tones (dots on paper) also reads as "flat" by its dominant colour.
	if (w * h <= MATCHED_AREA && isPatterned(patch, outside)) {
		fillByPatchMatch(patch, mask, barrier && sameSide(mask, w, h, barrier));
		return;
	}
	if (bg.kind === "gradient") {
		fillByPushPull(patch, mask);
		return;
	}
	const around = dominantColour(patch.data, maskedPixels(ring));
	if (around && around.share >= ONE_COLOUR) {
		const planes = around.colour.map((v): [number, number, number] => [v, 0, 0]);
		fillFromPlane(patch, { kind: "flat", planes, noise: 0 }, mask);
	} else if (bg.kind === "flat") fillFromPlane(patch, bg, mask);
	else fillByPushPull(patch, mask);
}
