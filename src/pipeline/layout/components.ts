/** A connected set of pixels: its bounding box (end exclusive), size, and whether it reaches the patch edge. */
export interface Component {
	x0: number;
	y0: number;
	x1: number;
	y1: number;
	area: number;
	touchesEdge: boolean;
}

/**
 * Labels the connected components of the pixels where `member` is `of` (1-based labels in `labels`,
 * 0 elsewhere), 8-connected or 4-connected. Labels follow the components' first pixels in raster order.
 * `of` 0 labels a 0/1 mask's unset pixels (the background around ink) without an inverted copy.
 *
 * Each component is filled a run at a time: a pixel taken from the stack is extended left and right
 * over unlabelled members, and the rows above and below that run (a pixel wider each side when
 * 8-connected) give one new seed per run of members they hold. Most of layout's passes label large
 * components (the background of a balloon), where a stack entry per pixel cost several times more.
 */
export function labelComponents(
	member: Uint8Array,
	w: number,
	h: number,
	labels: Int32Array,
	connectivity: 4 | 8 = 8,
	of: 0 | 1 = 1,
): Component[] {
	const components: Component[] = [];
	const n = w * h;
	const stack = stackOf(n);
	const reach = connectivity === 8 ? 1 : 0;
	for (let start = 0; start < n; start++) {
		if (labels[start] || member[start] !== of) continue;
		const label = components.length + 1;
		let x0 = w;
		let y0 = h;
		let x1 = 0;
		let y1 = 0;
		let area = 0;
		let touchesEdge = false;
		let top = 0;
		stack[top++] = start;
		labels[start] = label;
		while (top > 0) {
			const i = stack[--top]!;
			const y = (i / w) | 0;
			const row = y * w;
			// The run through i: its pixels are this component's, labelled now (i was when it was pushed).
			let left = i - row;
			while (left > 0 && !labels[row + left - 1] && member[row + left - 1] === of) labels[row + --left] = label;
			let right = i - row;
			while (right < w - 1 && !labels[row + right + 1] && member[row + right + 1] === of) labels[row + ++right] = label;
			area += right - left + 1;
			if (left < x0) x0 = left;
			if (right >= x1) x1 = right + 1;
			if (y < y0) y0 = y;
			if (y >= y1) y1 = y + 1;
			if (left === 0 || right === w - 1 || y === 0 || y === h - 1) touchesEdge = true;
			const from = Math.max(0, left - reach);
			const to = Math.min(w - 1, right + reach);
			for (let other = y - 1; other <= y + 1; other += 2) {
				if (other < 0 || other >= h) continue;
				let inRun = false;
				for (let j = other * w + from, end = other * w + to; j <= end; j++) {
					if (labels[j] || member[j] !== of) inRun = false;
					else if (!inRun) {
						labels[j] = label;
						stack[top++] = j;
						inRun = true;
					}
				}
			}
		}
		components.push({ x0, y0, x1, y1, area, touchesEdge });
	}
	return components;
}

/**
 * The stack of runs to fill, kept between calls and grown to the largest patch labelled: layout
 * labels a dozen times a search, and a fresh array each time cost more to allocate (and collect)
 * than the labelling read of it. Labelling runs synchronously, so no two calls use it at once, however many requests the isolate serves.
 */
let runs = new Int32Array(0);

function stackOf(n: number): Int32Array {
	if (runs.length < n) runs = new Int32Array(n);
	return runs;
}
