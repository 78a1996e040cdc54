import { canonicalCodes, codeLengths } from "./huffman";

/**
 * A fast zlib (RFC 1950/1951) compressor made for PNG-filtered image rows. It looks for one kind
 * of match only, a byte repeated (distance 1: what filtering turns flat areas and gradients
 * into), and codes each block with its own Huffman tables. That is the "RLE" strategy of zlib
 * and of fast PNG encoders (fpng, fdeflate): within a few percent of zlib's default size on
 * photos and art, several times faster than the runtime's CompressionStream, whose level cannot
 * be chosen (see docs/benchmarks.md).
 */
export class RleDeflater {
	private readonly bits = new BitWriter();
	private adler = new Adler32();
	/** Where the runs of a block are, kept between blocks so that each does not allocate its own. */
	private runs = new Uint32Array(0);

	constructor() {
		this.bits.writeBits(0x78, 8); // CMF: deflate, 32 KiB window
		this.bits.writeBits(0x01, 8); // FLG: fastest, check bits
	}

	/** Compresses `data` as one block; returns the bytes completed so far. */
	push(data: Uint8Array): Uint8Array {
		// A run takes at least 3 bytes and two entries: data.length entries always suffice.
		if (this.runs.length < data.length) this.runs = new Uint32Array(data.length);
		writeBlock(this.bits, data, this.runs, this.adler);
		return this.bits.take();
	}

	/** Ends the stream (an empty final block and the Adler-32); returns the last bytes. */
	finish(): Uint8Array {
		this.bits.writeBits(1, 1); // BFINAL
		this.bits.writeBits(1, 2); // fixed Huffman
		this.bits.writeBits(0, 7); // end of block (code 256 is seven zero bits)
		this.bits.alignToByte();
		const sum = this.adler.value();
		for (const shift of [24, 16, 8, 0]) this.bits.writeBits((sum >>> shift) & 255, 8);
		return this.bits.take();
	}
}

const MAX_RUN = 258;

/** Length symbol (257..285) for each match length 3..258, with its extra bits and base. */
const LENGTH_SYMBOL = new Uint16Array(MAX_RUN + 1);
const LENGTH_EXTRA_BITS = new Uint8Array(29);
const LENGTH_BASE = new Uint16Array(29);
{
	const extra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
	let base = 3;
	for (let code = 0; code < 29; code++) {
		LENGTH_EXTRA_BITS[code] = extra[code]!;
		LENGTH_BASE[code] = code === 28 ? 258 : base;
		if (code < 28) {
			for (let len = base; len < base + (1 << extra[code]!) && len <= MAX_RUN; len++) LENGTH_SYMBOL[len] = 257 + code;
			base += 1 << extra[code]!;
		}
	}
	LENGTH_SYMBOL[258] = 285;
}

/** Order in which code-length code lengths are sent (RFC 1951 3.2.7). */
const CL_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

/** One block: its literal bytes and runs of a byte repeated (length 3..258, distance 1). */
function writeBlock(bits: BitWriter, data: Uint8Array, runs: Uint32Array, adler: Adler32): void {
	const freqs = new Uint32Array(286);
	countBytes(data, freqs, adler);
	const runCount = findRuns(data, runs, freqs);
	freqs[256] = 1;

	const litLengths = codeLengths(freqs, 15);
	const litCodes = canonicalCodes(litLengths);
	// Distance 1 is code 0; a second code keeps the distance tree complete.
	const distLengths = new Uint8Array([1, 1]);
	const distCodes = canonicalCodes(distLengths);
	writeHeader(bits, litLengths, distLengths);

	const table = new Int32Array(286);
	for (let sym = 0; sym < 286; sym++) table[sym] = (litLengths[sym]! << 16) | litCodes[sym]!;
	writeSymbols(bits, data, runs, runCount, table, (distLengths[0]! << 16) | distCodes[0]!);
	bits.writeBits(litCodes[256]!, litLengths[256]!);
}

