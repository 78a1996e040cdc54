import { ByteReader } from "./blocks";
import { GifFormatError } from "./errors";

const EXTENSION = 0x21;
const GRAPHIC_CONTROL = 0xf9;
const IMAGE = 0x2c;
const TRAILER = 0x3b;

/** The first image of a GIF: where it sits on the logical screen and where its LZW data starts. */
export interface GifFrame {
	left: number;
	top: number;
	width: number;
	height: number;
	interlaced: boolean;
	/** Its local colour table, else the global one: RGB triples, a view into the file. */
	palette: Uint8Array;
	/** Palette index drawn as transparent, or -1. */
	transparent: number;
	minCodeSize: number;
	/** Offset of the first data sub-block's length byte. */
	data: number;
}

/** The logical screen (what the image's size is) and its first frame, from one walk of the file. */
export interface GifContainer {
	width: number;
	height: number;
	frame: GifFrame;
}

export function isGif(bytes: Uint8Array): boolean {
	const signature = String.fromCharCode(...bytes.subarray(0, 6));
	return signature === "GIF87a" || signature === "GIF89a";
}

/**
 * Walks a GIF's blocks from the header to the trailer, every frame's data sub-blocks included, and
 * keeps the first frame: a GIF cut short, a block of unknown kind, a first frame with no colour
 * table or that reaches beyond the logical screen (the screen is what is priced and displayed) are
 * refused here, before a pixel is decoded. One step per sub-block; nothing is collected.
 * `onScreen` sees the screen's size as soon as it is read.
 */
export function readGifContainer(bytes: Uint8Array, onScreen?: (width: number, height: number) => void): GifContainer {
	if (!isGif(bytes)) throw new GifFormatError("not a GIF");
	const reader = new ByteReader(bytes, 6);
	const width = reader.uint16();
	const height = reader.uint16();
	const flags = reader.byte();
	reader.take(2); // background index (browsers draw transparency instead) and aspect ratio
	if (width === 0 || height === 0) throw new GifFormatError("empty logical screen");
	onScreen?.(width, height);
	const global = flags & 0x80 ? reader.take(3 << ((flags & 7) + 1)) : undefined;
	let transparent = -1;
	let frame: GifFrame | undefined;
	for (;;) {
		const block = reader.byte();
		if (block === TRAILER) break;
		if (block === EXTENSION) {
			const label = reader.byte();
			if (label === GRAPHIC_CONTROL && !frame) {
				// Block of 4: flags (bit 0: has a transparent index), delay, transparent index.
				const control = reader.take(reader.byte());
				transparent = control.length >= 4 && control[0]! & 1 ? control[3]! : -1;
			}
			reader.skipSubBlocks();
		} else if (block === IMAGE) {
			const image = readImageDescriptor(reader, global, transparent);
			frame ??= image;
			reader.skipSubBlocks();
		} else {
			throw new GifFormatError(`unknown block ${block.toString(16)}`);
		}
	}
	if (!frame) throw new GifFormatError("no image");
	if (frame.left + frame.width > width || frame.top + frame.height > height) {
		throw new GifFormatError("the first frame reaches beyond the logical screen");
	}
	return { width, height, frame };
}

function readImageDescriptor(reader: ByteReader, global: Uint8Array | undefined, transparent: number): GifFrame {
	const left = reader.uint16();
	const top = reader.uint16();
	const width = reader.uint16();
	const height = reader.uint16();
	const flags = reader.byte();
	const local = flags & 0x80 ? reader.take(3 << ((flags & 7) + 1)) : undefined;
	const palette = local ?? global;
	if (!palette) throw new GifFormatError("no colour table");
	const minCodeSize = reader.byte();
	if (minCodeSize < 1 || minCodeSize > 11) throw new GifFormatError("bad LZW code size");
	return {
		left,
		top,
		width,
		height,
		interlaced: (flags & 0x40) !== 0,
		palette,
		transparent,
		minCodeSize,
		data: reader.at,
	};
}
