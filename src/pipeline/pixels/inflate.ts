import { InflateError } from "./inflate-error";
import { FAST_MASK, HuffmanDecoder, slowDecode } from "./inflate-huffman";
import type { WorkBudget } from "./work-budget";

/** Receives inflated bytes, as a view valid only during the call; returns true once it needs no more. */
export type InflateSink = (bytes: Uint8Array) => boolean;

/** The stream's consecutive pieces (a PNG's IDAT payloads), one per call, then undefined. */
export type InflateSource = () => Uint8Array | undefined;

/**
 * What a block header costs against the work budget, in output bytes' worth: reading a dynamic
 * block's code lengths and building its tables is worth a few hundred bytes of output. Every
 * output byte costs one unit, so a stream of empty blocks runs out of budget as fast as a real one.
 */
export const DYNAMIC_BLOCK_WORK = 512;
export const PLAIN_BLOCK_WORK = 16;

/**
 * Inflates a zlib stream (RFC 1950/1951) given as consecutive pieces (a PNG's IDAT payloads),
 * handing the output to `sink` up to 224 KiB at a time. Everything it allocates is allocated
 * once per stream (a 256 KiB output buffer and the Huffman tables): unlike the runtime's
 * DecompressionStream, which makes a fresh output chunk for every read, it leaves no garbage
 * behind, so the inflated data (as large as the image) does not pile up until a collection.
 *
 * Stops as soon as the sink has what it needs; the Adler-32 at the end is not checked (PNG
 * chunk CRCs are not either: corrupt data fails earlier, as a code or distance that cannot be).
 */
export function inflateZlib(input: InflateSource, sink: InflateSink, budget: WorkBudget): void {
	new Inflater(input, sink, budget).run();
}

/** Deflate's longest match distance: the output kept behind the write position. */
const WINDOW = 32768;
const BUFFER = WINDOW * 8;
/** What an inflater holds: its output buffer, Huffman tables and code lengths. */
export const INFLATER_BYTES = BUFFER + 16 * 1024;
/**
 * Past this position one more symbol might not fit: a match is at most 258 bytes, and copied 8
 * bytes at a time it may write up to 7 more (overwritten by what follows, never handed out).
 */
const FLUSH_AT = BUFFER - 258 - 8;
/**
 * Zeros read after the end of the input, so that the hot loop never tests for the end; reading
 * any of them as data is caught right after the symbol that did (see `endsEarly`).
 */
const PAD = new Uint8Array(8);
const EMPTY = new Uint8Array(0);
/** Thrown to unwind when the sink is satisfied while the input turns out truncated. */
const FINISHED = Symbol("finished");

const LENGTH_BASE = Uint16Array.of(
	3,
	4,
	5,
	6,
	7,
	8,
	9,
	10,
	11,
	13,
	15,
	17,
	19,
	23,
	27,
	31,
	35,
	43,
	51,
	59,
	67,
	83,
	99,
	115,
	131,
	163,
	195,
	227,
	258,
);
const LENGTH_EXTRA = Uint8Array.of(
	0,
	0,
	0,
	0,
	0,
	0,
	0,
	0,
	1,
	1,
	1,
	1,
	2,
	2,
	2,
	2,
	3,
	3,
	3,
	3,
	4,
	4,
	4,
	4,
	5,
	5,
	5,
	5,
	0,
);
const DIST_BASE = Uint16Array.of(
	1,
	2,
	3,
	4,
	5,
	7,
	9,
	13,
	17,
	25,
	33,
	49,
	65,
	97,
	129,
	193,
	257,
	385,
	513,
	769,
	1025,
	1537,
	2049,
	3073,
	4097,
	6145,
	8193,
	12289,
	16385,
	24577,
);
const DIST_EXTRA = Uint8Array.of(
	0,
	0,
	0,
	0,
	1,
	1,
	2,
	2,
	3,
	3,
	4,
	4,
	5,
	5,
	6,
	6,
	7,
	7,
	8,
	8,
	9,
	9,
	10,
	10,
	11,
	11,
	12,
	12,
	13,
	13,
);
/** Order in which code-length code lengths are sent (RFC 1951 3.2.7). */
const CL_ORDER = Uint8Array.of(16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15);