/**
 * Writes the block's bytes with its codes: literals straight from `data`, and the runs that
 * `findRuns` listed. `table[symbol]` is (length << 16) | code, `dist` the same for distance 1.
 * The bit writer's state lives in locals here (several times faster than method calls). Under 8
 * bits are left pending after each step, so a step may add 24 bits: two literals together when
 * their codes are that short, else one; a run's length code, extra bits and distance. Each step
 * stores four bytes as one word and keeps those complete (the position advanced past them).
 */
function writeSymbols(
	bits: BitWriter,
	data: Uint8Array,
	runs: Uint32Array,
	runCount: number,
	table: Int32Array,
	dist: number,
): void {
	let { buffer, count: nbits } = bits.state();
	// A literal takes at most 15 bits, a run (at least 3 bytes) at most 21: 2 bytes per input byte
	// is room enough, and 4 more for the last word stored.
	const out = new DataView(bits.reserve(data.length * 2 + 16).buffer);
	let at = bits.position();
	let i = 0;
	for (let r = 0; r <= runCount; r++) {
		const literalsEnd = r < runCount ? runs[2 * r]! : data.length;
		while (i < literalsEnd) {
			const entry = table[data[i]!]!;
			let code = entry & 0xffff;
			let length = entry >>> 16;
			i++;
			if (i < literalsEnd) {
				const next = table[data[i]!]!;
				if (length + (next >>> 16) <= 24) {
					code |= (next & 0xffff) << length;
					length += next >>> 16;
					i++;
				}
			}
			buffer |= code << nbits;
			nbits += length;
			out.setInt32(at, buffer, true);
			const full = nbits >>> 3;
			at += full;
			buffer >>>= full << 3;
			nbits &= 7;
		}
		if (r === runCount) break;
		const run = runs[2 * r + 1]!;
		const symbol = LENGTH_SYMBOL[run]!;
		const entry = table[symbol]!;
		const extra = symbol - 257;
		buffer |= (entry & 0xffff) << nbits;
		nbits += entry >>> 16;
		buffer |= (run - LENGTH_BASE[extra]!) << nbits; // zero when the code has no extra bits
		nbits += LENGTH_EXTRA_BITS[extra]!;
		buffer |= (dist & 0xffff) << nbits;
		nbits += dist >>> 16;
		out.setInt32(at, buffer, true);
		const full = nbits >>> 3;
		at += full;
		buffer >>>= full << 3;
		nbits &= 7;
		i += run;
	}
	bits.commit(at, buffer, nbits);
}

/**
 * Finds runs of a byte repeated (what Up-filtered flat areas become), counting the frequency of
 * every symbol: run k starts at runs[2k] and is runs[2k + 1] bytes long; returns the number of
 * runs. Every byte has been counted as a literal (`countBytes`): the bytes of each run are
 * taken back out.
 *
 * Runs are looked for a word at a time: only where four aligned bytes are equal, then grown both
 * ways. That sees every stretch of 7 or more equal bytes, and some shorter ones; testing every
 * byte costs a branch that noise mispredicts at every other byte (the search took 1.7 times as
 * long on the bench photo). Sizes moved by 1% either way: +1.0% manga page, -3% 25 MP grey.
 */
