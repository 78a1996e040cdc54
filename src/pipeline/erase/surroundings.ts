/**
 * What surrounds a hole, on its own side of a barrier (a balloon's outline): the fill should follow
 * that, not the whole padded patch, which around a tight balloon is mostly the art beyond it.
 */
export interface Surroundings {
	/** 1 for known pixels within `reach` steps of the hole, reached without crossing the barrier. */
	ring: Uint8Array;
	/** 1 for every known pixel reached from the hole without crossing the barrier. */
	sameSide: Uint8Array;
}

/** Breadth-first from every hole pixel (8-neighbours) through pixels that are not barrier. */
export function surroundings(
	mask: Uint8Array,
	w: number,
	h: number,
	reach: number,
	barrier?: Uint8Array,
): Surroundings {
	const n = w * h;
	const distance = new Uint16Array(n).fill(0xffff);
	const queue = new Int32Array(n);
	let end = 0;
	for (let i = 0; i < n; i++) {
		if (!mask[i]) continue;
		distance[i] = 0;
		queue[end++] = i;
	}
	for (let head = 0; head < end; head++) {
		const i = queue[head]!;
		const x = i % w;
		const next = distance[i]! + 1;
		for (let dy = -1; dy <= 1; dy++) {
			const row = i + dy * w;
			if (row < 0 || row >= n) continue;
			for (let dx = x > 0 ? -1 : 0; dx <= (x < w - 1 ? 1 : 0); dx++) {
				const j = row + dx;
				if (distance[j]! <= next || barrier?.[j]) continue;
				distance[j] = next;
				queue[end++] = j;
			}
		}
	}
	const ring = new Uint8Array(n);
	const sameSide = new Uint8Array(n);
	for (let i = 0; i < n; i++) {
		if (mask[i] || distance[i] === 0xffff) continue;
		sameSide[i] = 1;
		if (distance[i]! <= reach) ring[i] = 1;
	}
	return { ring, sameSide };
}
