import { farther, predictFromRepeats } from "../layout/periodic";
import type { Patch } from "../types";
import { fillByPushPull } from "./fill";

/** Passes of the fill from the rim inwards: each reaches two periods further into the hole. */
const MAX_PASSES = 8;

/**
 * Fills the masked pixels with what the pattern predicts from known pixels one or two periods away,
 * from the rim of the hole inwards: each pass makes known what it filled, so a glyph taller than two
 * periods of a line tone is filled through. What no pass reaches gets push-pull.
 */
export function fillFromRepeats(patch: Patch, repeats: Int16Array, mask: Uint8Array): void {
	const voters = farther(repeats);
	const left = mask.slice();
	for (let pass = 0; pass < MAX_PASSES; pass++) {
		const predicted = predictFromRepeats(patch, voters, left, left);
		let filled = 0;
		for (let i = 0; i < left.length; i++) {
			if (!left[i] || !predicted.known[i]) continue;
			patch.data.set(predicted.colour.subarray(i * 4, i * 4 + 4), i * 4);
			left[i] = 0;
			filled++;
		}
		if (filled === 0) break;
	}
	if (left.includes(1)) fillByPushPull(patch, left);
}
