/**
 * Real-looking pages for the layout benchmark, drawn as SVG and rendered by resvg with the system's
 * Noto fonts: a manga page (panels, hatching, screentone, speed lines, balloons with vertical and
 * horizontal lettering, a caption, a sound effect on the art), a colour comic page in the 1940s
 * style, a shop banner (with a brand name that needs no translation) and a street sign on a photo.
 * Each page comes with its ground truth: the clean plate (no lettering), the lettering's coverage,
 * and its regions (text, translation, exact box of the ink, vertical, lines).
 *
 *   const pages = await makePages();   // [{ name, image, plate, coverage, regions }]
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { initWasm, Resvg } from "@resvg/resvg-wasm";
import { random, texture } from "../corpus/backgrounds.mjs";

const FONT_FILES = [
	"/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
	"/usr/share/fonts/truetype/noto/NotoSans-Bold.ttf",
	"/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
	"/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
];

let fonts;
async function ready() {
	if (fonts) return fonts;
	const require = createRequire(import.meta.url);
	try {
		await initWasm(readFileSync(require.resolve("@resvg/resvg-wasm/index_bg.wasm")));
	} catch (error) {
		if (!String(error).includes("Already initialized")) throw error;
	}
	fonts = FONT_FILES.map((f) => readFileSync(f));
	return fonts;
}

function render(svg, width, height) {
	const out = new Resvg(svg, {
		font: { fontBuffers: fonts, loadSystemFonts: false },
		fitTo: { mode: "original" },
	}).render();
	const data = new Uint8Array(out.pixels);
	if (out.width !== width || out.height !== height) throw new Error("unexpected render size");
	return { width, height, data };
}

const esc = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * A block of lettering: `lines` set from (x, y) (top left), horizontal lines downwards or vertical
 * columns right to left (one character per cell). Gives its SVG and each line's box.
 */
function lettering({ lines, x, y, size, vertical = false, family = "Noto Sans CJK JP", weight = 400, fill = "#111" }) {
	const parts = [];
	const boxes = [];
	const lead = Math.round(size * 1.25);
	if (vertical) {
		lines.forEach((line, col) => {
			const cx = x + (lines.length - 1 - col) * lead + size / 2;
			const chars = [...line];
			chars.forEach((ch, row) => {
				parts.push(`<text x="${cx}" y="${y + (row + 0.88) * size * 1.05}" text-anchor="middle">${esc(ch)}</text>`);
			});
			boxes.push({ x0: cx - size / 2, y0: y, x1: cx + size / 2, y1: y + chars.length * size * 1.05 });
		});
	} else {
		lines.forEach((line, row) => {
			parts.push(`<text x="${x}" y="${y + row * lead + size * 0.9}">${esc(line)}</text>`);
			boxes.push({ x0: x, y0: y + row * lead, x1: x + line.length * size * 0.62, y1: y + row * lead + size * 1.1 });
		});
	}
	const svg = `<g font-family="${family}" font-size="${size}" font-weight="${weight}" fill="${fill}">${parts.join("")}</g>`;
	return { svg, boxes };
}

/** Centred lettering: the block's size is measured from the rendered ink afterwards. */
function centred(spec) {
	const { lines, cx, cy, size, vertical } = spec;
	const lead = Math.round(size * 1.25);
	if (vertical) {
		const longest = Math.max(...lines.map((l) => [...l].length));
		const w = (lines.length - 1) * lead + size;
		return lettering({ ...spec, x: cx - w / 2, y: cy - (longest * size * 1.05) / 2 });
	}
	const widest = Math.max(...lines.map((l) => l.length)) * size * (spec.family?.includes("CJK") === false ? 0.55 : 1);
	const h = (lines.length - 1) * lead + size;
	return lettering({ ...spec, x: cx - widest / 2, y: cy - h / 2 });
}

const balloon = (cx, cy, rx, ry, stroke = 3) =>
	`<ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="${ry}" fill="#fff" stroke="#111" stroke-width="${stroke}"/>`;

function hatching(x0, y0, x1, y1, step, angle = 45) {
	const lines = [];
	const span = x1 - x0 + y1 - y0;
	for (let k = -span; k < span; k += step) {
		const a = (angle * Math.PI) / 180;
		const dx = Math.cos(a) * span;
		const dy = Math.sin(a) * span;
		lines.push(`<line x1="${x0 + k - dx}" y1="${y0 - dy}" x2="${x0 + k + dx}" y2="${y0 + dy}"/>`);
	}
	return `<svg x="${x0}" y="${y0}" width="${x1 - x0}" height="${y1 - y0}" viewBox="${x0} ${y0} ${x1 - x0} ${y1 - y0}"><g stroke="#222" stroke-width="1.5">${lines.join("")}</g></svg>`;
}

