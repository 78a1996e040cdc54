/**
 * Minimal PNG writer for bench tooling in node (no filtering): for looking, for tesseract and as
 * benchmark input. Opaque grey images are written as grey (colour type 0), like real manga scans.
 */
import { deflateSync } from "node:zlib";

const CRC_TABLE = Int32Array.from({ length: 256 }, (_, n) => {
	let c = n;
	for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
	return c;
});

function crc(bytes) {
	let c = -1;
	for (const b of bytes) c = CRC_TABLE[(c ^ b) & 255] ^ (c >>> 8);
	return (c ^ -1) >>> 0;
}

function chunk(type, payload) {
	const out = Buffer.alloc(12 + payload.length);
	out.writeUInt32BE(payload.length, 0);
	out.write(type, 4, "latin1");
	Buffer.from(payload).copy(out, 8);
	out.writeUInt32BE(crc(out.subarray(4, 8 + payload.length)), 8 + payload.length);
	return out;
}

function isOpaqueGrey(data) {
	for (let i = 0; i < data.length; i += 4) {
		if (data[i + 3] !== 255 || data[i] !== data[i + 1] || data[i] !== data[i + 2]) return false;
	}
	return true;
}

export function writePng({ width, height, data }) {
	const grey = isOpaqueGrey(data);
	const header = Buffer.alloc(13);
	header.writeUInt32BE(width, 0);
	header.writeUInt32BE(height, 4);
	header[8] = 8;
	header[9] = grey ? 0 : 6;
	const rowBytes = grey ? width : width * 4;
	const raw = Buffer.alloc(height * (rowBytes + 1));
	for (let y = 0; y < height; y++) {
		const row = y * (rowBytes + 1) + 1;
		if (grey) for (let x = 0; x < width; x++) raw[row + x] = data[(y * width + x) * 4];
		else Buffer.from(data.buffer, data.byteOffset + y * width * 4, width * 4).copy(raw, row);
	}
	return Buffer.concat([
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		chunk("IHDR", header),
		chunk("IDAT", deflateSync(raw, { level: 6 })),
		chunk("IEND", Buffer.alloc(0)),
	]);
}
