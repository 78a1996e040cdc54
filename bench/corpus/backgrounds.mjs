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
