/** A pixel word composited over white, made opaque: a transparent pixel reads as paper, not as black. */
export function overWhite(p: number): number {
	const a = p >>> 24;
	const white = 255 * (255 - a) + 127;
	const r = ((p & 0xff) * a + white) / 255;
	const g = (((p >>> 8) & 0xff) * a + white) / 255;
	const b = (((p >>> 16) & 0xff) * a + white) / 255;
	return (0xff << 24) | ((b & 0xff) << 16) | ((g & 0xff) << 8) | (r & 0xff);
}
