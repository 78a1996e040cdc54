/**
 * Small pages for layout tests, painted pixel by pixel so every test can say exactly what it drew:
 * balloons (a white ellipse in a dark anti-aliased outline), caption panels, hatching and grain for
 * art, and lettering in a blocky 5×7 face (horizontal lines or vertical columns). The page keeps
 * the lettering's pixels and the plate (the page without lettering) to check erasure against.
 */
import type { Box, Raster } from "../../src/pipeline/types";

type Colour = [number, number, number, number];

const WHITE: Colour = [255, 255, 255, 255];
const INK: Colour = [20, 20, 20, 255];

/** 5×7 cells of each letter ("#" inked): the few letters tests write. */
const FACE: Record<string, string[]> = {
	A: [".###.", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"],
	C: [".####", "#....", "#....", "#....", "#....", "#....", ".####"],
	E: ["#####", "#....", "#....", "####.", "#....", "#....", "#####"],
	H: ["#...#", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"],
	I: ["#####", "..#..", "..#..", "..#..", "..#..", "..#..", "#####"],
	L: ["#....", "#....", "#....", "#....", "#....", "#....", "#####"],
	N: ["#...#", "##..#", "#.#.#", "#..##", "#...#", "#...#", "#...#"],
	O: [".###.", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."],
	R: ["####.", "#...#", "#...#", "####.", "#.#..", "#..#.", "#...#"],
	S: [".####", "#....", "#....", ".###.", "....#", "....#", "####."],
	T: ["#####", "..#..", "..#..", "..#..", "..#..", "..#..", "..#.."],
	W: ["#...#", "#...#", "#...#", "#.#.#", "#.#.#", "#.#.#", ".#.#."],
	Y: ["#...#", "#...#", ".#.#.", "..#..", "..#..", "..#..", "..#.."],
	/** Lowercase with an ascender: a counter below, open art beside the stem above. */
	b: ["#....", "#....", "####.", "#...#", "#...#", "#...#", "####."],
	d: ["....#", "....#", ".####", "#...#", "#...#", "#...#", ".####"],
	"!": ["..#..", "..#..", "..#..", "..#..", "..#..", ".....", "..#.."],
	/** A heavy glyph: solid wherever a square of its strokes' width fits, as in a bold kanji's joints. */
	"■": ["#####", "#####", "#####", "#####", "#####", "#####", "#####"],
	/** A dot in the middle of the cell: written over a "C", a stroke standing alone in its counter. */
	"·": [".....", ".....", ".....", "..#..", ".....", ".....", "....."],
};

export class Page {
	readonly raster: Raster;
	/** 1 on every pixel of lettering. */
	readonly lettering: Uint8Array;
	/** The page without its lettering. */
	readonly plate: Raster;

	constructor(
		readonly width: number,
		readonly height: number,
		background: Colour = WHITE,
	) {
		const data = new Uint8Array(width * height * 4);
		for (let i = 0; i < width * height; i++) data.set(background, i * 4);
		this.raster = { width, height, data };
		this.plate = { width, height, data: data.slice() };
		this.lettering = new Uint8Array(width * height);
	}

	/** Art: paints the plate and the page alike. */
	private art(x: number, y: number, colour: Colour): void {
		if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
		const i = (y * this.width + x) * 4;
		this.raster.data.set(colour, i);
		this.plate.data.set(colour, i);
	}

	/** A balloon: white inside, an outline `stroke` px wide, its outer edge anti-aliased. */
	balloon(cx: number, cy: number, rx: number, ry: number, stroke = 3): this {
		for (let y = Math.floor(cy - ry - 2); y <= cy + ry + 2; y++) {
			for (let x = Math.floor(cx - rx - 2); x <= cx + rx + 2; x++) {
				const d = (Math.hypot((x + 0.5 - cx) / rx, (y + 0.5 - cy) / ry) - 1) * Math.min(rx, ry);
				if (d < -stroke) this.art(x, y, WHITE);
				else if (d < 0) this.art(x, y, INK);
				else if (d < 1) this.art(x, y, mix(INK, this.at(x, y), 1 - d));
			}
		}
		return this;
	}

	/**
	 * A balloon with a tail: the ellipse and a triangle from two points of it to `tip`, drawn as one
	 * shape, the outline `stroke` px inside its edge (where the tail meets the ellipse, a corner).
	 */
	balloonWithTail(cx: number, cy: number, rx: number, ry: number, tip: [number, number], stroke = 3): this {
		const a: [number, number] = [cx + rx * 0.6, cy + ry * 0.4];
		const b: [number, number] = [cx + rx * 0.85, cy - ry * 0.05];
		const side = (p: [number, number], q: [number, number], x: number, y: number) =>
			Math.sign((q[0] - p[0]) * (y - p[1]) - (q[1] - p[1]) * (x - p[0]));
		const inShape = (x: number, y: number) => {
			if (Math.hypot((x + 0.5 - cx) / rx, (y + 0.5 - cy) / ry) < 1) return true;
			const s = side(a, tip, x + 0.5, y + 0.5);
			return s === side(tip, b, x + 0.5, y + 0.5) && s === side(b, a, x + 0.5, y + 0.5);
		};
		const painted: [number, number, Colour][] = [];
		for (let y = 0; y < this.height; y++) {
			for (let x = 0; x < this.width; x++) {
				if (!inShape(x, y)) continue;
				let edge = false;
				for (let dy = -stroke; dy <= stroke && !edge; dy++)
					for (let dx = -stroke; dx <= stroke && !edge; dx++)
						edge = dx * dx + dy * dy <= stroke * stroke && !inShape(x + dx, y + dy);
				painted.push([x, y, edge ? INK : WHITE]);
			}
		}
		for (const [x, y, colour] of painted) this.art(x, y, colour);
		return this;
	}

	/** A caption panel: a filled rectangle with a dark border. */
	panel(box: Box, fill: Colour = WHITE, border = 2): this {
		for (let y = box.y0; y < box.y1; y++) {
			for (let x = box.x0; x < box.x1; x++) {
				const edge = x < box.x0 + border || y < box.y0 + border || x >= box.x1 - border || y >= box.y1 - border;
				this.art(x, y, edge ? INK : fill);
			}
		}
		return this;
	}

	/** Diagonal hatching, one line of `width` px every `step` px, over the box. */
	hatch(box: Box, step = 7, width = 2): this {
		for (let y = box.y0; y < box.y1; y++)
			for (let x = box.x0; x < box.x1; x++) if ((x + y) % step < width) this.art(x, y, INK);
		return this;
	}

	/**
	 * Screentone as scanned: round dots of `radius` on a screen turned by `angle`, whose step is no
	 * whole number of pixels, so that no shift of the pixels repeats it exactly.
	 */
	screen(box: Box, { step = 4.7, radius = 1.7, angle = Math.PI / 6, grain = 0 } = {}): this {
		const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
		const off = (t: number) => t - step * Math.round(t / step);
		let s = 1;
		for (let y = box.y0; y < box.y1; y++)
			for (let x = box.x0; x < box.x1; x++) {
				let inside = 0;
				for (const [dx, dy] of QUARTERS) {
					const u = (x + dx) * cos + (y + dy) * sin;
					const v = (y + dy) * cos - (x + dx) * sin;
					if (Math.hypot(off(u), off(v)) < radius) inside++;
				}
				s = (s * 1103515245 + 12345) & 0x7fffffff;
				const noise = grain ? (s % (2 * grain + 1)) - grain : 0;
				const v = Math.round(250 - (180 * inside) / 4 + noise);
				this.art(x, y, [v, v, v, 255]);
			}
		return this;
	}

	/**
	 * A coloured weave of `cell` px squares, every square's first column in the other colour (digital
	 * tone: it repeats by whole pixels, (cell, cell) and (2 cell, 0), never by a shift of a row).
	 */
	weave(box: Box, cell = 4, ink: Colour = [30, 50, 90, 255], paper: Colour = [90, 140, 200, 255]): this {
		for (let y = box.y0; y < box.y1; y++)
			for (let x = box.x0; x < box.x1; x++) {
				const dark = ((Math.floor(x / cell) + Math.floor(y / cell)) % 2 === 0) !== (x % cell === 0);
				this.art(x, y, dark ? ink : paper);
			}
		return this;
	}

	/** A wall lit from one side: grey running from `from` to `to` across the box. */
	gradient(box: Box, from = 200, to = 140): this {
		for (let y = box.y0; y < box.y1; y++)
			for (let x = box.x0; x < box.x1; x++) {
				const v = Math.round(from + ((to - from) * (x - box.x0)) / (box.x1 - box.x0));
				this.art(x, y, [v, v - 10, v - 25, 255]);
			}
		return this;
	}

	/** Grey grain, like a photo's or a scanned page's: deterministic from the seed. */
	grain(box: Box, seed = 1, from = 90, spread = 80): this {
		let s = seed;
		for (let y = box.y0; y < box.y1; y++) {
			for (let x = box.x0; x < box.x1; x++) {
				s = (s * 1103515245 + 12345) & 0x7fffffff;
				const v = from + (s % spread);
				this.art(x, y, [v, v, v, 255]);
			}
		}
		return this;
	}

	/**
	 * A photo out of focus: smooth colour in greens and blues drifting across the box, a couple of
	 * hundred pixels from one hue to the next; `grain`: each channel off by up to that many levels a
	 * pixel, a sensor's noise. Deterministic from the seed.
	 */
	photo(box: Box, seed = 1, grain = 0): this {
		const phase = (k: number) => ((seed * 7919 + k * 104729) % 628) / 100;
		const wave = (x: number, y: number, k: number) =>
			Math.cos(x / 41 + y / 67 + phase(k)) + 0.6 * Math.cos(x / 23 - y / 31 + phase(k + 3));
		let s = seed;
		const noise = () => {
			s = (s * 1103515245 + 12345) & 0x7fffffff;
			return grain ? (s % (2 * grain + 1)) - grain : 0;
		};
		for (let y = box.y0; y < box.y1; y++)
			for (let x = box.x0; x < box.x1; x++) {
				const r = 60 + 18 * wave(x, y, 0) + noise();
				const g = 150 + 24 * wave(x, y, 1) + noise();
				const b = 120 + 28 * wave(x, y, 2) + noise();
				this.art(x, y, [Math.round(r), Math.round(g), Math.round(b), 255]);
			}
		return this;
	}

	/**
	 * Lettering from (x, y): letters `scale` px a cell, a cell apart; horizontal lines one under the
	 * other, or (vertical) columns right to left. `antialiased`: placed half a pixel right and down,
	 * so that their edges cover pixels by halves and corners by quarters, as a font's do. `outline`:
	 * each letter drawn first `width` px bolder in that colour, as lettering set on a photo is, its
	 * fill over it. Returns the ink's box and each line's (the fill's).
	 */
	write(
		lines: string[],
		x: number,
		y: number,
		scale: number,
		{
			vertical = false,
			colour = INK,
			antialiased = false,
			outline,
		}: { vertical?: boolean; colour?: Colour; antialiased?: boolean; outline?: { colour: Colour; width: number } } = {},
	) {
		const step = 6 * scale;
		const lead = 9 * scale;
		const boxes: Box[] = [];
		const at = (k: number, n: number) =>
			vertical ? [x + (lines.length - 1 - k) * step, y + n * lead] : [x + n * step, y + k * lead];
		if (outline)
			for (const [k, line] of lines.entries())
				for (const [n, letter] of [...line].entries()) {
					const [lx, ly] = at(k, n) as [number, number];
					this.letter(letter, lx, ly, scale, outline.colour, outline.width);
				}
		for (const [k, line] of lines.entries()) {
			const letters = [...line];
			for (const [n, letter] of letters.entries()) {
				const [lx, ly] = at(k, n) as [number, number];
				if (antialiased) this.softLetter(letter, lx, ly, scale, colour);
				else this.letter(letter, lx, ly, scale, colour);
			}
			const along = letters.length * (vertical ? lead : step) - scale * (vertical ? 2 : 1);
			const lx = vertical ? x + (lines.length - 1 - k) * step : x;
			const ly = vertical ? y : y + k * lead;
			boxes.push(
				vertical
					? { x0: lx, y0: ly, x1: lx + 5 * scale, y1: ly + along }
					: { x0: lx, y0: ly, x1: lx + along, y1: ly + 7 * scale },
			);
		}
		const box = boxes.reduce((a, b) => ({
			x0: Math.min(a.x0, b.x0),
			y0: Math.min(a.y0, b.y0),
			x1: Math.max(a.x1, b.x1),
			y1: Math.max(a.y1, b.y1),
		}));
		return { box, lines: lines.map((text, k) => ({ text, box: boxes[k]! })) };
	}

	/** A letter's cells, each `bolder` px larger all round. */
	private letter(letter: string, x: number, y: number, scale: number, colour: Colour, bolder = 0): void {
		const cells = FACE[letter];
		if (!cells) return;
		for (let cy = 0; cy < 7; cy++) {
			for (let cx = 0; cx < 5; cx++) {
				if (cells[cy]![cx] !== "#") continue;
				for (let py = -bolder; py < scale + bolder; py++) {
					for (let px = -bolder; px < scale + bolder; px++) {
						const gx = x + cx * scale + px;
						const gy = y + cy * scale + py;
						if (gx < 0 || gy < 0 || gx >= this.width || gy >= this.height) continue;
						this.raster.data.set(colour, (gy * this.width + gx) * 4);
						this.lettering[gy * this.width + gx] = 1;
					}
				}
			}
		}
	}

	/** A letter half a pixel right and down of (x, y): each pixel takes the ink by the share of it inked, in quarters. */
	private softLetter(letter: string, x: number, y: number, scale: number, colour: Colour): void {
		const cells = FACE[letter];
		if (!cells) return;
		const inked = (px: number, py: number) => {
			const cx = Math.floor((px - x - 0.5) / scale);
			const cy = Math.floor((py - y - 0.5) / scale);
			return cx >= 0 && cy >= 0 && cx < 5 && cy < 7 && cells[cy]![cx] === "#";
		};
		for (let gy = y; gy <= y + 7 * scale; gy++) {
			for (let gx = x; gx <= x + 5 * scale; gx++) {
				if (gx < 0 || gy < 0 || gx >= this.width || gy >= this.height) continue;
				let quarters = 0;
				for (const [dx, dy] of QUARTERS) if (inked(gx + dx, gy + dy)) quarters++;
				if (quarters === 0) continue;
				this.raster.data.set(mix(colour, this.at(gx, gy), quarters / 4), (gy * this.width + gx) * 4);
				this.lettering[gy * this.width + gx] = 1;
			}
		}
	}

	at(x: number, y: number): Colour {
		const i = (y * this.width + x) * 4;
		return Array.from(this.raster.data.subarray(i, i + 4)) as Colour;
	}

	/** A copy to erase, leaving this page as drawn. */
	copy(): Raster {
		return { width: this.width, height: this.height, data: this.raster.data.slice() };
	}

	/** Lettering pixels (within `box`, default all) still as drawn in `erased`: what erasure left. */
	lettersLeft(erased: Raster, box: Box = { x0: 0, y0: 0, x1: this.width, y1: this.height }): number {
		let left = 0;
		for (let y = Math.max(0, box.y0); y < Math.min(this.height, box.y1); y++) {
			for (let x = Math.max(0, box.x0); x < Math.min(this.width, box.x1); x++) {
				const i = y * this.width + x;
				if (this.lettering[i] && differs(erased.data, this.plate.data, i) > 60) left++;
			}
		}
		return left;
	}

	/** Pixels that are not lettering yet changed by more than a few levels: art damaged. */
	artChanged(erased: Raster): number {
		let changed = 0;
		for (let i = 0; i < this.width * this.height; i++) {
			if (this.lettering[i]) continue;
			// The lettering's anti-aliased rim and a couple of pixels around it are erased too.
			if (nearLettering(this.lettering, this.width, this.height, i, 3)) continue;
			if (differs(erased.data, this.plate.data, i) > 24) changed++;
		}
		return changed;
	}
}

function differs(a: Uint8Array, b: Uint8Array, i: number): number {
	let d = 0;
	for (let c = 0; c < 4; c++) d = Math.max(d, Math.abs(a[i * 4 + c]! - b[i * 4 + c]!));
	return d;
}

function nearLettering(lettering: Uint8Array, w: number, h: number, i: number, r: number): boolean {
	const x = i % w;
	const y = (i - x) / w;
	for (let dy = -r; dy <= r; dy++) {
		for (let dx = -r; dx <= r; dx++) {
			const nx = x + dx;
			const ny = y + dy;
			if (nx >= 0 && ny >= 0 && nx < w && ny < h && lettering[ny * w + nx]) return true;
		}
	}
	return false;
}

/** Where a pixel's four quarters are sampled. */
const QUARTERS = [
	[0.25, 0.25],
	[0.75, 0.25],
	[0.25, 0.75],
	[0.75, 0.75],
] as const;

function mix(a: Colour, b: Colour, t: number): Colour {
	return [0, 1, 2, 3].map((c) => Math.round(a[c]! * t + b[c]! * (1 - t))) as Colour;
}

/**
 * Boxes as rough as a vision model's, each change explicit: `moved` by shares of the box's size
 * (centre off), `scaled` about the centre, `cut` to a share of it from one side.
 */
export const rough = {
	moved: (b: Box, right: number, down: number): Box => {
		const dx = Math.round(right * (b.x1 - b.x0));
		const dy = Math.round(down * (b.y1 - b.y0));
		return { x0: b.x0 + dx, y0: b.y0 + dy, x1: b.x1 + dx, y1: b.y1 + dy };
	},
	scaled: (b: Box, factor: number): Box => {
		const cx = (b.x0 + b.x1) / 2;
		const cy = (b.y0 + b.y1) / 2;
		const hw = ((b.x1 - b.x0) * factor) / 2;
		const hh = ((b.y1 - b.y0) * factor) / 2;
		return { x0: Math.round(cx - hw), y0: Math.round(cy - hh), x1: Math.round(cx + hw), y1: Math.round(cy + hh) };
	},
	cut: (b: Box, keep: "left" | "right" | "top" | "bottom", share: number): Box => {
		const w = Math.round((b.x1 - b.x0) * share);
		const h = Math.round((b.y1 - b.y0) * share);
		if (keep === "left") return { ...b, x1: b.x0 + w };
		if (keep === "right") return { ...b, x0: b.x1 - w };
		if (keep === "top") return { ...b, y1: b.y0 + h };
		return { ...b, y0: b.y1 - h };
	},
};
