import { WebpFormatError } from "../errors";

/**
 * Least-significant-bit-first reader for the VP8L bitstream (RFC 9649 section 3.2).
 *
 * `window` holds the next `count` unread bits, lowest first. Reading past the end feeds zero
 * bytes instead of failing at once, so the hot loops need no bounds test; `checkEnd()` at row
 * ends and at the end of the image turns an overrun into an error.
 */
export class BitReader {
	window = 0;
	count = 0;
	pos: number;

	constructor(
		readonly data: Uint8Array,
		start = 0,
	) {
		this.pos = start;
	}

	/**
	 * Tops the window up to at least 24 bits: enough for any prefix code (15) or extra bits (18).
	 * It never holds more than 31, so the window stays a non-negative 32-bit integer.
	 */
	fill(): void {
		const data = this.data;
		while (this.count <= 23) {
			this.window |= (this.pos < data.length ? data[this.pos]! : 0) << this.count;
			this.pos++;
			this.count += 8;
		}
	}

	/** Reads `n` bits (at most 24) as an unsigned number. */
	read(n: number): number {
		if (this.count < n) this.fill();
		const value = this.window & ((1 << n) - 1);
		this.window >>= n;
		this.count -= n;
		return value;
	}

	/** Throws when more bits were consumed than the data holds. */
	checkEnd(): void {
		if (this.pos * 8 - this.count > this.data.length * 8) throw new WebpFormatError("VP8L data is truncated");
	}
}
