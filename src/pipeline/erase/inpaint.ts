import type { Background } from "./background";
import { fillByPushPull, fillFromPlane } from "./fill";
import type { Patch } from "./patch";
import { fillByPatchMatch } from "./patch-match";
import { isPatterned } from "./pattern";

/**
 * Largest padded patch (pixels) filled by PatchMatch: it holds about 60 bytes a pixel while it works
 * and takes about 5 ms per thousand hole pixels, so a caption-sized patch costs tens of ms and a few MB;
 * a larger one (a page-wide banner) falls back on push-pull rather than risk seconds and the memory cap.
 */
const MATCHED_AREA = 250_000;

/**
 * Fills the masked pixels of the patch with the background that the lettering hid, by the method
 * that measured best for that kind of background (bench/quality-erase.mjs, docs/benchmarks.md):
 * - flat art: its colour (or fitted plane), exact and instant;
 * - gradients and smooth texture: push-pull, the best PSNR there (a smooth guess is the closest to
 *   grain that cannot be known), at a few ms a region;
 * - patterned backgrounds: PatchMatch, the only method that continues the pattern (a smooth fill
 *   leaves a grey blank), at tens of ms a region, which is why it is kept to them.
 * Fast marching (Telea 2004) was measured too and removed: never better than push-pull, 5 to 15 dB
 * worse with its gradient term (streaks from the rim's edges), and ten times slower.
 */
export function inpaint(patch: Patch, bg: Background, mask: Uint8Array): void {
	// Checked first: a pattern of two tones (dots on paper) also reads as "flat" by its dominant colour.
	if (patch.width * patch.height <= MATCHED_AREA && isPatterned(patch, mask)) fillByPatchMatch(patch, mask);
	else if (bg.kind === "flat") fillFromPlane(patch, bg, mask);
	// A plane would miss curved gradients (radial, vignettes): push-pull follows whatever surrounds the hole.
	else fillByPushPull(patch, mask);
}
