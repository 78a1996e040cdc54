import { Vp8FormatError } from "./errors";

/**
 * Zero bytes a partition may be read past its end before the data counts as cut short. A bool
 * encoder's final flush can leave the decoder wanting a byte or two more than were written, and
 * loads run up to two bytes ahead of need, so a little slack is normal; a truncated partition
 * reads many more.
 */
const OVERRUN_SLACK = 8;

/**
 * The boolean entropy decoder of RFC 6386 §7 over one partition. `value` holds the undecoded bits
 * aligned so that its top 8 bits above `bits` compare with the range; bytes are loaded three at a time.
 */
export class BoolDecoder {
	private value = 0;
	private bits = -8;
	private range = 255;
	private pos: number;
	private overrun = 0;

	constructor(
		private readonly data: Uint8Array,
		start: number,
		private readonly end: number,
	) {
		this.pos = start;
		this.load();
	}

	/**
	 * Appends the next three bytes (zeros past the end, counted) below the current bits. With at
	 * most 23 bits below the top 8, value and split << bits stay under 2^31.
	 */
	private load(): void {
		const { data, pos, end } = this;
		let next: number;
		if (pos + 3 <= end) {
			next = (data[pos]! << 16) | (data[pos + 1]! << 8) | data[pos + 2]!;
			this.pos = pos + 3;
		} else {
			next = 0;
			for (let i = 0; i < 3; i++) next = (next << 8) | (pos + i < end ? data[pos + i]! : 0);
			this.overrun += pos + 3 - Math.max(pos, end);
			this.pos = Math.min(pos + 3, end);
		}
		this.value = (this.value << 24) | next;
		this.bits += 24;
	}

	/** One bool whose probability of being 0 is prob/256. */
	bit(prob: number): number {
		if (this.bits < 0) this.load();
		const split = 1 + (((this.range - 1) * prob) >> 8);
		const bigSplit = split << this.bits;
		// 1 when value >= bigSplit, read from the sign of the difference: the outcome is as
		// unpredictable as the data, so a comparison and branch would mispredict.
		const bit = (bigSplit - 1 - this.value) >>> 31;
		this.range = bit ? this.range - split : split;
		this.value -= bigSplit & -bit;
		// Renormalise to 128..255 (§7.3); the shift is 0 when the range is already there.
		const shift = Math.clz32(this.range) - 24;
		this.range <<= shift;
		this.bits -= shift;
		return bit;
	}

	/** An n-bit unsigned literal, most significant bit first, each bit at even odds (§19 L(n)). */
	literal(n: number): number {
		let v = 0;
		for (let i = 0; i < n; i++) v = (v << 1) | this.bit(128);
		return v;
	}

	/** An n-bit magnitude followed by a sign bit (set = negative), as the frame header codes deltas. */
	signed(n: number): number {
		const magnitude = this.literal(n);
		return this.bit(128) ? -magnitude : magnitude;
	}

	/** A value present only if its flag bit is set, 0 otherwise. */
	optionalSigned(n: number): number {
		return this.bit(128) ? this.signed(n) : 0;
	}

	/** Throws if this partition has been read well past its end: the data was cut short. */
	checkNotTruncated(): void {
		if (this.overrun > OVERRUN_SLACK) throw new Vp8FormatError("VP8 partition is truncated");
	}
}