function dots(x0, y0, x1, y1, period = 6, r = 1.6) {
	return `<defs><pattern id="tone${x0}${y0}" width="${period}" height="${period}" patternUnits="userSpaceOnUse"><circle cx="${period / 2}" cy="${period / 2}" r="${r}" fill="#333"/></pattern></defs><rect x="${x0}" y="${y0}" width="${x1 - x0}" height="${y1 - y0}" fill="url(#tone${x0}${y0})"/>`;
}

function speedLines(cx, cy, x0, y0, x1, y1, count = 90) {
	const lines = [];
	const rnd = random(4242);
	for (let k = 0; k < count; k++) {
		const a = (k / count) * 2 * Math.PI + rnd() * 0.03;
		const r0 = 150 + rnd() * 60;
		lines.push(
			`<line x1="${cx + Math.cos(a) * r0}" y1="${cy + Math.sin(a) * r0}" x2="${cx + Math.cos(a) * 700}" y2="${cy + Math.sin(a) * 700}"/>`,
		);
	}
	return `<svg x="${x0}" y="${y0}" width="${x1 - x0}" height="${y1 - y0}" viewBox="${x0} ${y0} ${x1 - x0} ${y1 - y0}"><g stroke="#333" stroke-width="1.2">${lines.join("")}</g></svg>`;
}

const panel = (x0, y0, x1, y1, fill = "none") =>
	`<rect x="${x0}" y="${y0}" width="${x1 - x0}" height="${y1 - y0}" fill="${fill}" stroke="#111" stroke-width="4"/>`;

/** The pages: art, and lettering blocks { spec, text, translation }. */
function mangaPage() {
	const art = [
		`<rect width="900" height="1280" fill="#fff"/>`,
		panel(20, 20, 880, 420),
		hatching(22, 260, 420, 418, 9),
		`<circle cx="330" cy="250" r="95" fill="#fff" stroke="#111" stroke-width="3"/><circle cx="300" cy="235" r="9" fill="#111"/><circle cx="360" cy="235" r="9" fill="#111"/><path d="M295 290 Q330 315 365 290" stroke="#111" stroke-width="3" fill="none"/>`,
		balloon(690, 175, 125, 118),
		balloon(160, 115, 105, 78),
		panel(20, 440, 440, 860),
		dots(22, 442, 438, 858),
		balloon(230, 590, 118, 128),
		`<rect x="40" y="770" width="250" height="72" fill="#fff" stroke="#111" stroke-width="2.5"/>`,
		panel(460, 440, 880, 860),
		speedLines(670, 650, 462, 442, 878, 858),
		balloon(670, 540, 150, 72),
		panel(20, 880, 880, 1260),
		`<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#9a9a9a"/><stop offset="1" stop-color="#e8e8e8"/></linearGradient></defs><rect x="22" y="882" width="856" height="376" fill="url(#sky)"/>`,
		balloon(290, 1010, 135, 95),
		balloon(575, 1030, 120, 100),
		`<path d="M40 1258 L200 1150 L330 1200 L470 1120 L640 1210 L860 1140 L878 1258 Z" fill="#555"/>`,
	];
	const blocks = [
		{
			spec: { lines: ["今日は", "いい天気", "だね"], cx: 690, cy: 175, size: 34, vertical: true },
			text: "今日はいい天気だね",
			translation: "Nice weather today, isn't it?",
		},
		{
			spec: { lines: ["おはよう", "ございます"], cx: 160, cy: 115, size: 22, vertical: true },
			text: "おはようございます",
			translation: "Good morning!",
		},
		{
			spec: { lines: ["ちょっと", "待って", "くれ！"], cx: 230, cy: 590, size: 36, vertical: true },
			text: "ちょっと待ってくれ！",
			translation: "Hold on a second!",
		},
		{
			spec: { lines: ["その日、町は静かだった。"], cx: 165, cy: 806, size: 19 },
			text: "その日、町は静かだった。",
			translation: "That day, the town was quiet.",
		},
		{
			spec: { lines: ["WAIT FOR ME!", "I'M COMING!"], cx: 670, cy: 540, size: 26, family: "Noto Sans", weight: 700 },
			text: "WAIT FOR ME! I'M COMING!",
			translation: "待って！今行く！",
		},
		{
			spec: { lines: ["ドン"], cx: 760, cy: 790, size: 64, weight: 700, family: "Noto Sans CJK JP" },
			text: "ドン",
			translation: "BOOM",
		},
		{
			spec: { lines: ["あれは", "何だ？"], cx: 290, cy: 1010, size: 32, vertical: true },
			text: "あれは何だ？",
			translation: "What is that?",
		},
		{
			spec: { lines: ["鳥だ！", "飛行機だ！"], cx: 575, cy: 1030, size: 30, vertical: true },
			text: "鳥だ！飛行機だ！",
			translation: "A bird! A plane!",
		},
	];
	return { name: "manga", width: 900, height: 1280, art, blocks };
}

