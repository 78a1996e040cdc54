/**
 * What surrounds a hole, on its own side of a barrier (a balloon's outline): the fill should follow
 * that, not the whole padded patch, which around a tight balloon is mostly the art beyond it.
 */

/** Known pixels within `reach` steps (8-neighbours) of the hole, reached without crossing the barrier. */
export function ringAround(mask: Uint8Array, w: number, h: number, reach: number, barrier?: Uint8Array): Uint8Array {
	return reached(mask, w, h, reach, barrier);
}

/** Every known pixel reached from the hole without crossing the barrier: where a fill may copy from. */
export function sameSide(mask: Uint8Array, w: number, h: number, barrier: Uint8Array): Uint8Array {
	return reached(mask, w, h, 0xfffe, barrier);
}

/** Breadth-first from every hole pixel through pixels that are not barrier, up to `reach` steps. */
function reached(mask: Uint8Array, w: number, h: number, reach: number, barrier?: Uint8Array): Uint8Array {
	const n = w * h;
	const distance = new Uint16Array(n).fill(0xffff);
	const queue = new Int32Array(n);
	let end = 0;
	for (let i = 0; i < n; i++) {
		if (!mask[i]) continue;
		distance[i] = 0;
		queue[end++] = i;
	}
	const out = new Uint8Array(n);
	for (let head = 0; head < end; head++) {
		const i = queue[head]!;
		const next = distance[i]! + 1;
		if (next > reach) continue;
		const x = i % w;
		for (let dy = -1; dy <= 1; dy++) {
			const row = i + dy * w;
			if (row < 0 || row >= n) continue;
			for (let dx = x > 0 ? -1 : 0; dx <= (x < w - 1 ? 1 : 0); dx++) {
				const j = row + dx;
				if (distance[j]! <= next || barrier?.[j]) continue;
				distance[j] = next;
				out[j] = 1;
				queue[end++] = j;
			}
		}
	}
	return out;
}
