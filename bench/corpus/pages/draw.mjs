/**
 * SVG pieces of the real-looking pages: lettering (horizontal lines or vertical columns), and the
 * containers letterers put it in (balloons with tails, caption boxes, sign panels), sized around the
 * lettering's measured ink box. Everything is drawn by us with the system's Noto fonts.
 */
import { escapeXml } from "../text.mjs";

/**
 * The lettering of one block, as SVG text elements. Horizontal lines are centred on (cx, cy); vertical
 * text stacks one character per cell, columns right to left, the block centred on (cx, cy).
 */
export function letteringSvg({ lines, at: [cx, cy], size, family, weight = 400, fill = "#111", vertical = false }) {
	const parts = [];
	if (vertical) {
		const pitch = size * 1.25;
		const cell = size * 1.05;
		const tallest = Math.max(...lines.map((l) => [...l].length));
		const left = cx - ((lines.length - 1) * pitch) / 2;
		const top = cy - (tallest * cell) / 2;
		lines.forEach((line, col) => {
			const x = left + (lines.length - 1 - col) * pitch;
			[...line].forEach((ch, row) => {
				parts.push(`<text x="${x}" y="${top + (row + 0.88) * cell}" text-anchor="middle">${escapeXml(ch)}</text>`);
			});
		});
	} else {
		const leading = size * 1.2;
		const top = cy - (lines.length * leading) / 2;
		lines.forEach((line, row) => {
			parts.push(
				`<text x="${cx}" y="${top + row * leading + size * 0.92}" text-anchor="middle">${escapeXml(line)}</text>`,
			);
		});
	}
	return `<g font-family="${family}" font-size="${size}" font-weight="${weight}" fill="${fill}">${parts.join("")}</g>`;
}

/**
 * A container around an ink box: its SVG and its inside (the area a translation may use), as
 * { kind, box, shape } with shape "ellipse" or "rect" inscribed in `box`.
 *   balloon  a white ellipse with a dark outline, and a tail towards `tail` when given
 *   caption  a flat box with a thin dark border (narration)
 *   sign     a flat rounded panel without border (street signs, banners, labels)
 *   free     nothing drawn: lettering straight on the art
 */
export function containerSvg(ink, { kind, fill = "#fff", stroke = "#151515", tail, pad = 14 }) {
	const cx = (ink.x0 + ink.x1) / 2;
	const cy = (ink.y0 + ink.y1) / 2;
	const hw = (ink.x1 - ink.x0) / 2;
	const hh = (ink.y1 - ink.y0) / 2;
	if (kind === "balloon") {
		// 1.42 x the half sides puts the ink box's corners inside the ellipse; the pad is the letterer's margin.
		const rx = hw * 1.42 + pad;
		const ry = hh * 1.42 + pad;
		const outline = 3;
		let svg = "";
		if (tail) {
			const [tx, ty] = tail;
			const angle = Math.atan2(ty - cy, tx - cx);
			const base = (a) => [cx + rx * 0.85 * Math.cos(a), cy + ry * 0.85 * Math.sin(a)];
			const [a, b] = [base(angle - 0.22), base(angle + 0.22)];
			const points = `${a[0]},${a[1]} ${tx},${ty} ${b[0]},${b[1]}`;
			svg += `<polygon points="${points}" fill="${fill}" stroke="${stroke}" stroke-width="${outline}" stroke-linejoin="round"/>`;
			svg += `<ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="${ry}" fill="${fill}" stroke="${stroke}" stroke-width="${outline}"/>`;
			// The tail's root over the outline, so that the balloon and its tail are one shape.
			svg += `<polygon points="${points}" fill="${fill}" stroke="none"/>`;
		} else {
			svg += `<ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="${ry}" fill="${fill}" stroke="${stroke}" stroke-width="${outline}"/>`;
		}
		const inner = { x0: cx - rx + outline, y0: cy - ry + outline, x1: cx + rx - outline, y1: cy + ry - outline };
		return { svg, inside: { kind: "balloon", shape: "ellipse", box: inner } };
	}
	if (kind === "caption" || kind === "sign") {
		const [px, py] = kind === "caption" ? [pad, pad * 0.7] : [pad * 1.4, pad];
		const box = { x0: ink.x0 - px, y0: ink.y0 - py, x1: ink.x1 + px, y1: ink.y1 + py };
		const border = kind === "caption" ? 2 : 0;
		const radius = kind === "sign" ? 10 : 0;
		const svg = `<rect x="${box.x0}" y="${box.y0}" width="${box.x1 - box.x0}" height="${box.y1 - box.y0}" rx="${radius}" fill="${fill}"${border ? ` stroke="${stroke}" stroke-width="${border}"` : ""}/>`;
		const inner = { x0: box.x0 + border, y0: box.y0 + border, x1: box.x1 - border, y1: box.y1 - border };
		return { svg, inside: { kind: "panel", shape: "rect", box: inner } };
	}
	const box = { x0: ink.x0 - pad, y0: ink.y0 - pad, x1: ink.x1 + pad, y1: ink.y1 + pad };
	return { svg: "", inside: { kind: "free", shape: "rect", box } };
}

/** Whether an image pixel (its centre) lies inside a container's inside. */
export function insideContainer({ shape, box }, x, y) {
	const px = x + 0.5;
	const py = y + 0.5;
	if (shape === "rect") return px >= box.x0 && px < box.x1 && py >= box.y0 && py < box.y1;
	const cx = (box.x0 + box.x1) / 2;
	const cy = (box.y0 + box.y1) / 2;
	return ((px - cx) / ((box.x1 - box.x0) / 2)) ** 2 + ((py - cy) / ((box.y1 - box.y0) / 2)) ** 2 <= 1;
}

/** Dots on a square grid, as printed comics and screentone have them: an SVG pattern definition. */
export function dotPattern(id, { pitch = 8, radius = 2, fill = "#000", opacity = 1, angle = 45 } = {}) {
	return `<pattern id="${id}" width="${pitch}" height="${pitch}" patternUnits="userSpaceOnUse" patternTransform="rotate(${angle})"><circle cx="${pitch / 2}" cy="${pitch / 2}" r="${radius}" fill="${fill}" fill-opacity="${opacity}"/></pattern>`;
}

/** A panel border, as comics draw them. */
export function panelSvg({ x, y, width, height }, { fill = "none", stroke = "#111", line = 4 } = {}) {
	return `<rect x="${x}" y="${y}" width="${width}" height="${height}" fill="${fill}" stroke="${stroke}" stroke-width="${line}"/>`;
}
