/**
 * The source lettering's font size, estimated: the translation is set no larger than this (it
 * should read as the same voice), and benchmarks compare against it.
 */
import type { TextRegion } from "../types";

/** Share of a line box that the font size fills (the rest is leading and the reader's margin). */
const SIZE_PER_LINE_BOX = 0.85;
const WIDE_SCRIPTS = /[\u1100-\u11ff\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/u;

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

export function sourceFontSize(region: TextRegion & { textBox?: TextRegion["box"] }): number {
	const box = region.textBox ?? region.box;
	const w = box.x1 - box.x0;
	const h = box.y1 - box.y0;
	const lines = (region.lines ?? []).filter((l) => l.box.x1 > l.box.x0 && l.box.y1 > l.box.y0);
	if (lines.length > 0) {
		const across = lines.map((l) => (region.vertical ? l.box.x1 - l.box.x0 : l.box.y1 - l.box.y0));
		return Math.max(1, median(across) * SIZE_PER_LINE_BOX);
	}
	// No line boxes: assume the source text fills its box, each character about 1 em wide for
	// CJK and 0.55 em for alphabets, lines 1.2 em apart; one line at most as tall as the box.
	const chars = [...new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(region.text.trim())].length;
	const thin = region.vertical ? w : h;
	if (chars === 0) return Math.max(1, thin * 0.5);
	const emPerChar = WIDE_SCRIPTS.test(region.text) ? 1 : 0.55;
	const fromArea = Math.sqrt((w * h) / (chars * emPerChar * 1.2));
	return Math.max(1, Math.min(fromArea, thin / 1.05));
}
