const OPAQUE_BLACK = 0xff000000 | 0;

/**
 * Inverse of the VP8L predictor transform (RFC 9649 section 4.1), in place: each pixel is stored
 * as its difference from a prediction made from already decoded neighbours, per channel mod 256.
 * The mode of each 2^bits square block is the green channel of the transform's sub-image.
 */
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
			addPredictions(pixels, mode, row + x, row + end, width);
			x = end;
		}
	}
}

/**
 * Adds mode `mode`'s prediction to pixels start..stop-1 of one row (not its first pixel), from
 * left (L), top (T), top-right (TR) and top-left (TL); modes 14 and 15 act as 0. One loop per
 * mode, so that the hot loop neither branches on the mode nor reloads the left neighbour. The
 * top-right of a row's last pixel is the first pixel of the row itself: in memory, simply the one
 * after its top neighbour.
 */
function addPredictions(p: Int32Array, mode: number, start: number, stop: number, width: number): void {
	let left = p[start - 1]!;
	switch (mode) {
		case 1: // L
			for (let i = start; i < stop; i++) {
				left = addPixels(p[i]!, left);
				p[i] = left;
			}
			return;
		case 2: // T
			for (let i = start; i < stop; i++) p[i] = addPixels(p[i]!, p[i - width]!);
			return;
		case 3: // TR
			for (let i = start; i < stop; i++) p[i] = addPixels(p[i]!, p[i - width + 1]!);
			return;
		case 4: // TL
			for (let i = start; i < stop; i++) p[i] = addPixels(p[i]!, p[i - width - 1]!);
			return;
		case 5: // average(average(L, TR), T)
			for (let i = start; i < stop; i++) {
				left = addPixels(p[i]!, average(average(left, p[i - width + 1]!), p[i - width]!));
				p[i] = left;
			}
			return;
		case 6: // average(L, TL)
			for (let i = start; i < stop; i++) {
				left = addPixels(p[i]!, average(left, p[i - width - 1]!));
				p[i] = left;
			}
			return;
		case 7: // average(L, T)
			for (let i = start; i < stop; i++) {
				left = addPixels(p[i]!, average(left, p[i - width]!));
				p[i] = left;
			}
			return;
		case 8: // average(TL, T)
			for (let i = start; i < stop; i++) p[i] = addPixels(p[i]!, average(p[i - width - 1]!, p[i - width]!));
			return;
		case 9: // average(T, TR)
			for (let i = start; i < stop; i++) p[i] = addPixels(p[i]!, average(p[i - width]!, p[i - width + 1]!));
			return;
		case 10: // average(average(L, TL), average(T, TR))
			for (let i = start; i < stop; i++) {
				const top = i - width;
				left = addPixels(p[i]!, average(average(left, p[top - 1]!), average(p[top]!, p[top + 1]!)));
				p[i] = left;
			}
			return;
		case 11: // L or T, whichever is nearer the gradient estimate L + T - TL
			for (let i = start; i < stop; i++) {
				left = addPixels(p[i]!, select(left, p[i - width]!, p[i - width - 1]!));
				p[i] = left;
			}
			return;
		case 12: // clamp(L + T - TL) per channel
			for (let i = start; i < stop; i++) {
				left = addPixels(p[i]!, clampAddSubtractFull(left, p[i - width]!, p[i - width - 1]!));
				p[i] = left;
			}
			return;
		case 13: // clamp(a + (a - TL) / 2) per channel, a = average(L, T)
			for (let i = start; i < stop; i++) {
				left = addPixels(p[i]!, clampAddSubtractHalf(average(left, p[i - width]!), p[i - width - 1]!));
				p[i] = left;
			}
			return;
		default: // opaque black
			for (let i = start; i < stop; i++) p[i] = addPixels(p[i]!, OPAQUE_BLACK);
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
