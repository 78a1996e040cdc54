/**
 * Lines read by the OCR grouped into blocks, as the model contract wants regions: one per balloon,
 * paragraph or label, not one per line. Two lines belong together when they run the same way, their
 * letters are about the same size, they lie side by side across the reading direction (columns next
 * to each other, lines one under the other) with a gap under a line's thickness, and they overlap
 * along it.
 */

/** Letter sizes of lines in one block differ at most by this factor. */
const SIZE_RATIO = 1.6;
/** The gap between neighbouring lines of a block, in line thicknesses at most. */
const GAP = 1.0;
/** Neighbouring lines overlap at least this share of the shorter one, along the reading direction. */
const OVERLAP = 0.3;

/** @typedef {{ x0: number, y0: number, x1: number, y1: number }} Box */
/** @typedef {{ text: string, box: Box, vertical: boolean }} Line */

/**
 * @param {Line[]} lines
 * @returns {{ text: string, box: Box, vertical: boolean, lines: Line[] }[]} in reading order
 */
export function groupLines(lines) {
	const parent = lines.map((_, i) => i);
	const find = (i) => {
		while (parent[i] !== i) i = parent[i];
		return i;
	};
	for (let i = 0; i < lines.length; i++)
		for (let j = i + 1; j < lines.length; j++) if (together(lines[i], lines[j])) parent[find(i)] = find(j);
	const groups = new Map();
	for (const [i, line] of lines.entries()) {
		const root = find(i);
		if (!groups.has(root)) groups.set(root, []);
		groups.get(root).push(line);
	}
	const blocks = [...groups.values()].map((members) => {
		const vertical = members[0].vertical;
		// Columns right to left, lines top to bottom.
		const ordered = [...members].sort((a, b) => (vertical ? b.box.x1 - a.box.x1 : a.box.y0 - b.box.y0));
		return {
			text: ordered.map((l) => l.text).join("\n"),
			box: union(ordered.map((l) => l.box)),
			vertical,
			lines: ordered,
		};
	});
	return blocks.sort(readingOrder);
}

function together(a, b) {
	if (a.vertical !== b.vertical) return false;
	const thickness = (l) => (l.vertical ? l.box.x1 - l.box.x0 : l.box.y1 - l.box.y0);
	const [ta, tb] = [thickness(a), thickness(b)];
	if (Math.max(ta, tb) > SIZE_RATIO * Math.min(ta, tb)) return false;
	const [across, along] = a.vertical ? ["x", "y"] : ["y", "x"];
	const gap = Math.max(a.box[`${across}0`], b.box[`${across}0`]) - Math.min(a.box[`${across}1`], b.box[`${across}1`]);
	if (gap > GAP * Math.max(ta, tb)) return false;
	const shared = Math.min(a.box[`${along}1`], b.box[`${along}1`]) - Math.max(a.box[`${along}0`], b.box[`${along}0`]);
	const shorter = Math.min(a.box[`${along}1`] - a.box[`${along}0`], b.box[`${along}1`] - b.box[`${along}0`]);
	return shared >= OVERLAP * shorter;
}

/** Top to bottom by rows of blocks; within a row, vertical (manga) pages right to left, others left to right. */
function readingOrder(a, b) {
	const sameRow = a.box.y0 < b.box.y1 && b.box.y0 < a.box.y1;
	if (!sameRow) return a.box.y0 - b.box.y0;
	return a.vertical || b.vertical ? b.box.x1 - a.box.x1 : a.box.x0 - b.box.x0;
}

function union(boxes) {
	return {
		x0: Math.min(...boxes.map((b) => b.x0)),
		y0: Math.min(...boxes.map((b) => b.y0)),
		x1: Math.max(...boxes.map((b) => b.x1)),
		y1: Math.max(...boxes.map((b) => b.y1)),
	};
}