/** The fixed codes of block type 1 (RFC 1951 3.2.6); symbols 286, 287 and distances 30, 31 are invalid. */
const FIXED_LIT = new HuffmanDecoder(288).build(
	new Uint8Array(288).fill(8, 0, 144).fill(9, 144, 256).fill(7, 256, 280).fill(8, 280, 288),
	288,
);
const FIXED_DIST = new HuffmanDecoder(32).build(new Uint8Array(32).fill(5), 32);

class Inflater {
	/** The piece being read and the position in it. */
	private piece: Uint8Array = EMPTY;
	private view: DataView = new DataView(EMPTY.buffer);
	private at = 0;
	/** Input bits not yet used, LSB first, and how many (up to 32). */
	private bitBuffer = 0;
	private bitCount = 0;
	private readonly out = new Uint8Array(BUFFER);
	private readonly outView = new DataView(this.out.buffer);
	private pos = 0;
	private flushed = 0;
	/** The sink said it has everything. */
	private done = false;
	private readonly lit = new HuffmanDecoder(288);
	private readonly dist = new HuffmanDecoder(32);
	private readonly cl = new HuffmanDecoder(19);
	private readonly lengths = new Uint8Array(286 + 30);

	constructor(
		private readonly input: InflateSource,
		private readonly sink: InflateSink,
		private readonly budget: WorkBudget,
	) {}

	run(): void {
		try {
			this.blocks();
		} catch (error) {
			if (error !== FINISHED) throw error;
		}
	}

	private blocks(): void {
		const cmf = this.bits(8);
		const flg = this.bits(8);
		if ((cmf & 15) !== 8 || cmf >> 4 > 7 || ((cmf << 8) | flg) % 31 !== 0) throw new InflateError("not a zlib stream");
		if (flg & 32) throw new InflateError("zlib stream needs a preset dictionary");
		for (let last = 0; !last && !this.done; ) {
			last = this.bits(1);
			const type = this.bits(2);
			this.budget.spend(type === 2 ? DYNAMIC_BLOCK_WORK : PLAIN_BLOCK_WORK);
			if (type === 0) this.storedBlock();
			else if (type === 1) this.codes(FIXED_LIT, FIXED_DIST);
			else if (type === 2) this.codes(...this.dynamicTables());
			else throw new InflateError("invalid block type");
		}
		if (!this.done) this.flush();
	}

	/** Hands the output since the last flush to the sink, then slides the window back to the start. */
	private flush(): void {
		this.budget.spend(this.pos - this.flushed);
		if (this.pos > this.flushed && this.sink(this.out.subarray(this.flushed, this.pos))) {
			this.done = true;
			return;
		}
		if (this.pos > WINDOW) {
			this.out.copyWithin(0, this.pos - WINDOW, this.pos);
			this.pos = WINDOW;
		}
		this.flushed = this.pos;
	}

	/**
	 * The input ran out mid-stream: what was inflated before is still handed over, and if that was
	 * all the sink needed, inflating stops there as if the stream had ended.
	 */
	private endsEarly(): never {
		this.flush();
		throw this.done ? FINISHED : new InflateError("data ends early");
	}

	/** True once bits of the padding after the input have been used as data. */
	private pastEnd(): boolean {
		return this.piece === PAD && this.at * 8 > this.bitCount;
	}

	/** The input piece after `current`: PAD once the input is spent, an error if PAD is too. */
	private nextPiece(current: Uint8Array): Uint8Array {
		if (current === PAD) throw new InflateError("data ends early");
		let piece: Uint8Array = PAD;
		for (let candidate = this.input(); candidate; candidate = this.input()) {
			if (candidate.length > 0) {
				piece = candidate;
				break;
			}
		}
		this.view = new DataView(piece.buffer, piece.byteOffset, piece.byteLength);
		return piece;
	}

	/** Makes at least n (≤ 24) bits available, a byte at a time (so never more than 31). */
	private need(n: number): void {
		while (this.bitCount < n) {
			if (this.at === this.piece.length) {
				this.piece = this.nextPiece(this.piece);
				this.at = 0;
				continue;
			}
			this.bitBuffer |= this.piece[this.at++]! << this.bitCount;
			this.bitCount += 8;
		}
	}

