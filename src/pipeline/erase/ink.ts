import type { Box } from "../types";
import { type Background, distanceMap, quantise } from "./background";
import { medianRgba } from "./median";
import type { Patch } from "./patch";

/**
 * How much each pixel of the patch looks like lettering, 0..255, with the two hysteresis
 * thresholds that go with it. On flat art and gradients: the distance from the background,
 * thresholds scaled by the background's noise. On texture the background has no single value,
 * so the lettering is found by its own colour: the colour common inside the reader's box and
 * rare in the margin around it; the score is then closeness to that colour.
 */
export interface InkScore {
	score: Uint8Array;
	strong: number;
	weak: number;
}

export function inkScore(patch: Patch, bg: Background, readerBox: Box): InkScore | undefined {
	if (bg.kind !== "texture") {
		const score = distanceMap(patch, bg.planes);
		return { score, strong: Math.max(40, 4 * bg.noise + 16), weak: Math.max(18, 2 * bg.noise + 8) };
	}
	const ink = inkByContrast(patch, readerBox);
	if (!ink) return undefined;
	// Closeness to the ink colour: the distance from a "plane" that is the ink colour everywhere.
	const score = distanceMap(
		patch,
		ink.map((v): [number, number, number] => [v, 0, 0]),
	);
	// Texture of the ink's colour can join glyphs to blobs running off the patch, and such
	// components are dropped: so on texture, only pixels near the reader's box can be ink.
	const margin = 2;
	for (let y = 0; y < patch.height; y++) {
		const nearRows = y >= readerBox.y0 - margin && y < readerBox.y1 + margin;
		for (let x = 0; x < patch.width; x++) {
			const i = y * patch.width + x;
			const near = nearRows && x >= readerBox.x0 - margin && x < readerBox.x1 + margin;
			score[i] = near ? 255 - score[i]! : 0;
		}
	}
	return { score, strong: 255 - 40, weak: 255 - 100 };
}

/** The colour (4 bits a channel) over-represented inside the reader's box against its margin. */
function inkByContrast(patch: Patch, readerBox: Box): number[] | undefined {
	const inside = new Uint32Array(65536);
	const margin = new Uint32Array(65536);
	let insideCount = 0;
	let marginCount = 0;
	for (let y = 0; y < patch.height; y++) {
		for (let x = 0; x < patch.width; x++) {
			const i = y * patch.width + x;
			const bin = quantise(patch.data, i);
			if (x >= readerBox.x0 && x < readerBox.x1 && y >= readerBox.y0 && y < readerBox.y1) {
				inside[bin]!++;
				insideCount++;
			} else {
				margin[bin]!++;
				marginCount++;
			}
		}
	}
	let best = -1;
	let bestScore = 0.005;
	for (let bin = 0; bin < 65536; bin++) {
		if (inside[bin]! < 12) continue;
		const s = inside[bin]! / insideCount - (3 * margin[bin]!) / Math.max(1, marginCount);
		if (s > bestScore) {
			bestScore = s;
			best = bin;
		}
	}
	if (best < 0) return undefined;
	const members = new Int32Array(inside[best]! + margin[best]!);
	let k = 0;
	for (let i = 0; i < patch.width * patch.height; i++) if (quantise(patch.data, i) === best) members[k++] = i;
	return medianRgba(patch.data, members, k);
}
