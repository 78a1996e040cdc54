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
 * 0 elsewhere), 8-connected or 4-connected.
 */
export function labelComponents(
	member: Uint8Array,
	w: number,
	h: number,
	labels: Int32Array,
	connectivity: 4 | 8 = 8,
): Component[] {
	const components: Component[] = [];
	const stack = new Int32Array(w * h);
	for (let start = 0; start < w * h; start++) {
		if (labels[start] || member[start] !== 1) continue;
		const label = components.length + 1;
		const c: Component = { x0: w, y0: h, x1: 0, y1: 0, area: 0, touchesEdge: false };
		let top = 0;
		stack[top++] = start;
		labels[start] = label;
		while (top > 0) {
			const i = stack[--top]!;
			const x = i % w;
			const y = (i - x) / w;
			c.area++;
			if (x < c.x0) c.x0 = x;
			if (y < c.y0) c.y0 = y;
			if (x + 1 > c.x1) c.x1 = x + 1;
			if (y + 1 > c.y1) c.y1 = y + 1;
			if (x === 0 || y === 0 || x === w - 1 || y === h - 1) c.touchesEdge = true;
			for (let dy = -1; dy <= 1; dy++) {
				const ny = y + dy;
				if (ny < 0 || ny >= h) continue;
				for (let dx = -1; dx <= 1; dx++) {
					const nx = x + dx;
					if (nx < 0 || nx >= w || (connectivity === 4 && dx !== 0 && dy !== 0)) continue;
					const j = ny * w + nx;
					if (labels[j] || member[j] !== 1) continue;
					labels[j] = label;
					stack[top++] = j;
				}
			}
		}
		components.push(c);
	}
	return components;
}