	/** Reads n (≤ 16) bits as a number, first bit lowest. */
	private bits(n: number): number {
		this.need(n);
		const value = this.bitBuffer & ((1 << n) - 1);
		this.bitBuffer >>>= n;
		this.bitCount -= n;
		if (this.pastEnd()) this.endsEarly();
		return value;
	}

	private symbol(table: HuffmanDecoder): number {
		this.need(15);
		let entry = table.fast[this.bitBuffer & FAST_MASK]!;
		if (entry === 0) entry = slowDecode(table, this.bitBuffer);
		this.bitBuffer >>>= entry & 15;
		this.bitCount -= entry & 15;
		if (this.pastEnd()) this.endsEarly();
		return entry >>> 4;
	}

	private storedBlock(): void {
		this.bits(this.bitCount & 7); // to a byte boundary
		const length = this.bits(16);
		if (this.bits(16) !== (length ^ 0xffff)) throw new InflateError("stored block length check fails");
		let left = length;
		while (left > 0) {
			if (this.pos >= FLUSH_AT) {
				this.flush();
				if (this.done) return;
			} else if (this.bitCount > 0) {
				// Whole bytes already in the bit buffer come first.
				this.out[this.pos++] = this.bits(8);
				left--;
			} else if (this.piece === PAD) {
				this.endsEarly();
			} else if (this.at === this.piece.length) {
				this.piece = this.nextPiece(this.piece);
				this.at = 0;
			} else {
				const n = Math.min(left, this.piece.length - this.at, BUFFER - this.pos);
				this.out.set(this.piece.subarray(this.at, this.at + n), this.pos);
				this.pos += n;
				this.at += n;
				left -= n;
			}
		}
	}

	/** Reads a dynamic block's code lengths (RFC 1951 3.2.7) into the literal/length and distance tables. */
	private dynamicTables(): [HuffmanDecoder, HuffmanDecoder] {
		const litCount = this.bits(5) + 257;
		const distCount = this.bits(5) + 1;
		const clCount = this.bits(4) + 4;
		if (litCount > 286 || distCount > 30) throw new InflateError("too many length or distance codes");
		const lengths = this.lengths;
		lengths.fill(0, 0, 19);
		for (let i = 0; i < clCount; i++) lengths[CL_ORDER[i]!] = this.bits(3);
		this.cl.build(lengths, 19);
		const total = litCount + distCount;
		for (let i = 0; i < total; ) {
			const symbol = this.symbol(this.cl);
			if (symbol < 16) {
				lengths[i++] = symbol;
				continue;
			}
			if (symbol === 16 && i === 0) throw new InflateError("length repeat with no previous length");
			const value = symbol === 16 ? lengths[i - 1]! : 0;
			const repeat = symbol === 16 ? 3 + this.bits(2) : symbol === 17 ? 3 + this.bits(3) : 11 + this.bits(7);
			if (i + repeat > total) throw new InflateError("code lengths overrun the table");
			lengths.fill(value, i, i + repeat);
			i += repeat;
		}
		if (lengths[256] === 0) throw new InflateError("no end-of-block code");
		return [this.lit.build(lengths, litCount), this.dist.build(lengths.subarray(litCount), distCount)];
	}

