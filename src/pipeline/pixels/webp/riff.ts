import { WebpFormatError } from "./errors";

/**
 * Receives one RIFF chunk: its four-character code (as `tag` makes it: a number) and where its
 * payload lies in `bytes` (without the padding byte). Nothing is made per chunk, so that a walk
 * over millions of them makes no garbage; the visitor takes a view of the few it wants.
 */
export type ChunkVisitor = (fourcc: number, bytes: Uint8Array, start: number, end: number) => void;

/** A four-character code as the number chunk visitors get. */
export function tag(name: string): number {
	return (
		(name.charCodeAt(0) | (name.charCodeAt(1) << 8) | (name.charCodeAt(2) << 16) | (name.charCodeAt(3) << 24)) >>> 0
	);
}

export function isWebp(bytes: Uint8Array): boolean {
	return bytes.length >= 12 && uint32(bytes, 0) === tag("RIFF") && uint32(bytes, 8) === tag("WEBP");
}

/**
 * Visits the chunks of a RIFF/WEBP file (RFC 9649 section 2) in file order, one at a time: a file
 * of millions of empty chunks costs steps, never memory. The RIFF size must lie within the file
 * (bytes after it are ignored) and its chunks must fill it exactly.
 */
export function visitWebpChunks(bytes: Uint8Array, visit: ChunkVisitor): void {
	if (!isWebp(bytes)) throw new WebpFormatError("not a RIFF/WEBP file");
	const end = 8 + uint32(bytes, 4);
	if (end > bytes.length) throw new WebpFormatError("WebP file is truncated");
	visitChunks(bytes.subarray(12, end), visit);
}

/** Chunks laid one after another (a file body, or an ANMF frame's data), each padded to an even size. */
export function visitChunks(bytes: Uint8Array, visit: ChunkVisitor): void {
	let at = 0;
	while (at < bytes.length) {
		if (at + 8 > bytes.length) throw new WebpFormatError("WebP chunk header is truncated");
		const size = uint32(bytes, at + 4);
		const start = at + 8;
		if (size > bytes.length - start) throw new WebpFormatError("WebP chunk is truncated");
		visit(uint32(bytes, at), bytes, start, start + size);
		// The padding byte of an odd-sized last chunk may be missing, as libwebp allows.
		at = Math.min(bytes.length, start + size + (size & 1));
	}
}

export function uint24(bytes: Uint8Array, at: number): number {
	return bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);
}

function uint32(bytes: Uint8Array, at: number): number {
	return uint24(bytes, at) + bytes[at + 3]! * 0x1000000;
}
