import { Vp8FormatError } from "./errors";

/**
 * Zero bytes a partition may be read past its end before the data counts as cut short. A bool
 * encoder's final flush can leave the decoder wanting a byte or two more than were written, so a
 * little slack is normal; a truncated partition reads many more.
 */
const OVERRUN_SLACK = 4;

/**
 * The boolean entropy decoder of RFC 6386 §7 over one partition. `value` holds the undecoded bits
 * aligned so that its top 8 bits above `bits` compare with the range; bytes are loaded two at a time.
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

	/** Appends the next two bytes (zeros past the end, counted) below the current bits. */
	private load(): void {
		let pair: number;
		if (this.pos + 2 <= this.end) {
			pair = (this.data[this.pos]! << 8) | this.data[this.pos + 1]!;
			this.pos += 2;
		} else {
			pair = this.pos < this.end ? this.data[this.pos]! << 8 : 0;
			this.overrun += this.pos < this.end ? 1 : 2;
			this.pos = this.end;
		}
		this.value = (this.value << 16) | pair;
		this.bits += 16;
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
