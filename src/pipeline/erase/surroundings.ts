/**
 * What surrounds a hole, on its own side of a barrier (a balloon's outline): the fill should follow
 * that, not the whole padded patch, which around a tight balloon is mostly the art beyond it.
 */
import { dilate, inverted } from "../layout/masks";
import { stepsFrom, UNREACHED } from "../layout/steps";

/** Known pixels within `reach` steps (8-neighbours) of the hole, reached without crossing the barrier. */
export function ringAround(mask: Uint8Array, w: number, h: number, reach: number, barrier?: Uint8Array): Uint8Array {
	return reached(mask, w, h, reach, barrier);
}

/** Every known pixel reached from the hole without crossing the barrier: where a fill may copy from. */
export function sameSide(mask: Uint8Array, w: number, h: number, barrier: Uint8Array): Uint8Array {
	return reached(mask, w, h, 0xfffe, barrier);
}

/** Known pixels within `reach` steps (8-neighbours) of a hole pixel, walking through pixels that are not barrier. */
function reached(mask: Uint8Array, w: number, h: number, reach: number, barrier?: Uint8Array): Uint8Array {
	// With nothing in the way, the steps are chessboard distances: the pixels within reach are the
	// hole's square dilation, found without a walk.
	if (!barrier) {
		const around = dilate(mask, w, h, reach);
		for (let i = 0; i < around.length; i++) if (mask[i]) around[i] = 0;
		return around;
	}
	const passable = inverted(barrier);
	const steps = stepsFrom(mask, passable, w, h, { reach });
	const out = new Uint8Array(w * h);
	for (let i = 0; i < out.length; i++) if (steps[i] !== 0 && steps[i] !== UNREACHED) out[i] = 1;
	return out;
}
