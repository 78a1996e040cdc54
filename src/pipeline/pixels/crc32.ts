/** CRC-32 (ISO 3309, as PNG chunks use it), table-driven. */
const TABLE = (() => {
	const table = new Int32Array(256);
	for (let n = 0; n < 256; n++) {
		let c = n;
		for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
		table[n] = c;
	}
	return table;
})();

export function crc32(parts: Uint8Array[]): number {
	let c = -1;
	for (const part of parts) {
		for (let i = 0; i < part.length; i++) c = TABLE[(c ^ part[i]!) & 255]! ^ (c >>> 8);
	}
	return (c ^ -1) >>> 0;
}
