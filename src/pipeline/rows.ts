/**
 * Decoded pixels as every pass of the pipeline takes them: a few rows at a time, top to bottom,
 * never the whole image. A pass is a row sink; the decoder calls it as rows come out.
 */

/**
 * Where an image's rows are delivered: every row once, top to bottom, straight RGBA. Each call
 * hands `count` consecutive rows from row `y`: `rgba` holds `count * width * 4` bytes and is valid
 * only during the call (the decoder reuses it). Throwing from `rows` stops the decode.
 */
export interface RowSink {
	rows(y: number, count: number, rgba: Uint8Array): void;
}

/** Thrown by a sink that needs no more rows: the pass catches it, the decode stops early. */
export class EnoughRows extends Error {
	constructor() {
		super("no more rows needed");
		this.name = "EnoughRows";
	}
}

/** Runs a decode whose sink may stop it early with EnoughRows. */
export async function decodeUntilEnough(decode: () => void | Promise<void>): Promise<void> {
	try {
		await decode();
	} catch (error) {
		if (!(error instanceof EnoughRows)) throw error;
	}
}

/**
 * The rows' pixels as 32-bit words, 0xAABBGGRR (RGBA bytes read little-endian, as on every
 * machine Workers run on). A view at an offset that is not a multiple of 4 is copied first.
 */
export function pixelWords(data: Uint8Array): Int32Array {
	const aligned = data.byteOffset & 3 ? data.slice() : data;
	return new Int32Array(aligned.buffer, aligned.byteOffset, aligned.length >> 2);
}
