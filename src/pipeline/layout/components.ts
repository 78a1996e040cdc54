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
 * Labels the connected components of the pixels where `member` is 1 (1-based labels in `labels`,
 * 0 elsewhere), 8-connected or 4-connected. Labels follow the components' first pixels in raster order.
 */
export function labelComponents(
	member: Uint8Array,
	w: number,
	h: number,
	labels: Int32Array,
	connectivity: 4 | 8 = 8,
): Component[] {
	const components: Component[] = [];
	const n = w * h;
	const stack = new Int32Array(n);
	const diagonal = connectivity === 8;
	for (let start = 0; start < n; start++) {
		if (labels[start] || member[start] !== 1) continue;
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
			const x = i - y * w;
			area++;
			if (x < x0) x0 = x;
			if (y < y0) y0 = y;
			if (x >= x1) x1 = x + 1;
			if (y >= y1) y1 = y + 1;
			const left = x > 0;
			const right = x < w - 1;
			const up = y > 0;
			const down = y < h - 1;
			if (!(left && right && up && down)) touchesEdge = true;
			// Each neighbour in turn, unrolled: this is the innermost loop of most of layout's passes.
			let j = i - 1;
			if (left && !labels[j] && member[j] === 1) {
				labels[j] = label;
				stack[top++] = j;
			}
			j = i + 1;
			if (right && !labels[j] && member[j] === 1) {
				labels[j] = label;
				stack[top++] = j;
			}
			j = i - w;
			if (up && !labels[j] && member[j] === 1) {
				labels[j] = label;
				stack[top++] = j;
			}
			j = i + w;
			if (down && !labels[j] && member[j] === 1) {
				labels[j] = label;
				stack[top++] = j;
			}
			if (!diagonal) continue;
			j = i - w - 1;
			if (up && left && !labels[j] && member[j] === 1) {
				labels[j] = label;
				stack[top++] = j;
			}
			j = i - w + 1;
			if (up && right && !labels[j] && member[j] === 1) {
				labels[j] = label;
				stack[top++] = j;
			}
			j = i + w - 1;
			if (down && left && !labels[j] && member[j] === 1) {
				labels[j] = label;
				stack[top++] = j;
			}
			j = i + w + 1;
			if (down && right && !labels[j] && member[j] === 1) {
				labels[j] = label;
				stack[top++] = j;
			}
		}
		components.push({ x0, y0, x1, y1, area, touchesEdge });
	}
	return components;
}
