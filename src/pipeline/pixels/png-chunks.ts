import { ImageDataError } from "./image-error";

/** A PNG whose chunk structure is broken, cut short or contradicts itself. */
export class PngFormatError extends ImageDataError {
	override name = "PngFormatError";
}

export interface PngHeader {
	width: number;
	height: number;
	bitDepth: number;
	colorType: number;
	interlaced: boolean;
	bitsPerPixel: number;
}

/**
 * What a walk over every chunk of a PNG found: the header and the small chunks the pixels need
 * (views into the file, never copies), and where the image data starts. The IDAT payloads are
 * not collected: `idatPieces` hands them out one at a time when the decoder inflates them.
 */
export interface PngContainer {
	header: PngHeader;
	/** PLTE as RGB triples. */
	palette?: Uint8Array;
	/** tRNS: palette alphas, or the transparent grey/RGB sample. */
	transparency?: Uint8Array;
	/** Offset of the first IDAT chunk; the image data is the unbroken run of IDAT chunks from there. */
	firstIdat: number;
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const DEPTHS: Record<number, number[]> = {
	0: [1, 2, 4, 8, 16],
	2: [8, 16],
	3: [1, 2, 4, 8],
	4: [8, 16],
	6: [8, 16],
};
/** Chunk lengths are 31-bit (PNG spec 5.3). */
const MAX_CHUNK_LENGTH = 0x7fffffff;

export function isPng(bytes: Uint8Array): boolean {
	return SIGNATURE.every((b, i) => bytes[i] === b);
}

/**
 * Walks the chunks from the signature to IEND, refusing what a decoder could read two ways or not
 * at all: a first chunk other than IHDR, a second IHDR, PLTE or tRNS, image data in more than one
 * run, PLTE or tRNS after it, an unknown critical chunk, a chunk that runs past the end, no IEND.
 * Bytes after IEND are ignored, as browsers do. CRCs are not checked: damage inside the data
 * fails when it is inflated. Costs one step per chunk and allocates nothing per chunk.
 * `onHeader` sees IHDR as soon as it is read, before the rest is walked.
 */
export function readPngContainer(bytes: Uint8Array, onHeader?: (header: PngHeader) => void): PngContainer {
	if (!isPng(bytes)) throw new PngFormatError("not a PNG signature");
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	let header: PngHeader | undefined;
	let palette: Uint8Array | undefined;
	let transparency: Uint8Array | undefined;
	let firstIdat = -1;
	let dataBytes = 0;
	let previous = 0;
	for (let at = 8; ; ) {
		if (at + 12 > bytes.length) throw new PngFormatError("the file ends before IEND");
		const length = view.getUint32(at);
		const type = view.getUint32(at + 4);
		if (!isChunkType(type)) throw new PngFormatError("chunk type is not four letters");
		if (length > MAX_CHUNK_LENGTH || at + 12 + length > bytes.length) {
			throw new PngFormatError(`chunk ${typeName(type)} runs past the end of the file`);
		}
		if (!header && type !== IHDR) throw new PngFormatError("the first chunk is not IHDR");
		if (type === IDAT) {
			if (firstIdat < 0) firstIdat = at;
			else if (previous !== IDAT) throw new PngFormatError("image data in two runs");
			dataBytes += length;
		} else if (type === IHDR) {
			if (header) throw new PngFormatError("second IHDR");
			header = readHeader(bytes.subarray(at + 8, at + 8 + length));
			onHeader?.(header);
		} else if (type === PLTE) {
			if (palette) throw new PngFormatError("second PLTE");
			if (firstIdat >= 0) throw new PngFormatError("PLTE after the image data");
			palette = readPalette(bytes.subarray(at + 8, at + 8 + length), header!);
		} else if (type === TRNS) {
			if (transparency) throw new PngFormatError("second tRNS");
			if (firstIdat >= 0) throw new PngFormatError("tRNS after the image data");
			transparency = bytes.subarray(at + 8, at + 8 + length);
		} else if (type === IEND) {
			return finish(header!, palette, transparency, firstIdat, dataBytes);
		} else if ((type & 0x20000000) === 0) {
			// Bit 5 of the first letter clear: critical, and unknown to us (PNG spec 5.4).
			throw new PngFormatError(`unknown critical chunk ${typeName(type)}`);
		}
		previous = type;
		at += 12 + length;
	}
}

/** Chunk types as big-endian numbers: a walk over a million chunks makes no strings. */
const IHDR = 0x49484452;
const PLTE = 0x504c5445;
const IDAT = 0x49444154;
const IEND = 0x49454e44;
const TRNS = 0x74524e53;

/** Four ASCII letters, or the walk stops: anything else is not a chunk boundary. */
function isChunkType(type: number): boolean {
	for (let shift = 0; shift < 32; shift += 8) {
		const c = (type >>> shift) & 0xdf;
		if (c < 0x41 || c > 0x5a) return false;
	}
	return true;
}

function typeName(type: number): string {
	return String.fromCharCode(type >>> 24, (type >>> 16) & 255, (type >>> 8) & 255, type & 255);
}

function finish(
	header: PngHeader,
	palette: Uint8Array | undefined,
	transparency: Uint8Array | undefined,
	firstIdat: number,
	dataBytes: number,
): PngContainer {
	if (firstIdat < 0 || dataBytes === 0) throw new PngFormatError("no image data");
	if (header.colorType === 3 && !palette) throw new PngFormatError("palette image without PLTE");
	return { header, palette, transparency, firstIdat };
}

function readHeader(data: Uint8Array): PngHeader {
	if (data.length !== 13) throw new PngFormatError("IHDR is not 13 bytes");
	const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
	const width = view.getUint32(0);
	const height = view.getUint32(4);
	const bitDepth = data[8]!;
	const colorType = data[9]!;
	const interlace = data[12]!;
	if (width === 0 || height === 0 || width > MAX_CHUNK_LENGTH || height > MAX_CHUNK_LENGTH) {
		throw new PngFormatError("image size out of range");
	}
	if (!DEPTHS[colorType]?.includes(bitDepth)) throw new PngFormatError("unsupported colour type or depth");
	if (data[10] !== 0 || data[11] !== 0 || interlace > 1) throw new PngFormatError("unknown compression or interlace");
	const bitsPerPixel = CHANNELS[colorType]! * bitDepth;
	return { width, height, bitDepth, colorType, interlaced: interlace === 1, bitsPerPixel };
}

/** 1 to 256 RGB entries; forbidden for grey images, a suggestion (ignored) for RGB ones. */
function readPalette(data: Uint8Array, header: PngHeader): Uint8Array {
	if (header.colorType === 0 || header.colorType === 4) throw new PngFormatError("PLTE in a grey image");
	if (data.length === 0 || data.length % 3 !== 0 || data.length > 768) throw new PngFormatError("bad PLTE length");
	return data;
}

/**
 * The IDAT payloads in order, one per call, then undefined: the chunks are read again as the
 * inflater asks for them, so that a file of a million tiny chunks costs no memory.
 */
export function idatPieces(bytes: Uint8Array, container: PngContainer): () => Uint8Array | undefined {
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	let at = container.firstIdat;
	return () => {
		// The walk already proved every chunk whole and the run of IDAT unbroken. Empty chunks are
		// stepped over here, so that a million of them make no views.
		while (at >= 0 && view.getUint32(at + 4) === IDAT) {
			const length = view.getUint32(at);
			at += 12 + length;
			if (length > 0) return bytes.subarray(at - 4 - length, at - 4);
		}
		at = -1;
		return undefined;
	};
}
