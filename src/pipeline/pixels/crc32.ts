/**
 * CRC-32 (ISO 3309, as PNG chunks use it), four bytes per step ("slicing by 4"): TABLES[k][v]
 * is the CRC of byte v followed by k zero bytes, so a word's four look-ups are independent.
 */
const TABLES = (() => {
	const tables = new Int32Array(4 * 256);
	for (let n = 0; n < 256; n++) {
		let c = n;
		for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
		tables[n] = c;
	}
	for (let n = 0; n < 256; n++) {
		for (let k = 1; k < 4; k++) {
			const previous = tables[(k - 1) * 256 + n]!;
			tables[k * 256 + n] = tables[previous & 255]! ^ (previous >>> 8);
		}
	}
	return tables;
})();

export function crc32(parts: Uint8Array[]): number {
	let c = -1;
	for (const part of parts) {
		const n = part.length;
		let i = 0;
		for (; i + 4 <= n; i += 4) {
			c ^= part[i]! | (part[i + 1]! << 8) | (part[i + 2]! << 16) | (part[i + 3]! << 24);
			c =
				TABLES[768 + (c & 255)]! ^
				TABLES[512 + ((c >>> 8) & 255)]! ^
				TABLES[256 + ((c >>> 16) & 255)]! ^
				TABLES[c >>> 24]!;
		}
		for (; i < n; i++) c = TABLES[(c ^ part[i]!) & 255]! ^ (c >>> 8);
	}
	return (c ^ -1) >>> 0;
}
