/**
 * The room a block's translation is set in, as a shape: for each row, how far the room reaches left
 * and right (and for each column, how far up and down). A line of text gets the width the shape has
 * over the rows it covers, so lines in a balloon follow its curve the way a letterer's lozenge does,
 * instead of all sharing the width of an inscribed rectangle.
 *
 * A span over a band of rows is the intersection of the rows' spans, the band first grown by the
 * margin above and below and the result pulled in by the margin at both ends: ink kept that far from
 * the edge in every direction (a square's erosion, a little more than a disc's at slanted edges).
 */
import type { Box } from "../types";

export interface Span {
	from: number;
	to: number;
}

/** Extent of the room along one axis, per integer line of pixels across the other (image px). */
interface Profile {
	/** Image coordinate of entry 0. */
	origin: number;
	/** Exact extent along the axis (the first and last lines may be partly inside). */
	lo: number;
	hi: number;
	from: Float64Array;
	/** Empty lines hold to <= from. */
	to: Float64Array;
}

export class Frame {
	private rowsCache?: Profile;
	private columnsCache?: Profile;

	private constructor(
		/** Bounding box, image px. */
		readonly box: Box,
		/** Where a block of text is centred: the shape's centroid. */
		readonly centre: { x: number; y: number },
		private readonly build: (axis: "rows" | "columns") => Profile,
	) {}

	/** The whole box. */
	static rectangle(box: Box): Frame {
		const flat = (axis: "rows" | "columns"): Profile => {
			const [origin, end, from, to] =
				axis === "rows" ? [box.y0, box.y1, box.x0, box.x1] : [box.x0, box.x1, box.y0, box.y1];
			const n = Math.max(0, Math.ceil(end) - Math.floor(origin));
			return {
				origin: Math.floor(origin),
				lo: origin,
				hi: end,
				from: new Float64Array(n).fill(from),
				to: new Float64Array(n).fill(to),
			};
		};
		return new Frame(box, { x: (box.x0 + box.x1) / 2, y: (box.y0 + box.y1) / 2 }, flat);
	}

	/** The ellipse inscribed in `box`. */
	static ellipse(box: Box): Frame {
		const cx = (box.x0 + box.x1) / 2;
		const cy = (box.y0 + box.y1) / 2;
		const rx = (box.x1 - box.x0) / 2;
		const ry = (box.y1 - box.y0) / 2;
		const chords = (axis: "rows" | "columns"): Profile => {
			const [origin, end, c, r, cAcross, rAcross] =
				axis === "rows" ? [box.y0, box.y1, cy, ry, cx, rx] : [box.x0, box.x1, cx, rx, cy, ry];
			const start = Math.floor(origin);
			const n = Math.max(0, Math.ceil(end) - start);
			const from = new Float64Array(n);
			const to = new Float64Array(n);
			for (let i = 0; i < n; i++) {
				// The chord of a line one pixel thick is the shorter of its two edges' chords.
				const far = Math.max(Math.abs(start + i - c), Math.abs(start + i + 1 - c));
				const t = r > 0 ? far / r : 1;
				const half = t < 1 ? rAcross * Math.sqrt(1 - t * t) : 0;
				from[i] = cAcross - half;
				to[i] = cAcross + half;
			}
			return { origin: start, lo: origin, hi: end, from, to };
		};
		return new Frame(box, { x: cx, y: cy }, chords);
	}

