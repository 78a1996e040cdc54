import { GifFormatError } from "./errors";

/**
 * Reads a GIF byte by byte, refusing to run past the end: a GIF cut short is an error, never a
 * read of `undefined` taken as zero.
 */
export class ByteReader {
	constructor(
		readonly bytes: Uint8Array,
		public at = 0,
	) {}

	byte(): number {
		if (this.at >= this.bytes.length) throw new GifFormatError("data ends early");
		return this.bytes[this.at++]!;
	}

	uint16(): number {
		return this.byte() | (this.byte() << 8);
	}

	take(length: number): Uint8Array {
		if (this.at + length > this.bytes.length) throw new GifFormatError("data ends early");
		const out = this.bytes.subarray(this.at, this.at + length);
		this.at += length;
		return out;
	}

	/** Steps over a chain of data sub-blocks (length byte, data) up to its zero-length terminator. */
	skipSubBlocks(): void {
		for (let length = this.byte(); length > 0; length = this.byte()) {
			if (this.at + length > this.bytes.length) throw new GifFormatError("data ends early");
			this.at += length;
		}
	}
}
