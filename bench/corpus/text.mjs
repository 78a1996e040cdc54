/** Renders text with resvg-wasm and the system's Noto fonts; gives coverage (alpha) only. */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { initWasm, Resvg } from "@resvg/resvg-wasm";

const FONT_FILES = [
	"/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
	"/usr/share/fonts/truetype/noto/NotoSans-Bold.ttf",
	"/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf",
	"/usr/share/fonts/truetype/noto/NotoSansArabic-Bold.ttf",
	"/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
	"/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
];

export const FAMILIES = {
	ja: "Noto Sans CJK JP",
	zh: "Noto Sans CJK SC",
	ko: "Noto Sans CJK KR",
	latin: "Noto Sans",
	cyrillic: "Noto Sans",
	arabic: "Noto Sans Arabic",
};

let fonts;

async function ready() {
	if (fonts) return fonts;
	const require = createRequire(import.meta.url);
	await initWasm(readFileSync(require.resolve("@resvg/resvg-wasm/index_bg.wasm")));
	fonts = FONT_FILES.map((f) => readFileSync(f));
	return fonts;
}

/** An SVG drawn with the same fonts (no system fonts): straight RGBA of its width and height. */
export async function renderSvg(svg, defaultFontFamily = "Noto Sans") {
	const fontBuffers = await ready();
	const rendered = new Resvg(svg, { font: { fontBuffers, defaultFontFamily, loadSystemFonts: false } }).render();
	return { width: rendered.width, height: rendered.height, data: new Uint8Array(rendered.pixels) };
}

export const escapeXml = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * Coverage (0..255 per pixel) of text lines drawn at (x, y) (top left of the block), for the band
 * of image rows [top, top + height). Horizontal lines stack downwards; vertical text puts one
 * character per cell, columns right to left. `outline` > 0 adds a stroke of that width around the
 * glyphs (the coverage is then of glyphs and outline together).
 */
export async function renderCoverage({
	width,
	height,
	top = 0,
	lines,
	x,
	y,
	size,
	family,
	bold,
	vertical,
	rtl,
	outline = 0,
}) {
	const fontBuffers = await ready();
	const weight = bold ? 700 : 400;
	const leading = Math.round(size * 1.3);
	const parts = [];
	if (vertical) {
		lines.forEach((line, col) => {
			const cx = x + (lines.length - 1 - col) * leading + size / 2;
			[...line].forEach((ch, row) => {
				parts.push(
					`<text x="${cx}" y="${y + (row + 0.88) * size * 1.05}" text-anchor="middle">${escapeXml(ch)}</text>`,
				);
			});
		});
	} else {
		lines.forEach((line, row) => {
			const anchor = rtl ? `x="${x}" text-anchor="end" direction="rtl"` : `x="${x}"`;
			parts.push(`<text ${anchor} y="${y + row * leading + size * 0.95}">${escapeXml(line)}</text>`);
		});
	}
	const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><g transform="translate(0 ${-top})" font-family="${family}" font-size="${size}" font-weight="${weight}" fill="#000"${outline ? ` stroke="#000" stroke-width="${2 * outline}" stroke-linejoin="round"` : ""}>${parts.join("")}</g></svg>`;
	const rendered = new Resvg(svg, {
		font: { fontBuffers, defaultFontFamily: family, loadSystemFonts: false },
	}).render();
	const px = rendered.pixels;
	const coverage = new Uint8Array(width * height);
	for (let i = 0; i < coverage.length; i++) coverage[i] = px[i * 4 + 3];
	return coverage;
}
