/**
 * PNG row filters (RFC 2083 section 6). The filtered bytes are read from `src` at `at` (straight
 * from the inflater's output when the whole row lies in it, so no copy is made), the unfiltered row
 * is written to `line`; `previous` is the unfiltered row above, all zeros for the first row of a pass.
 */

/** Reverses the filter into `line`; false for an unknown filter type. */
export function unfilterRow(
	filter: number,
	src: Uint8Array,
	at: number,
	line: Uint8Array,
	previous: Uint8Array,
	bpp: number,
): boolean {
	const n = line.length;
	switch (filter) {
		case 0:
			// A view for the copy costs less than a loop over the bytes of any row but the shortest.
			if (n > 16) line.set(src.subarray(at, at + n));
			else for (let i = 0; i < n; i++) line[i] = src[at + i]!;
			return true;
		case 1:
			for (let i = 0; i < bpp; i++) line[i] = src[at + i]!;
			for (let i = bpp; i < n; i++) line[i] = (src[at + i]! + line[i - bpp]!) & 255;
			return true;
		case 2:
			for (let i = 0; i < n; i++) line[i] = (src[at + i]! + previous[i]!) & 255;
			return true;
		case 3:
			for (let i = 0; i < bpp; i++) line[i] = (src[at + i]! + (previous[i]! >> 1)) & 255;
			for (let i = bpp; i < n; i++) line[i] = (src[at + i]! + ((line[i - bpp]! + previous[i]!) >> 1)) & 255;
			return true;
		case 4:
			for (let i = 0; i < bpp; i++) line[i] = (src[at + i]! + previous[i]!) & 255;
			for (let i = bpp; i < n; i++) {
				// Paeth predictor inlined: p = a + b - c, the nearest of a, b, c to p (a, then b, on
				// ties). Chosen with sign masks, not branches: where neighbours differ at random
				// (dithered tones, noise) a branch would go either way about as often.
				const a = line[i - bpp]!;
				const b = previous[i]!;
				const c = previous[i - bpp]!;
				let pa = b - c;
				let pb = a - c;
				let pc = pa + pb;
				pa = (pa ^ (pa >> 31)) - (pa >> 31);
				pb = (pb ^ (pb >> 31)) - (pb >> 31);
				pc = (pc ^ (pc >> 31)) - (pc >> 31);
				const cNearer = (pc - pb) >> 31; // -1 when pc < pb: c rather than b
				const bOrC = b ^ ((b ^ c) & cNearer);
				const bOrCDistance = pb ^ ((pb ^ pc) & cNearer);
				const notA = (bOrCDistance - pa) >> 31; // -1 when b or c is nearer than a
				line[i] = (src[at + i]! + (a ^ ((a ^ bOrC) & notA))) & 255;
			}
			return true;
		default:
			return false;
	}
}
