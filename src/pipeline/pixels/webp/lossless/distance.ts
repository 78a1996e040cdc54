/**
 * LZ77 distances of VP8L (RFC 9649 section 3.6.2.2): the first 120 distance codes name nearby
 * pixels by (dx, dy), dx to the left and dy rows up, so that "the pixel above" costs a short code
 * whatever the image width; larger codes are plain distances shifted by 120.
 */
// biome-ignore format: twelve pairs a line keep the table readable
const NEAR = [
	[0, 1], [1, 0], [1, 1], [-1, 1], [0, 2], [2, 0], [1, 2], [-1, 2], [2, 1], [-2, 1], [2, 2], [-2, 2],
	[0, 3], [3, 0], [1, 3], [-1, 3], [3, 1], [-3, 1], [2, 3], [-2, 3], [3, 2], [-3, 2], [0, 4], [4, 0],
	[1, 4], [-1, 4], [4, 1], [-4, 1], [3, 3], [-3, 3], [2, 4], [-2, 4], [4, 2], [-4, 2], [0, 5], [3, 4],
	[-3, 4], [4, 3], [-4, 3], [5, 0], [1, 5], [-1, 5], [5, 1], [-5, 1], [2, 5], [-2, 5], [5, 2], [-5, 2],
	[4, 4], [-4, 4], [3, 5], [-3, 5], [5, 3], [-5, 3], [0, 6], [6, 0], [1, 6], [-1, 6], [6, 1], [-6, 1],
	[2, 6], [-2, 6], [6, 2], [-6, 2], [4, 5], [-4, 5], [5, 4], [-5, 4], [3, 6], [-3, 6], [6, 3], [-6, 3],
	[0, 7], [7, 0], [1, 7], [-1, 7], [5, 5], [-5, 5], [7, 1], [-7, 1], [4, 6], [-4, 6], [6, 4], [-6, 4],
	[2, 7], [-2, 7], [7, 2], [-7, 2], [3, 7], [-3, 7], [7, 3], [-7, 3], [5, 6], [-5, 6], [6, 5], [-6, 5],
	[8, 0], [4, 7], [-4, 7], [7, 4], [-7, 4], [8, 1], [8, 2], [6, 6], [-6, 6], [8, 3], [5, 7], [-5, 7],
	[7, 5], [-7, 5], [8, 4], [6, 7], [-6, 7], [7, 6], [-7, 6], [8, 5], [7, 7], [-7, 7], [8, 6], [8, 7],
] as const;

/** Backward distance in pixels for a distance code (1-based), in an image `width` pixels wide. */
export function planeDistance(code: number, width: number): number {
	if (code > NEAR.length) return code - NEAR.length;
	const [dx, dy] = NEAR[code - 1]!;
	return Math.max(1, dx + dy * width);
}
