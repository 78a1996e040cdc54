import { RequestError } from "./errors";
import type { StringSink } from "./json-object-stream";

const NOT_BASE64 = "imageBase64 is not valid base64";

// Classes of a raw byte met inside the JSON string; 0..63 are base64 digit values.
const SPACE = 64; // a raw space: tolerated anywhere
const PAD = 65; // "="
const STOP = 66; // '"', '\' or a control character: the JSON reader handles it
const INVALID = 67;

/** Byte class for every byte value. Standard and URL-safe alphabets are both accepted. */
const BYTE_CLASS = (() => {
	const table = new Uint8Array(256).fill(INVALID);
	const digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	for (let value = 0; value < 64; value++) table[digits.charCodeAt(value)] = value;
	table[0x2d] = 62; // "-" (URL-safe "+")
	table[0x5f] = 63; // "_" (URL-safe "/")
	table[0x20] = SPACE;
	table[0x3d] = PAD;
	for (let control = 0; control < 0x20; control++) table[control] = STOP;
	table[0x22] = STOP;
	table[0x5c] = STOP;
	return table;
})();

/** Characters that JSON escapes can carry and that count as whitespace inside base64 (\t \n \f \r and space). */
function isEscapedWhitespace(codeUnit: number): boolean {
	return codeUnit === 0x20 || codeUnit === 0x09 || codeUnit === 0x0a || codeUnit === 0x0c || codeUnit === 0x0d;
}

const GROWTH_START = 64 * 1024;
const GROWTH_JUMP = 4 * 1024 * 1024;

/**
 * The one buffer decoded bytes land in. Reused when a body repeats `imageBase64`, so that
 * duplicates never cost a second buffer. Pre-sized when the body's length is known.
 */
export class DecodedBytes {
	private buffer = new Uint8Array(0);
	length = 0;

	/**
	 * @param limit  more decoded bytes than this: 413
	 * @param expected  bytes the image can decode to at most, when the body length is known
	 */
	constructor(
		private readonly limit: number,
		private readonly expected: number | null,
	) {}

	reset(): void {
		this.length = 0;
	}

	/** Makes room for `count` more bytes, or throws 413 if they would pass the limit. */
	reserve(count: number): Uint8Array {
		if (this.length + count > this.limit) {
			throw new RequestError(413, `The image is larger than ${this.limit} bytes once decoded`);
		}
		return this.room(count);
	}

	/** Makes room for up to `count` more bytes, as far as the limit allows, and never throws. */
	room(count: number): Uint8Array {
		const needed = Math.min(this.limit, this.length + count);
		if (needed <= this.buffer.length) return this.buffer;
		const grown = new Uint8Array(Math.min(this.limit, Math.max(this.nextCapacity(), needed)));
		grown.set(this.buffer.subarray(0, this.length));
		this.buffer = grown;
		return grown;
	}

	/**
	 * The body's length bounds the image: one allocation. Without it, capacity doubles up to
	 * 4 MiB and then goes straight to the limit, because every outgrown buffer lingers until the
	 * garbage collector runs: doubling all the way to 20 MB peaks at about 2.5 times the image.
	 */
	private nextCapacity(): number {
		if (this.buffer.length === 0) return this.expected ?? GROWTH_START;
		return this.buffer.length < GROWTH_JUMP ? this.buffer.length * 2 : this.limit;
	}

	/** The decoded bytes: a view of the buffer, not a copy. */
	view(): Uint8Array {
		return this.buffer.subarray(0, this.length);
	}
}

const DATA_URL_SCHEME = "data:";
const DATA_URL_HEADER_MAX = 256;

type Phase = "scheme" | "header" | "digits";

/**
 * Decodes the JSON string value of `imageBase64` as it streams in, into `DecodedBytes`.
 * Accepts raw base64 or a `data:<type>;base64,` URL, with or without padding, with whitespace
 * anywhere and in either alphabet. `end()` returns the decoded bytes.
 */
export class Base64Sink implements StringSink {
	private phase: Phase = "scheme";
	/** Characters of "data:" matched so far, or the data URL's header after the scheme. */
	private pending = "";
	/** Bits of the current 4-digit quantum, and how many digits it holds. */
	private bits = 0;
	private digits = 0;
	private padding = 0;

	constructor(private readonly output: DecodedBytes) {
		output.reset();
	}

	take(chunk: Uint8Array, start: number, end: number): number {
		let at = start;
		while (this.phase !== "digits" && at < end) {
			const byte = chunk[at] as number;
			if (BYTE_CLASS[byte] === STOP) return at;
			this.character(byte);
			at++;
		}
		return this.takeDigits(chunk, at, end);
	}

	escaped(codeUnit: number): void {
		this.character(codeUnit);
	}

	end(): Uint8Array {
		if (this.phase === "header") throw new RequestError(400, NOT_BASE64);
		if (this.phase === "scheme") this.flushScheme();
		if (this.digits === 1) throw new RequestError(400, NOT_BASE64);
		if (this.digits > 1) {
			const tail = this.digits - 1; // 2 digits give 1 byte, 3 give 2
			const buffer = this.output.reserve(tail);
			const bits = this.bits << (6 * (4 - this.digits));
			buffer[this.output.length] = bits >> 16;
			if (tail === 2) buffer[this.output.length + 1] = (bits >> 8) & 0xff;
			this.output.length += tail;
		}
		return this.output.view();
	}

