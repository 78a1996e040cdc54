/** A PNG whose structure is broken: the decode stage answers 422 for it. */
export class PngFormatError extends Error {
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

export interface PngChunks {
	header: PngHeader;
	/** PLTE as RGB triples. */
	palette?: Uint8Array;
	/** tRNS: palette alphas, or the transparent grey/RGB sample. */
	transparency?: Uint8Array;
	/** IDAT payloads, as views into the file (not copied). */
	idat: Uint8Array[];
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

/** Walks the chunk list; CRCs are not checked (a bad stream still fails when inflated). */
export function readPngChunks(bytes: Uint8Array): PngChunks {
	if (!SIGNATURE.every((b, i) => bytes[i] === b)) throw new PngFormatError("not a PNG signature");
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	let header: PngHeader | undefined;
	let palette: Uint8Array | undefined;
	let transparency: Uint8Array | undefined;
	const idat: Uint8Array[] = [];
	let at = 8;
	while (at + 8 <= bytes.length) {
		const length = view.getUint32(at);
		const type = String.fromCharCode(bytes[at + 4]!, bytes[at + 5]!, bytes[at + 6]!, bytes[at + 7]!);
		const end = at + 8 + length;
		if (end + 4 > bytes.length) throw new PngFormatError(`chunk ${type} is truncated`);
		const data = bytes.subarray(at + 8, end);
		if (type === "IHDR") header = readHeader(data);
		else if (type === "PLTE") palette = data;
		else if (type === "tRNS") transparency = data;
		else if (type === "IDAT") idat.push(data);
		else if (type === "IEND") break;
		at = end + 4;
	}
	if (!header) throw new PngFormatError("no IHDR chunk");
	if (idat.length === 0) throw new PngFormatError("no image data");
	if (header.colorType === 3 && !palette) throw new PngFormatError("palette image without PLTE");
	return { header, palette, transparency, idat };
}

function readHeader(data: Uint8Array): PngHeader {
	if (data.length < 13) throw new PngFormatError("short IHDR");
	const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
	const width = view.getUint32(0);
	const height = view.getUint32(4);
	const bitDepth = data[8]!;
	const colorType = data[9]!;
	const interlace = data[12]!;
	if (width === 0 || height === 0) throw new PngFormatError("empty image");
	if (!DEPTHS[colorType]?.includes(bitDepth)) throw new PngFormatError("unsupported colour type or depth");
	if (data[10] !== 0 || data[11] !== 0 || interlace > 1) throw new PngFormatError("unknown compression or interlace");
	const bitsPerPixel = CHANNELS[colorType]! * bitDepth;
	return { width, height, bitDepth, colorType, interlaced: interlace === 1, bitsPerPixel };
}