function findRuns(data: Uint8Array, runs: Uint32Array, freqs: Uint32Array): number {
	const n = data.length;
	const head = Math.min(n, (4 - (data.byteOffset & 3)) & 3);
	const words = new Int32Array(data.buffer, data.byteOffset + head, (n - head) >> 2);
	let count = 0;
	let end = 1; // where the next run may start: after the last one, never at 0 (nothing to repeat)
	for (let k = 0; k < words.length; k++) {
		const w = words[k]!;
		if ((w ^ (w >>> 8)) & 0xffffff) continue;
		const b = w & 255;
		// Grown back without a loop: the word before's last bytes equal to b are the top zero bytes
		// of their xor (little-endian words). A word before that is all b lies in the last run (the
		// loop skipped it), and the start is held to that run's end below.
		let start = head + 4 * k;
		if (k > 0) start -= Math.clz32(words[k - 1]! ^ w) >>> 3;
		else while (start > 0 && data[start - 1] === b) start--;
		// The word may begin inside the last run (or at 0): the run starts no earlier than `end`.
		start = Math.max(start, end);
		// The byte before a run is the one it repeats.
		if (data[start - 1] !== b) start++;
		// Grown a word at a time past the word found (a flat area's run is rows long), then over
		// the next word's first bytes equal to b: the low zero bytes of their xor, found by its
		// lowest set bit (x & -x, the negation kept to 32 bits by Math.imul).
		let word = k + 1;
		while (word < words.length && words[word] === w) word++;
		let stretch = head + 4 * word;
		if (word < words.length) {
			const differ = words[word]! ^ w;
			stretch += (31 - Math.clz32(differ & Math.imul(differ, -1))) >>> 3;
		} else while (stretch < n && data[stretch] === b) stretch++;
		// A stretch longer than a match is several runs; a tail under 3 bytes stays literal.
		for (let at = start; stretch - at >= 3; ) {
			const run = Math.min(MAX_RUN, stretch - at);
			runs[count++] = at;
			runs[count++] = run;
			freqs[LENGTH_SYMBOL[run]!]!++;
			freqs[b]! -= run;
			at += run;
			end = at;
		}
		k = Math.max(k, ((end - head) >> 2) - 1);
	}
	return count >> 1;
}

/**
 * Adds each byte's count to freqs[byte], and the bytes to the stream's Adler-32: one pass for
 * both, as both read every byte. Eight bytes are read as two words and counted in eight
 * separate tables: consecutive equal bytes (common in filtered rows) would otherwise make every
 * increment wait for the one before; twice as fast as the plain loop on a photo.
 */
function countBytes(data: Uint8Array, freqs: Uint32Array, adler: Adler32): void {
	const tables = new Int32Array(2048);
	const head = Math.min(data.length, (4 - (data.byteOffset & 3)) & 3);
	for (let i = 0; i < head; i++) tables[data[i]!]!++;
	adler.update(data.subarray(0, head));
	const words = new Int32Array(data.buffer, data.byteOffset + head, ((data.length - head) >> 3) << 1);
	let { a, b } = adler;
	// 900 words (3600 bytes) between reductions keep both sums under 2^31: 32-bit integer arithmetic.
	for (let start = 0; start < words.length; start += 900) {
		const end = Math.min(words.length, start + 900);
		for (let i = start; i < end; i += 2) {
			const w = words[i]!;
			const x0 = w & 255;
			const x1 = (w >>> 8) & 255;
			const x2 = (w >>> 16) & 255;
			const x3 = w >>> 24;
			const v = words[i + 1]!;
			const y0 = v & 255;
			const y1 = (v >>> 8) & 255;
			const y2 = (v >>> 16) & 255;
			const y3 = v >>> 24;
			tables[x0]!++;
			tables[256 | x1]!++;
			tables[512 | x2]!++;
			tables[768 | x3]!++;
			tables[1024 | y0]!++;
			tables[1280 | y1]!++;
			tables[1536 | y2]!++;
			tables[1792 | y3]!++;
			// Eight steps of a += x; b += a at once.
			b += 8 * a + 8 * x0 + 7 * x1 + 6 * x2 + 5 * x3 + 4 * y0 + 3 * y1 + 2 * y2 + y3;
			a += x0 + x1 + x2 + x3 + y0 + y1 + y2 + y3;
		}
		a %= 65521;
		b %= 65521;
	}
	adler.a = a;
	adler.b = b;
	const tail = head + words.length * 4;
	for (let i = tail; i < data.length; i++) tables[data[i]!]!++;
	adler.update(data.subarray(tail));
	for (let v = 0; v < 256; v++) {
		let sum = 0;
		for (let t = v; t < 2048; t += 256) sum += tables[t]!;
		freqs[v]! += sum;
	}
}

