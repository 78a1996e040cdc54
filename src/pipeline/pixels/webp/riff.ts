import { WebpFormatError } from "./errors";

/** One RIFF chunk: its four-character code and its payload (without the padding byte). */
export interface Chunk {
	fourcc: string;
	data: Uint8Array;
}

/** The chunks of a RIFF/WEBP file (RFC 9649 section 2), in file order. */
export function webpChunks(bytes: Uint8Array): Chunk[] {
	if (bytes.length < 12 || fourcc(bytes, 0) !== "RIFF" || fourcc(bytes, 8) !== "WEBP") {
		throw new WebpFormatError("not a RIFF/WEBP file");
	}
	const end = 8 + uint32(bytes, 4);
	if (end > bytes.length) throw new WebpFormatError("WebP file is truncated");
	return chunksIn(bytes.subarray(12, end));
}

/** Chunks laid one after another (a file body, or an ANMF frame's data). */
export function chunksIn(bytes: Uint8Array): Chunk[] {
	const chunks: Chunk[] = [];
	let at = 0;
	while (at + 8 <= bytes.length) {
		const size = uint32(bytes, at + 4);
		const start = at + 8;
		if (size > bytes.length - start) throw new WebpFormatError("WebP chunk is truncated");
		chunks.push({ fourcc: fourcc(bytes, at), data: bytes.subarray(start, start + size) });
		at = start + size + (size & 1);
	}
	return chunks;
}

export function uint24(bytes: Uint8Array, at: number): number {
	return bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);
}

function uint32(bytes: Uint8Array, at: number): number {
	return uint24(bytes, at) + bytes[at + 3]! * 0x1000000;
}

function fourcc(bytes: Uint8Array, at: number): string {
	return String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!);
}
