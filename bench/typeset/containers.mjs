/**
 * The container each corpus region's lettering sits in, found on the sample's clean plate (the
 * image without its text), so that the typesetting benchmark can hand the typesetter blocks as the
 * layout stage would, and judge "ink inside its container" against the page as drawn, not against
 * what the typesetter itself believed. The plate's area of the colour under the lettering, grown
 * from the lettering's box: closed within a window around the box, it is a balloon (white) or a
 * label panel (any other colour); leaking out of the window, the text sits on the art ("free").
 * The plate is drawn by bench/corpus/synthetic.mjs: flat colours inside balloons and labels.
 */

/** Colours within this of the colour under the lettering, on every channel, are the same area. */
const TOLERANCE = 40;

/**
 * { kind, box, inside? } in image px, inside one byte per pixel of box (1 inside), as
 * src/pipeline/types.ts's Container.
 */
export function containerOf(sample, region) {
	const { plate, width, height } = sample;
	const b = region.exactBox;
	// Only flat paper and manga pages have balloons and labels; elsewhere the lettering is on the art.
	if (sample.kind !== "flat" && sample.kind !== "manga") return { kind: "free", box: { ...b } };
	const reach = Math.max(b.x1 - b.x0, b.y1 - b.y0) + 40;
	const win = {
		x0: Math.max(0, b.x0 - reach),
		y0: Math.max(0, b.y0 - reach),
		x1: Math.min(width, b.x1 + reach),
		y1: Math.min(height, b.y1 + reach),
	};
	const ww = win.x1 - win.x0;
	const wh = win.y1 - win.y0;
	const centre = (Math.floor((b.y0 + b.y1) / 2) * width + Math.floor((b.x0 + b.x1) / 2)) * 4;
	const seed = [plate.data[centre], plate.data[centre + 1], plate.data[centre + 2]];
	const like = (x, y) => {
		const o = (y * width + x) * 4;
		return (
			Math.abs(plate.data[o] - seed[0]) <= TOLERANCE &&
			Math.abs(plate.data[o + 1] - seed[1]) <= TOLERANCE &&
			Math.abs(plate.data[o + 2] - seed[2]) <= TOLERANCE
		);
	};
	const filled = new Uint8Array(ww * wh);
	const stack = [];
	// From the middle of the lettering only: a tight balloon's outline crosses the lettering's box,
	// and the paper beyond it may be as light as the balloon.
	const cx = Math.floor((b.x0 + b.x1) / 2);
	const cy = Math.floor((b.y0 + b.y1) / 2);
	filled[(cy - win.y0) * ww + (cx - win.x0)] = 1;
	stack.push(cx, cy);
	let leaked = false;
	const box = { x0: b.x0, y0: b.y0, x1: b.x1, y1: b.y1 };
	while (stack.length > 0) {
		const y = stack.pop();
		const x = stack.pop();
		box.x0 = Math.min(box.x0, x);
		box.y0 = Math.min(box.y0, y);
		box.x1 = Math.max(box.x1, x + 1);
		box.y1 = Math.max(box.y1, y + 1);
		for (const [nx, ny] of [
			[x - 1, y],
			[x + 1, y],
			[x, y - 1],
			[x, y + 1],
		]) {
			if (nx < win.x0 || ny < win.y0 || nx >= win.x1 || ny >= win.y1) {
				// A balloon cut by the page's edge is still closed; an area that runs past the window is not.
				if (nx >= 0 && ny >= 0 && nx < width && ny < height) leaked = true;
				continue;
			}
			const k = (ny - win.y0) * ww + (nx - win.x0);
			if (filled[k] || !like(nx, ny)) continue;
			filled[k] = 1;
			stack.push(nx, ny);
		}
	}
	// Closed but smaller than the lettering: a speck of the art's texture, not a container.
	let area = 0;
	for (const v of filled) area += v;
	if (leaked || area < 0.6 * (b.x1 - b.x0) * (b.y1 - b.y0)) return { kind: "free", box: { ...b } };
	const w = box.x1 - box.x0;
	const h = box.y1 - box.y0;
	const inside = new Uint8Array(w * h);
	for (let y = 0; y < h; y++) {
		for (let x = 0; x < w; x++) inside[y * w + x] = filled[(y + box.y0 - win.y0) * ww + (x + box.x0 - win.x0)];
	}
	const white = seed.every((c) => c >= 235);
	return { kind: white ? "balloon" : "panel", box, inside };
}

/** Whether image pixel (x, y) is inside the container (for free text: inside `room`, the typesetter's area). */
export function isInside(container, room, x, y) {
	const b = container.kind === "free" ? room : container.box;
	if (x < b.x0 || y < b.y0 || x >= b.x1 || y >= b.y1) return false;
	if (container.kind === "free" || !container.inside) return true;
	return container.inside[(y - b.y0) * (b.x1 - b.x0) + (x - b.x0)] === 1;
}