	/**
	 * A shape given as one byte per pixel of `box` (non-zero inside; `box` on whole pixels). Where a
	 * row holds several runs (a cloud's scallops, a tail beside the body), the one through the
	 * centroid's column counts, else the longest.
	 */
	static mask(box: Box, inside: Uint8Array): Frame {
		const width = box.x1 - box.x0;
		const height = box.y1 - box.y0;
		let count = 0;
		let sumX = 0;
		let sumY = 0;
		for (let y = 0; y < height; y++) {
			for (let x = 0; x < width; x++) {
				if (!inside[y * width + x]) continue;
				count++;
				sumX += x;
				sumY += y;
			}
		}
		if (count === 0) return Frame.rectangle({ x0: box.x0, y0: box.y0, x1: box.x0, y1: box.y0 });
		const ax = sumX / count;
		const ay = sumY / count;
		const runs = (axis: "rows" | "columns"): Profile => {
			const [lines, length, anchor, origin, across] =
				axis === "rows" ? [height, width, ax, box.y0, box.x0] : [width, height, ay, box.x0, box.y0];
			const at = (line: number, k: number) => inside[axis === "rows" ? line * width + k : k * width + line];
			const from = new Float64Array(lines);
			const to = new Float64Array(lines);
			for (let line = 0; line < lines; line++) {
				let best = { from: 0, to: 0, through: false };
				for (let k = 0; k < length; ) {
					if (!at(line, k)) {
						k++;
						continue;
					}
					const start = k;
					while (k < length && at(line, k)) k++;
					const through = start <= anchor && anchor < k;
					if (through || (!best.through && k - start > best.to - best.from)) best = { from: start, to: k, through };
					if (through) break;
				}
				from[line] = across + best.from;
				to[line] = across + best.to;
			}
			return { origin, lo: origin, hi: origin + lines, from, to };
		};
		return new Frame(box, { x: box.x0 + ax + 0.5, y: box.y0 + ay + 0.5 }, runs);
	}

	/** The same shape cut to `clip` (the image's edges). */
	within(clip: Box): Frame {
		const box = {
			x0: Math.max(this.box.x0, clip.x0),
			y0: Math.max(this.box.y0, clip.y0),
			x1: Math.min(this.box.x1, clip.x1),
			y1: Math.min(this.box.y1, clip.y1),
		};
		const centre = {
			x: Math.min(box.x1, Math.max(box.x0, this.centre.x)),
			y: Math.min(box.y1, Math.max(box.y0, this.centre.y)),
		};
		const cut = (axis: "rows" | "columns"): Profile => {
			const whole = this.build(axis);
			const [lo, hi, acrossLo, acrossHi] =
				axis === "rows" ? [clip.y0, clip.y1, clip.x0, clip.x1] : [clip.x0, clip.x1, clip.y0, clip.y1];
			const from = whole.from.map((v) => Math.max(v, acrossLo));
			const to = whole.to.map((v, i) => {
				const at = whole.origin + i;
				return at + 1 <= lo || at >= hi ? Number.NEGATIVE_INFINITY : Math.min(v, acrossHi);
			});
			return { origin: whole.origin, lo: Math.max(whole.lo, lo), hi: Math.min(whole.hi, hi), from, to };
		};
		return new Frame(box, centre, cut);
	}

	/** Horizontal extent free over rows [y0, y1), kept `margin` px from the edge; null when there is none. */
	across(y0: number, y1: number, margin: number): Span | null {
		this.rowsCache ??= this.build("rows");
		return intersect(this.rowsCache, y0 - margin, y1 + margin, margin);
	}

	/** Vertical extent free over columns [x0, x1), kept `margin` px from the edge; null when there is none. */
	along(x0: number, x1: number, margin: number): Span | null {
		this.columnsCache ??= this.build("columns");
		return intersect(this.columnsCache, x0 - margin, x1 + margin, margin);
	}
}

function intersect(profile: Profile, start: number, end: number, margin: number): Span | null {
	if (start < profile.lo - 1e-6 || end > profile.hi + 1e-6) return null;
	const first = Math.floor(start) - profile.origin;
	const last = Math.ceil(end) - profile.origin;
	if (first < 0 || last > profile.from.length || last <= first) return null;
	let from = Number.NEGATIVE_INFINITY;
	let to = Number.POSITIVE_INFINITY;
	for (let i = first; i < last; i++) {
		from = Math.max(from, profile.from[i] as number);
		to = Math.min(to, profile.to[i] as number);
	}
	from += margin;
	to -= margin;
	return to > from ? { from, to } : null;
}