/** Dynamic block header: the two code length tables, themselves run-length and Huffman coded. */
function writeHeader(bits: BitWriter, litLengths: Uint8Array, distLengths: Uint8Array): void {
	let hlit = 286;
	while (hlit > 257 && litLengths[hlit - 1] === 0) hlit--;
	const all = [...litLengths.subarray(0, hlit), ...distLengths];
	// Run-length code the lengths: 16 repeats the previous 3-6 times, 17/18 are runs of zeros.
	const symbols: [number, number, number][] = []; // symbol, extra value, extra bits
	for (let i = 0; i < all.length; ) {
		const len = all[i]!;
		let run = 1;
		while (i + run < all.length && all[i + run] === len) run++;
		if (len === 0 && run >= 3) {
			const n = Math.min(run, 138);
			symbols.push(n >= 11 ? [18, n - 11, 7] : [17, n - 3, 3]);
			i += n;
		} else if (len !== 0 && run >= 4) {
			symbols.push([len, 0, 0]);
			const n = Math.min(run - 1, 6);
			symbols.push([16, n - 3, 2]);
			i += 1 + n;
		} else {
			symbols.push([len, 0, 0]);
			i++;
		}
	}
	const clFreqs = new Uint32Array(19);
	for (const [s] of symbols) clFreqs[s]!++;
	const clLengths = codeLengths(clFreqs, 7);
	const clCodes = canonicalCodes(clLengths);
	let hclen = 19;
	while (hclen > 4 && clLengths[CL_ORDER[hclen - 1]!] === 0) hclen--;

	bits.writeBits(0, 1); // not final: the stream ends with its own empty block
	bits.writeBits(2, 2); // dynamic Huffman
	bits.writeBits(hlit - 257, 5);
	bits.writeBits(distLengths.length - 1, 5);
	bits.writeBits(hclen - 4, 4);
	for (let i = 0; i < hclen; i++) bits.writeBits(clLengths[CL_ORDER[i]!]!, 3);
	for (const [s, extra, extraBits] of symbols) {
		bits.writeBits(clCodes[s]!, clLengths[s]!);
		if (extraBits) bits.writeBits(extra, extraBits);
	}
}

/** Packs bit fields LSB first into a growing byte buffer. */
class BitWriter {
	private out = new Uint8Array(1 << 16);
	private at = 0;
	private buffer = 0;
	private count = 0;

	writeBits(value: number, n: number): void {
		this.buffer |= value << this.count;
		this.count += n;
		while (this.count >= 8) {
			if (this.at === this.out.length) this.grow();
			this.out[this.at++] = this.buffer & 255;
			this.buffer >>>= 8;
			this.count -= 8;
		}
	}

	state(): { buffer: number; count: number } {
		return { buffer: this.buffer, count: this.count };
	}

	position(): number {
		return this.at;
	}

	/** The output buffer, grown so that at least `room` more bytes fit after the position. */
	reserve(room: number): Uint8Array {
		while (this.out.length - this.at < room) this.grow();
		return this.out;
	}

	/** Takes back state advanced by a caller that wrote into the buffer directly. */
	commit(at: number, buffer: number, count: number): void {
		this.at = at;
		this.buffer = buffer;
		this.count = count;
	}

	alignToByte(): void {
		if (this.count > 0) this.writeBits(0, 8 - this.count);
	}

	/** The whole bytes written since the last take; a partial byte stays for the next. */
	take(): Uint8Array {
		const done = this.out.slice(0, this.at);
		this.at = 0;
		return done;
	}

	private grow(): void {
		const bigger = new Uint8Array(this.out.length * 2);
		bigger.set(this.out);
		this.out = bigger;
	}
}

/** The zlib stream's checksum (RFC 1950): two sums modulo 65521, updated by `countBytes` in bulk. */
class Adler32 {
	a = 1;
	b = 0;

	update(data: Uint8Array): void {
		// In locals, reduced every 3800 bytes: the most before b could pass 2^31, so that the sums
		// stay 32-bit integers (zlib's 5552 would make V8 fall back on doubles).
		let a = this.a;
		let b = this.b;
		for (let start = 0; start < data.length; start += 3800) {
			const end = Math.min(data.length, start + 3800);
			for (let i = start; i < end; i++) {
				a += data[i]!;
				b += a;
			}
			a %= 65521;
			b %= 65521;
		}
		this.a = a;
		this.b = b;
	}

	value(): number {
		return ((this.b << 16) | this.a) >>> 0;
	}
}
