/**
 * Inverse of the VP8L predictor transform (RFC 9649 section 4.1), in place: each pixel is stored
 * as its difference from a prediction made from already decoded neighbours, per channel mod 256.
 * The mode of each 2^bits square block is the green channel of the transform's sub-image.
 */
const OPAQUE_BLACK = 0xff000000 | 0;

export function undoPredictor(
	pixels: Int32Array,
	width: number,
	height: number,
	bits: number,
	modes: Int32Array,
): void {
	if (width === 0 || height === 0) return;
	// Top row: the first pixel is predicted by opaque black, the others by their left neighbour.
	pixels[0] = addPixels(pixels[0]!, OPAQUE_BLACK);
	for (let i = 1; i < width; i++) pixels[i] = addPixels(pixels[i]!, pixels[i - 1]!);

	const blocksPerRow = (width + (1 << bits) - 1) >> bits;
	for (let y = 1; y < height; y++) {
		const row = y * width;
		// Left column: predicted by the pixel above.
		pixels[row] = addPixels(pixels[row]!, pixels[row - width]!);
		const modeRow = (y >> bits) * blocksPerRow;
		for (let x = 1; x < width; ) {
			const mode = (modes[modeRow + (x >> bits)]! >> 8) & 0xf;
			const end = Math.min(width, ((x >> bits) + 1) << bits);
			for (let i = row + x, stop = row + end; i < stop; i++) {
				// The top-right of the last pixel in a row is the first pixel of this row: in memory,
				// simply the next one after the top neighbour.
				const top = i - width;
				pixels[i] = addPixels(
					pixels[i]!,
					predict(mode, pixels[i - 1]!, pixels[top]!, pixels[top + 1]!, pixels[top - 1]!),
				);
			}
			x = end;
		}
	}
}

/** Prediction of mode 0 to 13 from left, top, top-right and top-left; 14 and 15 act as 0. */
function predict(mode: number, left: number, top: number, topRight: number, topLeft: number): number {
	switch (mode) {
		case 1:
			return left;
		case 2:
			return top;
		case 3:
			return topRight;
		case 4:
			return topLeft;
		case 5:
			return average(average(left, topRight), top);
		case 6:
			return average(left, topLeft);
		case 7:
			return average(left, top);
		case 8:
			return average(topLeft, top);
		case 9:
			return average(top, topRight);
		case 10:
			return average(average(left, topLeft), average(top, topRight));
		case 11:
			return select(left, top, topLeft);
		case 12:
			return clampAddSubtractFull(left, top, topLeft);
		case 13:
			return clampAddSubtractHalf(average(left, top), topLeft);
		default:
			return OPAQUE_BLACK;
	}
}

/** Per-channel sum mod 256. */
export function addPixels(a: number, b: number): number {
	const alphaGreen = ((a & 0xff00ff00) + (b & 0xff00ff00)) & 0xff00ff00;
	const redBlue = ((a & 0x00ff00ff) + (b & 0x00ff00ff)) & 0x00ff00ff;
	return alphaGreen | redBlue;
}

/** Per-channel floor of the mean, without unpacking the channels. */
function average(a: number, b: number): number {
	return ((((a ^ b) & 0xfefefefe) >>> 1) + (a & b)) | 0;
}

/** Left or top, whichever is nearer (Manhattan, over ARGB) to the gradient estimate left + top - topLeft. */
function select(left: number, top: number, topLeft: number): number {
	const fromLeft = channelDistance(top, topLeft); // |estimate - left| = |top - topLeft|
	const fromTop = channelDistance(left, topLeft);
	return fromLeft < fromTop ? left : top;
}

function channelDistance(a: number, b: number): number {
	return (
		Math.abs(((a >>> 24) & 0xff) - ((b >>> 24) & 0xff)) +
		Math.abs(((a >> 16) & 0xff) - ((b >> 16) & 0xff)) +
		Math.abs(((a >> 8) & 0xff) - ((b >> 8) & 0xff)) +
		Math.abs((a & 0xff) - (b & 0xff))
	);
}

function clampAddSubtractFull(a: number, b: number, c: number): number {
	let out = 0;
	for (let shift = 0; shift < 32; shift += 8) {
		const value = ((a >>> shift) & 0xff) + ((b >>> shift) & 0xff) - ((c >>> shift) & 0xff);
		out |= clamp(value) << shift;
	}
	return out;
}

function clampAddSubtractHalf(a: number, b: number): number {
	let out = 0;
	for (let shift = 0; shift < 32; shift += 8) {
		const ca = (a >>> shift) & 0xff;
		const cb = (b >>> shift) & 0xff;
		// Division truncating towards zero, as in the reference C.
		out |= clamp(ca + Math.trunc((ca - cb) / 2)) << shift;
	}
	return out;
}

function clamp(value: number): number {
	return Math.min(255, Math.max(0, value));
}
