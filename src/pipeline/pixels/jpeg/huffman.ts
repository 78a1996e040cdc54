import { JpegFormatError } from "./errors";

const FAST_BITS = 9;

/**
 * Zero bytes fed past the end of a scan's data (at its closing marker, or at the end of the file)
 * beyond which the data is taken as cut short. Reading runs up to four bytes ahead of need, so a
 * scan that ends where it should never counts this many.
 */
const TRUNCATION_SLACK = 8;

/** A JPEG Huffman table (ITU T.81 annex C): a 9-bit lookup for short codes, canonical ranges for the rest. */
export class HuffmanTable {
	/** (length << 8) | symbol for every 9-bit prefix that starts with a short code; 0 otherwise. */
	readonly fast = new Uint16Array(1 << FAST_BITS);
	readonly firstCode = new Int32Array(17);
	readonly firstIndex = new Int32Array(17);
	readonly count = new Int32Array(17);
	/** Length of the shortest code: the fewest bits a symbol of this table can take. */
	readonly shortest: number;

	constructor(
		counts: Uint8Array,
		readonly symbols: Uint8Array,
	) {
		let code = 0;
		let index = 0;
		this.shortest = counts.findIndex((n) => n > 0) + 1;
		for (let len = 1; len <= 16; len++) {
			const n = counts[len - 1]!;
			this.firstCode[len] = code;
			this.firstIndex[len] = index;
			this.count[len] = n;
			for (let i = 0; i < n; i++, code++, index++) {
				if (len > FAST_BITS) continue;
				const shift = FAST_BITS - len;
				for (let fill = 0; fill < 1 << shift; fill++) this.fast[(code << shift) | fill] = (len << 8) | symbols[index]!;
			}
			if (code > 1 << len) throw new JpegFormatError("over-subscribed Huffman table");
			code <<= 1;
		}
	}
}

/** Numbers `BitReader.save` writes. */
export const READER_STATE = 5;

/**
 * Reads the entropy-coded segment MSB first, removing stuffed zero bytes. At a marker (or the end
 * of the data) it stops and feeds zero bits; `overrun` counts the zero bytes fed past the end, so
 * that a scan of many blocks and no data (all zeros decode as valid codes) fails as cut short.
 */
export class BitReader {
	private buffer = 0;
	private bits = 0;
	private markerHit = false;
	private overrun = 0;

	constructor(
		private readonly data: Uint8Array,
		private at: number,
	) {}

	private fill(): void {
		while (this.bits <= 24) {
			let byte = 0;
			if (this.markerHit || this.at >= this.data.length) {
				this.overrun++;
			} else {
				byte = this.data[this.at++]!;
				if (byte === 0xff) {
					const next = this.data[this.at];
					if (next === 0) this.at++;
					else {
						this.markerHit = true;
						this.at--;
						byte = 0;
					}
				}
			}
			this.buffer = (this.buffer << 8) | byte;
			this.bits += 8;
		}
	}

	decode(table: HuffmanTable): number {
		if (this.bits < 16) this.fill();
		const entry = table.fast[(this.buffer >>> (this.bits - FAST_BITS)) & ((1 << FAST_BITS) - 1)]!;
		if (entry) {
			this.bits -= entry >> 8;
			return entry & 255;
		}
		const peek = (this.buffer >>> (this.bits - 16)) & 0xffff;
		for (let len = FAST_BITS + 1; len <= 16; len++) {
			const code = peek >>> (16 - len);
			const offset = code - table.firstCode[len]!;
			if (offset >= 0 && offset < table.count[len]!) {
				this.bits -= len;
				return table.symbols[table.firstIndex[len]! + offset]!;
			}
		}
		throw new JpegFormatError("bad Huffman code");
	}

	/** `s` bits as a signed coefficient (ITU T.81 F.2.2.1 EXTEND). */
	receiveExtend(s: number): number {
		if (s === 0) return 0;
		if (this.bits < s) this.fill();
		const value = (this.buffer >>> (this.bits - s)) & ((1 << s) - 1);
		this.bits -= s;
		return value < 1 << (s - 1) ? value - (1 << s) + 1 : value;
	}

	/** Steps over `s` bits (a coefficient not wanted): receiveExtend without the value. */
	skip(s: number): void {
		if (this.bits < s) this.fill();
		this.bits -= s;
	}

	/** One bit: progressive refinement reads them one at a time. */
	readBit(): number {
		if (this.bits === 0) this.fill();
		this.bits--;
		return (this.buffer >>> this.bits) & 1;
	}

	/** `n` (at most 16) bits as an unsigned number: EOB run lengths, refinement bits. */
	readBits(n: number): number {
		if (n === 0) return 0;
		if (this.bits < n) this.fill();
		this.bits -= n;
		return (this.buffer >>> this.bits) & ((1 << n) - 1);
	}

	/** More zero bytes fed past the end of the data than a last block could need: the file was cut short. */
	get truncated(): boolean {
		return this.overrun > TRUNCATION_SLACK;
	}

	/** Offset of the first byte not yet taken into the bit buffer: the scan's data ends at or after it. */
	get position(): number {
		return this.at;
	}

	/** Writes where the reader stands into `into[at..at + READER_STATE)`, for `restore` to come back to. */
	save(into: Float64Array | Int32Array, at: number): void {
		into[at] = this.at;
		into[at + 1] = this.buffer;
		into[at + 2] = this.bits;
		into[at + 3] = this.markerHit ? 1 : 0;
		into[at + 4] = this.overrun;
	}

	/**
	 * Stands where `save` wrote, in this scan's data. Every number is taken back as an integer
	 * (`| 0`): a double from the Float64Array stored in a field V8 keeps as a small integer turns
	 * that field into a double for every reader, and every decode after the first restore in the
	 * isolate ran slower (the measure is in issue 11's note).
	 */
	restore(from: Float64Array | Int32Array, at: number): void {
		this.at = from[at]! | 0;
		this.buffer = from[at + 1]! | 0;
		this.bits = from[at + 2]! | 0;
		this.markerHit = from[at + 3] === 1;
		this.overrun = from[at + 4]! | 0;
	}

	/** At a restart interval: drop the partial byte and step over the RSTn marker. */
	restart(): void {
		if (this.truncated) throw new JpegFormatError("restart interval's data is cut short");
		this.overrun = 0;
		this.buffer = 0;
		this.bits = 0;
		this.markerHit = false;
		// Find the next RST marker (normally right here).
		while (this.at + 1 < this.data.length) {
			if (this.data[this.at] === 0xff && this.data[this.at + 1]! >= 0xd0 && this.data[this.at + 1]! <= 0xd7) {
				this.at += 2;
				return;
			}
			this.at++;
		}
		throw new JpegFormatError("restart marker missing");
	}
}