	/**
	 * Inflates one Huffman-coded block. The hot loop: input and output state live in locals
	 * (written back whenever a method runs), and the input is topped up inline to 24..31 bits.
	 */
	private codes(lit: HuffmanDecoder, dist: HuffmanDecoder): void {
		const out = this.out;
		const outView = this.outView;
		const litFast = lit.fast;
		const distFast = dist.fast;
		// Not a closure over these: V8 would keep them in a heap context instead of registers.
		let { piece, view, at, bitBuffer, bitCount, pos } = this;
		for (;;) {
			if (pos >= FLUSH_AT) {
				this.store(piece, at, bitBuffer, bitCount, pos);
				this.flush();
				if (this.done) return;
				pos = this.pos;
			}
			// Top up to 24..31 bits with one 32-bit read: as many whole bytes as fit (libdeflate's
			// trick), the bits of a partial byte masked off. Near a piece's end, byte by byte.
			if (bitCount <= 23) {
				if (at + 4 <= piece.length) {
					const filled = bitCount | 24;
					bitBuffer |= (view.getUint32(at, true) << bitCount) & ((1 << filled) - 1);
					at += (filled - bitCount) >> 3;
					bitCount = filled;
				} else {
					this.store(piece, at, bitBuffer, bitCount, pos);
					this.need(24);
					({ piece, view, at, bitBuffer, bitCount } = this);
				}
			}
			let entry = litFast[bitBuffer & FAST_MASK]!;
			if (entry === 0) entry = slowDecode(lit, bitBuffer);
			bitBuffer >>>= entry & 15;
			bitCount -= entry & 15;
			const symbol = entry >>> 4;
			if (symbol < 256) {
				if (piece === PAD && at * 8 > bitCount) break;
				out[pos++] = symbol;
				continue;
			}
			if (symbol === 256) {
				if (piece === PAD && at * 8 > bitCount) break;
				this.store(piece, at, bitBuffer, bitCount, pos);
				return;
			}
			const lengthCode = symbol - 257;
			if (lengthCode >= 29) throw new InflateError("invalid length code");
			let extra = LENGTH_EXTRA[lengthCode]!;
			const length = LENGTH_BASE[lengthCode]! + (bitBuffer & ((1 << extra) - 1));
			bitBuffer >>>= extra;
			bitCount -= extra;

			// The distance code (up to 15 bits), then its extra bits (up to 13): a top-up before each.
			if (bitCount < 15) {
				if (at + 4 <= piece.length) {
					const filled = bitCount | 24;
					bitBuffer |= (view.getUint32(at, true) << bitCount) & ((1 << filled) - 1);
					at += (filled - bitCount) >> 3;
					bitCount = filled;
				} else {
					this.store(piece, at, bitBuffer, bitCount, pos);
					this.need(24);
					({ piece, view, at, bitBuffer, bitCount } = this);
				}
			}
			entry = distFast[bitBuffer & FAST_MASK]!;
			if (entry === 0) entry = slowDecode(dist, bitBuffer);
			bitBuffer >>>= entry & 15;
			bitCount -= entry & 15;
			const distCode = entry >>> 4;
			if (distCode >= 30) throw new InflateError("invalid distance code");
			extra = DIST_EXTRA[distCode]!;
			if (bitCount < extra) {
				if (at + 4 <= piece.length) {
					const filled = bitCount | 24;
					bitBuffer |= (view.getUint32(at, true) << bitCount) & ((1 << filled) - 1);
					at += (filled - bitCount) >> 3;
					bitCount = filled;
				} else {
					this.store(piece, at, bitBuffer, bitCount, pos);
					this.need(24);
					({ piece, view, at, bitBuffer, bitCount } = this);
				}
			}
			const distance = DIST_BASE[distCode]! + (bitBuffer & ((1 << extra) - 1));
			bitBuffer >>>= extra;
			bitCount -= extra;
			if (piece === PAD && at * 8 > bitCount) break;
			if (distance > pos) throw new InflateError("distance reaches before the start of the data");
			const from = pos - distance;
			if (distance >= 8) {
				// Eight bytes at a time: each read lies wholly before its write, as deflate means.
				for (let k = 0; k < length; k += 8) {
					outView.setUint32(pos + k, outView.getUint32(from + k, true), true);
					outView.setUint32(pos + k + 4, outView.getUint32(from + k + 4, true), true);
				}
			} else if (distance === 1) out.fill(out[from]!, pos, pos + length);
			// Byte by byte, so that a match overlapping its own output repeats as deflate means.
			else for (let k = 0; k < length; k++) out[pos + k] = out[from + k]!;
			pos += length;
		}
		this.store(piece, at, bitBuffer, bitCount, pos);
		this.endsEarly();
	}

	private store(piece: Uint8Array, at: number, bitBuffer: number, bitCount: number, pos: number): void {
		this.piece = piece;
		this.at = at;
		this.bitBuffer = bitBuffer;
		this.bitCount = bitCount;
		this.pos = pos;
	}
}
