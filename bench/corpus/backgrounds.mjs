/**
 * Clean plates for the synthetic corpus: straight RGBA8 buffers made from a seeded random
 * source, so the same seed always gives the same pixels.
 */

/** mulberry32: a small deterministic PRNG giving floats in [0, 1). */
export function random(seed) {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

function blank(width, height) {
	return { width, height, data: new Uint8Array(width * height * 4) };
}

function put(img, x, y, [r, g, b]) {
	const i = (y * img.width + x) * 4;
	img.data[i] = r;
	img.data[i + 1] = g;
	img.data[i + 2] = b;
	img.data[i + 3] = 255;
}

/** A manga-like page: light paper with balloons drawn later by `drawBalloon`. */
export function paper(width, height, rnd) {
	const img = blank(width, height);
	const tone = 225 + Math.floor(rnd() * 25);
	for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) put(img, x, y, [tone, tone, tone - 4]);
	return img;
}

/** A white ellipse with a dark outline, around a text box (the balloon the text sits in). */
export function drawBalloon(img, box, rnd) {
	const cx = (box.x0 + box.x1) / 2;
	const cy = (box.y0 + box.y1) / 2;
	// 1.45 × the half sides puts the text box's corners inside the ellipse, with a margin as letterers leave.
	const rx = ((box.x1 - box.x0) / 2) * 1.45 + 10 + rnd() * 10;
	const ry = ((box.y1 - box.y0) / 2) * 1.45 + 10 + rnd() * 10;
	const outline = 2.5;
	for (let y = Math.max(0, Math.floor(cy - ry - 4)); y < Math.min(img.height, cy + ry + 4); y++) {
		for (let x = Math.max(0, Math.floor(cx - rx - 4)); x < Math.min(img.width, cx + rx + 4); x++) {
			const d = Math.hypot((x - cx) / rx, (y - cy) / ry);
			const edge = (d - 1) * Math.min(rx, ry); // signed distance in pixels, roughly
			if (edge < -outline) put(img, x, y, [255, 255, 255]);
			else if (edge < 0) put(img, x, y, [20, 20, 20]);
		}
	}
}

/**
 * A white rounded box with a dark anti-aliased outline whose inner edge lies `margins` pixels
 * outside the text box on each side ({ left, top, right, bottom }); a negative margin puts the
 * outline over the text's edge, as when a letterer fits text to a tight balloon or a stroke
 * touches the border.
 */
export function drawBoxBalloon(img, box, margins, { outline = 3, radius = 6 } = {}) {
	const x0 = box.x0 - margins.left;
	const y0 = box.y0 - margins.top;
	const x1 = box.x1 + margins.right;
	const y1 = box.y1 + margins.bottom;
	const cx = (x0 + x1) / 2;
	const cy = (y0 + y1) / 2;
	const hx = (x1 - x0) / 2 - radius;
	const hy = (y1 - y0) / 2 - radius;
	const reach = outline + 2;
	for (let y = Math.max(0, Math.floor(y0 - reach)); y < Math.min(img.height, Math.ceil(y1 + reach)); y++) {
		for (let x = Math.max(0, Math.floor(x0 - reach)); x < Math.min(img.width, Math.ceil(x1 + reach)); x++) {
			// Signed distance from the rounded inner edge, sampled at the pixel's centre.
			const qx = Math.abs(x + 0.5 - cx) - hx;
			const qy = Math.abs(y + 0.5 - cy) - hy;
			const d = Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - radius;
			const covered = Math.max(0, Math.min(1, outline + 0.5 - d));
			const white = Math.max(0, Math.min(1, 0.5 - d));
			if (covered === 0) continue;
			const i = (y * img.width + x) * 4;
			for (let c = 0; c < 3; c++) {
				const drawn = img.data[i + c] * (1 - covered) + 20 * covered;
				img.data[i + c] = Math.round(drawn * (1 - white) + 255 * white);
			}
			img.data[i + 3] = 255;
		}
	}
}

/** A flat coloured label (a price tag, a banner). */
export function drawLabel(img, box, colour) {
	for (let y = Math.max(0, box.y0 - 14); y < Math.min(img.height, box.y1 + 14); y++) {
		for (let x = Math.max(0, box.x0 - 20); x < Math.min(img.width, box.x1 + 20); x++) put(img, x, y, colour);
	}
}

/** A linear or radial two-colour gradient over the whole image. */
export function gradient(width, height, rnd) {
	const img = blank(width, height);
	const a = [rnd() * 255, rnd() * 255, rnd() * 255];
	const b = [rnd() * 255, rnd() * 255, rnd() * 255];
	const radial = rnd() < 0.4;
	const angle = rnd() * Math.PI * 2;
	const [dx, dy] = [Math.cos(angle), Math.sin(angle)];
	const reach = Math.abs(dx) * width + Math.abs(dy) * height;
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			const t = radial
				? Math.min(1, Math.hypot(x - width / 2, y - height / 2) / (0.6 * Math.hypot(width, height)))
				: ((x - width / 2) * dx + (y - height / 2) * dy) / reach + 0.5;
			put(
				img,
				x,
				y,
				[0, 1, 2].map((c) => Math.round(a[c] + (b[c] - a[c]) * t)),
			);
		}
	}
	return img;
}

/**
 * Photo-like texture: colour fractal value noise (octaves from 1/8 of the image down to 4 px),
 * smooth at large scale with fine grain on top, like foliage, fabric or a blurred background.
 */