	/** Raw bytes of the base64 digits, until a byte the JSON reader must see. */
	private takeDigits(chunk: Uint8Array, start: number, end: number): number {
		let at = start;
		while (at < end) {
			if (this.digits === 0 && this.padding === 0) {
				at = this.takeQuanta(chunk, at, end);
				if (at === end) break;
			}
			// A byte the fast path left: a space, padding, a stop, or a quantum cut by one of them.
			const value = BYTE_CLASS[chunk[at] as number] as number;
			if (value === STOP) break;
			this.step(value);
			at++;
		}
		return at;
	}

	/**
	 * The hot loop: whole quanta of four plain digits (the bulk of any image), decoded straight
	 * into the buffer. Returns where it stopped: anything else goes byte by byte through `step`.
	 */
	private takeQuanta(chunk: Uint8Array, start: number, end: number): number {
		const buffer = this.output.room(((end - start) >> 2) * 3);
		let length = this.output.length;
		let at = start;
		while (at + 4 <= end && length + 3 <= buffer.length) {
			const a = BYTE_CLASS[chunk[at] as number] as number;
			const b = BYTE_CLASS[chunk[at + 1] as number] as number;
			const c = BYTE_CLASS[chunk[at + 2] as number] as number;
			const d = BYTE_CLASS[chunk[at + 3] as number] as number;
			if ((a | b | c | d) >= 64) break; // classes are below 128: some byte is not a digit
			const bits = (a << 18) | (b << 12) | (c << 6) | d;
			buffer[length] = bits >> 16;
			buffer[length + 1] = (bits >> 8) & 0xff;
			buffer[length + 2] = bits & 0xff;
			length += 3;
			at += 4;
		}
		this.output.length = length;
		return at;
	}

	/** One digit, space or padding character, by its class. */
	private step(value: number): void {
		if (value < 64) {
			if (this.padding !== 0) throw new RequestError(400, NOT_BASE64);
			this.bits = (this.bits << 6) | value;
			if (++this.digits === 4) {
				this.emit(this.bits);
				this.bits = 0;
				this.digits = 0;
			}
		} else if (value === PAD) {
			this.pad();
		} else if (value !== SPACE) {
			throw new RequestError(400, NOT_BASE64);
		}
	}

	/** One character through the slow path: the data URL prefix, or a digit that came as a JSON escape. */
	private character(codeUnit: number): void {
		if (this.phase === "digits") {
			this.escapedDigit(codeUnit);
			return;
		}
		if (this.phase === "header") {
			if (codeUnit !== 0x2c) {
				if (this.pending.length >= DATA_URL_HEADER_MAX) throw new RequestError(400, NOT_BASE64);
				this.pending += String.fromCharCode(codeUnit);
				return;
			}
			if (!this.pending.toLowerCase().endsWith(";base64")) {
				throw new RequestError(400, "imageBase64 is a data URL without ;base64");
			}
			this.phase = "digits";
			return;
		}
		// Scheme phase: leading whitespace skipped, then "data:" matched case-insensitively.
		if (this.pending.length === 0 && isEscapedWhitespace(codeUnit)) return;
		const lowerCase = codeUnit >= 0x41 && codeUnit <= 0x5a ? codeUnit | 0x20 : codeUnit;
		if (lowerCase === DATA_URL_SCHEME.charCodeAt(this.pending.length)) {
			this.pending += String.fromCharCode(codeUnit);
			if (this.pending.length === DATA_URL_SCHEME.length) {
				this.phase = "header";
				this.pending = "";
			}
			return;
		}
		this.flushScheme();
		this.escapedDigit(codeUnit);
	}

	/** What looked like the start of "data:" was base64 after all ("data" are base64 digits). */
	private flushScheme(): void {
		const matched = this.pending;
		this.phase = "digits";
		this.pending = "";
		for (let index = 0; index < matched.length; index++) this.escapedDigit(matched.charCodeAt(index));
	}

	private escapedDigit(codeUnit: number): void {
		if (isEscapedWhitespace(codeUnit)) return;
		// Escaped, '"', '\' and control characters are content, not stops: none is base64.
		const value = codeUnit < 128 ? (BYTE_CLASS[codeUnit] as number) : INVALID;
		this.step(value === STOP ? INVALID : value);
	}

	/** Writes the 3 bytes of a full quantum. */
	private emit(bits: number): void {
		const buffer = this.output.reserve(3);
		const length = this.output.length;
		buffer[length] = bits >> 16;
		buffer[length + 1] = (bits >> 8) & 0xff;
		buffer[length + 2] = bits & 0xff;
		this.output.length = length + 3;
	}

	/** "=" ends the data: allowed after 2 or 3 digits of a quantum, at most up to 4 characters. */
	private pad(): void {
		if (this.digits < 2 || this.digits + this.padding >= 4) throw new RequestError(400, NOT_BASE64);
		this.padding++;
	}
}
