/**
 * Reads a font's character map straight from its 'cmap' table (formats 4 and 12), independently of
 * the HarfBuzz code under test, so the coverage test checks the font files themselves.
 */
export function readCmap(font: Uint8Array): Set<number> {
	const view = new DataView(font.buffer, font.byteOffset, font.byteLength);
	const tables = view.getUint16(4);
	let cmap = -1;
	for (let i = 0; i < tables; i++) {
		const record = 12 + i * 16;
		if (String.fromCharCode(...font.subarray(record, record + 4)) === "cmap") cmap = view.getUint32(record + 8);
	}
	if (cmap < 0) throw new Error("no cmap table");
	const covered = new Set<number>();
	const subtables = view.getUint16(cmap + 2);
	for (let i = 0; i < subtables; i++) {
		const platform = view.getUint16(cmap + 4 + i * 8);
		const offset = cmap + view.getUint32(cmap + 4 + i * 8 + 4);
		const format = view.getUint16(offset);
		if (platform !== 3 && platform !== 0) continue;
		if (format === 12) {
			const groups = view.getUint32(offset + 12);
			for (let g = 0; g < groups; g++) {
				const start = view.getUint32(offset + 16 + g * 12);
				const end = view.getUint32(offset + 20 + g * 12);
				const glyph = view.getUint32(offset + 24 + g * 12);
				for (let c = start; c <= end; c++) if (glyph + (c - start) !== 0) covered.add(c);
			}
		} else if (format === 4) {
			const segments = view.getUint16(offset + 6) / 2;
			const ends = offset + 14;
			const starts = ends + segments * 2 + 2;
			const deltas = starts + segments * 2;
			const ranges = deltas + segments * 2;
			for (let s = 0; s < segments; s++) {
				const end = view.getUint16(ends + s * 2);
				const start = view.getUint16(starts + s * 2);
				const delta = view.getInt16(deltas + s * 2);
				const rangeOffset = view.getUint16(ranges + s * 2);
				for (let c = start; c <= end && c !== 0xffff; c++) {
					let glyph: number;
					if (rangeOffset === 0) glyph = (c + delta) & 0xffff;
					else {
						const at = ranges + s * 2 + rangeOffset + (c - start) * 2;
						glyph = view.getUint16(at);
						if (glyph !== 0) glyph = (glyph + delta) & 0xffff;
					}
					if (glyph !== 0) covered.add(c);
				}
			}
		}
	}
	return covered;
}
