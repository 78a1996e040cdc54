/**
 * What every pass of the pipeline needs around the rows `decodeRows` hands its `RowSink`
 * (types.ts): stopping a decode early, and reading rows as pixel words.
 */

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