export function texture(width, height, rnd) {
	const img = blank(width, height);
	const channels = [0, 1, 2].map(() => fractalNoise(width, height, rnd));
	const base = [rnd() * 160 + 40, rnd() * 160 + 40, rnd() * 160 + 40];
	for (let i = 0; i < width * height; i++) {
		for (let c = 0; c < 3; c++)
			img.data[i * 4 + c] = Math.max(0, Math.min(255, Math.round(base[c] + channels[c][i] * 70)));
		img.data[i * 4 + 3] = 255;
	}
	return img;
}

function fractalNoise(width, height, rnd) {
	const out = new Float32Array(width * height);
	let cell = Math.max(8, Math.floor(Math.min(width, height) / 8));
	let amplitude = 1;
	while (cell >= 4) {
		const gw = Math.ceil(width / cell) + 2;
		const gh = Math.ceil(height / cell) + 2;
		const grid = Float32Array.from({ length: gw * gh }, () => rnd() * 2 - 1);
		for (let y = 0; y < height; y++) {
			const gy = y / cell;
			const y0 = Math.floor(gy);
			const fy = smooth(gy - y0);
			for (let x = 0; x < width; x++) {
				const gx = x / cell;
				const x0 = Math.floor(gx);
				const fx = smooth(gx - x0);
				const top = grid[y0 * gw + x0] * (1 - fx) + grid[y0 * gw + x0 + 1] * fx;
				const bottom = grid[(y0 + 1) * gw + x0] * (1 - fx) + grid[(y0 + 1) * gw + x0 + 1] * fx;
				out[y * width + x] += amplitude * (top * (1 - fy) + bottom * fy);
			}
		}
		cell = Math.floor(cell / 2);
		amplitude *= 0.55;
	}
	return out;
}

function smooth(t) {
	return t * t * (3 - 2 * t);
}

/**
 * The periodic backgrounds lettering sits on in manga and print: screentone dots (square or on a
 * 45° screen), line tones (diagonal or level) and a coloured weave, chosen by `variant` (0..5).
 * All but one repeat exactly, by whole pixels (a 45° screen of step (a, a)), as digital screentone
 * does; variant 3 is as scanned: a 30° screen of step 4.7 px with grain, which no shift repeats.
 * Dots are anti-aliased (4×4 samples a pixel).
 */
export function periodic(width, height, variant) {
	const grey = (v) => [v, v, v];
	const tones = [
		{ dot: screen(4, 1.6, true), ink: grey(50), paper: grey(240) },
		{ dot: (x, y) => ((((x + y) % 8) + 8) % 8 < 3 ? 1 : 0), ink: grey(40), paper: grey(230) },
		{ dot: weave, ink: [30, 50, 90], paper: [90, 140, 200] },
		// As scanned: a screen at 30° whose step is no whole number of pixels, with grain.
		{ dot: angledScreen(4.7, 1.7, Math.PI / 6), ink: grey(70), paper: grey(250), grain: 8 },
		{ dot: (_x, y) => (y % 5 < 2 ? 1 : 0), ink: grey(60), paper: grey(235) },
		{ dot: screen(5, 2.6, true), ink: [120, 60, 30], paper: [250, 220, 150] },
	];
	const { dot, ink, paper, grain = 0 } = tones[variant % tones.length];
	const img = blank(width, height);
	const rnd = random(variant + 1);
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			const t = dot(x, y);
			const noise = grain * (rnd() * 2 - 1);
			put(
				img,
				x,
				y,
				[0, 1, 2].map((c) => Math.max(0, Math.min(255, Math.round(paper[c] * (1 - t) + ink[c] * t + noise)))),
			);
		}
	}
	return img;
}

/** Share of the pixel covered by round dots of `radius` on a screen of any step, turned by `angle`. */
function angledScreen(step, radius, angle) {
	const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
	return (x, y) => {
		let inside = 0;
		for (let sy = 0; sy < 4; sy++) {
			for (let sx = 0; sx < 4; sx++) {
				const px = x + (sx + 0.5) / 4;
				const py = y + (sy + 0.5) / 4;
				const u = px * cos + py * sin;
				const v = py * cos - px * sin;
				if (Math.hypot(u - step * Math.round(u / step), v - step * Math.round(v / step)) < radius) inside++;
			}
		}
		return inside / 16;
	};
}

/** Share of the pixel covered by round dots of `radius` on a screen of step `step`, square or at 45°. */
function screen(step, radius, rotated) {
	return (x, y) => {
		let inside = 0;
		for (let sy = 0; sy < 4; sy++) {
			for (let sx = 0; sx < 4; sx++) {
				const px = x + (sx + 0.5) / 4;
				const py = y + (sy + 0.5) / 4;
				// On a 45° screen the dots sit at (i·step + j·step, i·step − j·step): the cell is rotated.
				const u = rotated ? (px + py) / 2 : px;
				const v = rotated ? (px - py) / 2 : py;
				const du = u - step * Math.round(u / step);
				const dv = v - step * Math.round(v / step);
				const d = rotated ? Math.hypot(du + dv, du - dv) : Math.hypot(du, dv);
				if (d < radius) inside++;
			}
		}
		return inside / 16;
	};
}

function weave(x, y) {
	return (((x >> 2) + (y >> 2)) % 2 === 0) !== (x % 4 === 0) ? 1 : 0;
}
