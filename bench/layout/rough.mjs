/**
 * Boxes as rough as real vision models give them, deterministically, from exact regions (image px):
 * every box moved (centre off by up to 12% of the box) and scaled (each side -20% to +30%); some cut
 * short (only some of the lines or columns), some split in two, neighbours merged into one region,
 * and some read twice (a second, differently rough copy).
 *
 *   roughRegions(regions, { width, height, seed })  -> regions with new ids, reading order kept
 */
import { random } from "../corpus/backgrounds.mjs";

export function roughRegions(regions, { width, height, seed = 1 }) {
	const rnd = random(seed * 104729);
	const rough = (box) => {
		const w = box.x1 - box.x0;
		const h = box.y1 - box.y0;
		const cx = (box.x0 + box.x1) / 2 + (rnd() * 2 - 1) * 0.12 * w;
		const cy = (box.y0 + box.y1) / 2 + (rnd() * 2 - 1) * 0.12 * h;
		const sw = w * (0.8 + rnd() * 0.5);
		const sh = h * (0.8 + rnd() * 0.5);
		return clip({ x0: cx - sw / 2, y0: cy - sh / 2, x1: cx + sw / 2, y1: cy + sh / 2 }, width, height);
	};
	const out = [];
	for (let k = 0; k < regions.length; k++) {
		const region = regions[k];
		const next = regions[k + 1];
		const lines = region.lines ?? [];
		if (k % 6 === 4 && next) {
			// Two neighbours read as one region, lines given on every other merge.
			const box = union(region.box, next.box);
			const merged = {
				text: `${region.text} ${next.text}`,
				translation: `${region.translation} ${next.translation}`,
				box: rough(box),
				vertical: region.vertical,
			};
			if (k % 12 === 4) merged.lines = [...lines, ...(next.lines ?? [])];
			out.push(merged);
			k++;
			continue;
		}
		if (k % 6 === 1 && lines.length >= 2) {
			// Cut short: the box holds only the first lines (or columns).
			const kept = lines.slice(0, Math.ceil(lines.length / 2));
			out.push({ ...region, box: rough(kept.map((l) => l.box).reduce(union)), lines: undefined });
			continue;
		}
		if (k % 6 === 3 && lines.length >= 2) {
			// Split in two regions, each with its own lines and half the translation.
			const half = Math.ceil(lines.length / 2);
			const words = region.translation.split(" ");
			const cut = Math.ceil(words.length / 2);
			for (const [part, ls] of [lines.slice(0, half), lines.slice(half)].entries()) {
				out.push({
					text: ls.map((l) => l.text).join(""),
					translation: (part === 0 ? words.slice(0, cut) : words.slice(cut)).join(" "),
					box: rough(ls.map((l) => l.box).reduce(union)),
					vertical: region.vertical,
				});
			}
			continue;
		}
		out.push({ ...region, box: rough(region.box), lines: undefined });
		// Read twice, as overlapping tiles do.
		if (k % 4 === 2) out.push({ ...region, box: rough(region.box), lines: undefined });
	}
	return out.map((r, id) => ({ ...r, id }));
}

function union(a, b) {
	return { x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) };
}

function clip(b, width, height) {
	return {
		x0: Math.max(0, Math.floor(b.x0)),
		y0: Math.max(0, Math.floor(b.y0)),
		x1: Math.min(width, Math.ceil(b.x1)),
		y1: Math.min(height, Math.ceil(b.y1)),
	};
}