function comicPage() {
	const art = [
		`<rect width="800" height="1000" fill="#f3ead2"/>`,
		panel(20, 20, 780, 480, "#7fb7e0"),
		`<path d="M22 380 Q200 330 400 390 T778 360 L778 478 L22 478 Z" fill="#5e9a4a" stroke="#1a1a1a" stroke-width="3"/>`,
		`<circle cx="610" cy="300" r="70" fill="#f2c9a0" stroke="#1a1a1a" stroke-width="3"/><rect x="560" y="370" width="100" height="108" fill="#c0392b" stroke="#1a1a1a" stroke-width="3"/>`,
		`<path d="M430 170 Q 470 260 560 290" stroke="#1a1a1a" stroke-width="3" fill="#fff"/>`,
		`<ellipse cx="300" cy="150" rx="210" ry="95" fill="#fff" stroke="#1a1a1a" stroke-width="3.5"/>`,
		`<rect x="20" y="20" width="300" height="52" fill="#f7d54a" stroke="#1a1a1a" stroke-width="3"/>`,
		panel(20, 500, 780, 980, "#e8a25c"),
		`<rect x="80" y="760" width="260" height="218" fill="#6b4a2b" stroke="#1a1a1a" stroke-width="3"/>`,
		`<circle cx="560" cy="800" r="80" fill="#f2c9a0" stroke="#1a1a1a" stroke-width="3"/>`,
		`<ellipse cx="230" cy="620" rx="170" ry="80" fill="#fff" stroke="#1a1a1a" stroke-width="3.5"/>`,
		`<ellipse cx="600" cy="600" rx="150" ry="70" fill="#fff" stroke="#1a1a1a" stroke-width="3.5"/>`,
	];
	const font = { family: "Noto Sans", weight: 700 };
	const blocks = [
		{
			spec: { lines: ["MEANWHILE..."], cx: 170, cy: 46, size: 24, ...font },
			text: "MEANWHILE...",
			translation: "その頃……",
		},
		{
			spec: {
				lines: ["GREAT SCOTT! THE", "DAM HAS BROKEN!", "WE MUST WARN THEM!"],
				cx: 300,
				cy: 150,
				size: 25,
				...font,
			},
			text: "GREAT SCOTT! THE DAM HAS BROKEN! WE MUST WARN THEM!",
			translation: "なんてことだ！ダムが決壊した！皆に知らせないと！",
		},
		{
			spec: { lines: ["HURRY, JIMMY!"], cx: 230, cy: 620, size: 26, ...font },
			text: "HURRY, JIMMY!",
			translation: "急げ、ジミー！",
		},
		{
			spec: { lines: ["I'M RIGHT", "BEHIND YOU!"], cx: 600, cy: 600, size: 26, ...font },
			text: "I'M RIGHT BEHIND YOU!",
			translation: "すぐ後ろにいるよ！",
		},
	];
	return { name: "comic", width: 800, height: 1000, art, blocks };
}

