/**
 * PNG row filters (RFC 2083 section 6). `line` and `previous` exclude the filter-type byte;
 * `previous` is all zeros for the first row of a pass.
 */

/** Reverses the filter in place; false for an unknown filter type. */
export function unfilterRow(filter: number, line: Uint8Array, previous: Uint8Array, bpp: number): boolean {
	const n = line.length;
	switch (filter) {
		case 0:
			return true;
		case 1:
			for (let i = bpp; i < n; i++) line[i] = (line[i]! + line[i - bpp]!) & 255;
			return true;
		case 2:
			for (let i = 0; i < n; i++) line[i] = (line[i]! + previous[i]!) & 255;
			return true;
		case 3:
			for (let i = 0; i < bpp; i++) line[i] = (line[i]! + (previous[i]! >> 1)) & 255;
			for (let i = bpp; i < n; i++) line[i] = (line[i]! + ((line[i - bpp]! + previous[i]!) >> 1)) & 255;
			return true;
		case 4:
			for (let i = 0; i < bpp; i++) line[i] = (line[i]! + previous[i]!) & 255;
			for (let i = bpp; i < n; i++)
				line[i] = (line[i]! + paeth(line[i - bpp]!, previous[i]!, previous[i - bpp]!)) & 255;
			return true;
		default:
			return false;
	}
}

export function paeth(a: number, b: number, c: number): number {
	const p = a + b - c;
	const pa = Math.abs(p - a);
	const pb = Math.abs(p - b);
	const pc = Math.abs(p - c);
	if (pa <= pb && pa <= pc) return a;
	return pb <= pc ? b : c;
}