function bannerPage() {
	const art = [
		`<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#ffe6a8"/><stop offset="1" stop-color="#ff9a76"/></linearGradient></defs><rect width="1200" height="500" fill="url(#bg)"/>`,
		`<rect x="820" y="300" width="300" height="120" rx="18" fill="#d0021b"/>`,
		`<circle cx="1050" cy="130" r="80" fill="#fff6e0" opacity="0.7"/>`,
	];
	const blocks = [
		{
			spec: { lines: ["夏のセール"], x: 80, y: 90, size: 96, weight: 700, fill: "#3b1f0e" },
			text: "夏のセール",
			translation: "Summer Sale",
		},
		{
			spec: { lines: ["全品送料無料・8月31日まで"], x: 84, y: 240, size: 36, fill: "#3b1f0e" },
			text: "全品送料無料・8月31日まで",
			translation: "Free shipping on everything, until August 31",
		},
		{
			spec: { lines: ["50%OFF"], x: 860, y: 318, size: 64, weight: 700, family: "Noto Sans", fill: "#fff" },
			text: "50%OFF",
			translation: "50%OFF",
		},
		{
			spec: { lines: ["SONY"], x: 84, y: 380, size: 54, weight: 700, family: "Noto Sans", fill: "#1a1a1a" },
			text: "SONY",
			translation: "Sony",
		},
	];
	return { name: "banner", width: 1200, height: 500, art, blocks };
}

function signPage() {
	const art = [
		`<rect x="180" y="120" width="440" height="150" fill="#0b6b3a" stroke="#e8e8e8" stroke-width="6"/>`,
		`<rect x="390" y="270" width="20" height="330" fill="#777"/>`,
	];
	const blocks = [
		{
			spec: { lines: ["駅前通り"], x: 235, y: 150, size: 80, weight: 700, fill: "#fff" },
			text: "駅前通り",
			translation: "Station Street",
		},
		{
			spec: { lines: ["この先 300m"], x: 250, y: 232, size: 26, fill: "#fff" },
			text: "この先 300m",
			translation: "300 m ahead",
		},
	];
	return { name: "sign", width: 800, height: 600, art, blocks, photo: true };
}

/**
 * Renders every page: the plate (art only), the image (art and lettering), the coverage of the
 * lettering, and regions with exact ink boxes (ids in reading order).
 */
export async function makePages() {
	await ready();
	const pages = [];
	for (const page of [mangaPage(), comicPage(), bannerPage(), signPage()]) {
		const { width, height } = page;
		const svgOf = (body) => `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${body}</svg>`;
		const drawn = page.blocks.map((b) => ({
			...b,
			drawn: b.spec.cx !== undefined ? centred(b.spec) : lettering(b.spec),
		}));
		let plate = render(svgOf(page.art.join("")), width, height);
		if (page.photo) plate = underPhoto(plate, width, height);
		const coverage = new Uint8Array(width * height);
		const image = { width, height, data: plate.data.slice() };
		const regions = [];
		for (const [id, block] of drawn.entries()) {
			const layer = render(svgOf(block.drawn.svg), width, height);
			let box;
			for (let i = 0; i < width * height; i++) {
				const a = layer.data[i * 4 + 3];
				if (a === 0) continue;
				coverage[i] = Math.max(coverage[i], a);
				for (let c = 0; c < 3; c++) {
					image.data[i * 4 + c] = Math.round((layer.data[i * 4 + c] * a + image.data[i * 4 + c] * (255 - a)) / 255);
				}
				const x = i % width;
				const y = (i - x) / width;
				box = box
					? {
							x0: Math.min(box.x0, x),
							y0: Math.min(box.y0, y),
							x1: Math.max(box.x1, x + 1),
							y1: Math.max(box.y1, y + 1),
						}
					: { x0: x, y0: y, x1: x + 1, y1: y + 1 };
			}
			const lines = block.spec.lines.map((text, k) => ({ text, box: roundBox(block.drawn.boxes[k]) }));
			regions.push({
				id,
				text: block.text,
				translation: block.translation,
				box,
				vertical: !!block.spec.vertical,
				lines,
			});
		}
		pages.push({ name: page.name, width, height, image, plate, coverage, regions });
	}
	return pages;
}

/** The sign's art over a photo-like texture (a wall), where the art leaves the plate transparent. */
function underPhoto(plate, width, height) {
	const photo = texture(width, height, random(77));
	for (let i = 0; i < width * height; i++) {
		const a = plate.data[i * 4 + 3] / 255;
		for (let c = 0; c < 3; c++)
			photo.data[i * 4 + c] = Math.round(plate.data[i * 4 + c] * a + photo.data[i * 4 + c] * (1 - a));
	}
	return photo;
}

function roundBox(b) {
	return { x0: Math.floor(b.x0), y0: Math.floor(b.y0), x1: Math.ceil(b.x1), y1: Math.ceil(b.y1) };
}
