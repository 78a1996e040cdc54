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

/**
 * Whole quanta are decoded here, then copied into the image's buffer in one go: writing byte by byte
 * into a resizable buffer took half as long again in workerd. Shared: decodes never interleave.
 */
const SCRATCH = new Uint8Array(48 * 1024);

/** The buffer grows in steps of this much at least: few resizes, at most this much unused. */
const GROWTH_STEP = 256 * 1024;

/**
 * The one buffer decoded bytes land in: a resizable ArrayBuffer that grows in place with what
 * arrives, never with what Content-Length promises (a client that declares 28 MB and stalls after
 * 4 KB holds 256 KB), and never copies itself to grow (no outgrown buffers left for the collector).
 * Reused when a body repeats `imageBase64`, so that duplicates never cost a second buffer.
 */
export class DecodedBytes {
	private readonly buffer: ArrayBuffer;
	/** The whole buffer, made anew at each resize: a fixed-length view writes faster than a tracking one. */
	private bytes: Uint8Array;
	length = 0;

	/** @param limit  more decoded bytes than this: 413 */
	constructor(private readonly limit: number) {
		this.buffer = new ArrayBuffer(0, { maxByteLength: limit });
		this.bytes = new Uint8Array(this.buffer, 0, 0);
	}

	reset(): void {
		this.length = 0;
	}

	/** Makes room for `count` more bytes, or throws 413 if they would pass the limit. */
	reserve(count: number): Uint8Array {
		const needed = this.length + count;
		if (needed > this.limit) {
			throw new RequestError(413, `The image is larger than ${this.limit} bytes once decoded`);
		}
		if (needed > this.buffer.byteLength) {
			this.buffer.resize(Math.min(this.limit, Math.ceil(needed / GROWTH_STEP) * GROWTH_STEP));
			this.bytes = new Uint8Array(this.buffer, 0, this.buffer.byteLength);
		}
		return this.bytes;
	}

	/** Appends the first `count` bytes of `bytes`, or throws 413 if they would pass the limit. */
	append(bytes: Uint8Array, count: number): void {
		if (count === 0) return;
		this.reserve(count).set(bytes.subarray(0, count), this.length);
		this.length += count;
	}

	/** The decoded bytes, the buffer shrunk to them: a view, not a copy. */
	view(): Uint8Array {
		this.buffer.resize(this.length);
		this.bytes = new Uint8Array(this.buffer, 0, this.length);
		return this.bytes;
	}
}

const DATA_URL_SCHEME = "data:";
const DATA_URL_HEADER_MAX = 256;

type Phase = "scheme" | "header" | "digits";

/**
 * Decodes the JSON string value of `imageBase64` as it streams in, into `DecodedBytes`.
 * Accepts raw base64 or a `data:<type>;base64,` URL (its header in ASCII), with or without padding,
 * with whitespace anywhere and in either alphabet. `end()` returns the decoded bytes, or the
 * RequestError that refuses them: a body may repeat `imageBase64` and the last one wins, so a
 * refusal counts only if no later value replaces it (body.ts decides). After a refusal the rest of
 * the string is only checked as UTF-8, as any string of the body is.
 */
export class Base64Sink implements StringSink {
	private phase: Phase = "scheme";
	/** Characters of "data:" matched so far, or the data URL's header after the scheme. */
	private pending = "";
	/** Bits of the current 4-digit quantum, and how many digits it holds. */
	private bits = 0;
	private digits = 0;
	private padding = 0;
	private refusal: RequestError | null = null;

	/** @param rest  reads the string on after a refusal (a UTF-8 checking sink that keeps nothing) */
	constructor(
		private readonly output: DecodedBytes,
		private readonly rest: StringSink,
	) {
		output.reset();
	}

	take(chunk: Uint8Array, start: number, end: number): number {
		if (this.refusal) return this.rest.take(chunk, start, end);
		try {
			let at = start;
			while (this.phase !== "digits" && at < end) {
				const byte = chunk[at] as number;
				if (BYTE_CLASS[byte] === STOP) return at;
				this.character(byte);
				at++;
			}
			return this.takeDigits(chunk, at, end);
		} catch (error) {
			// The bytes before the refused one were ASCII: checking from `start` checks the rest.
			this.refuse(error);
			return this.rest.take(chunk, start, end);
		}
	}

	escaped(codeUnit: number): void {
		if (this.refusal) {
			this.rest.escaped(codeUnit);
			return;
		}
		try {
			this.character(codeUnit);
		} catch (error) {
			this.refuse(error);
			this.rest.escaped(codeUnit);
		}
	}

	end(): Uint8Array | RequestError {
		if (this.refusal) {
			this.rest.end();
			return this.refusal;
		}
		try {
			return this.decodedTail();
		} catch (error) {
			this.refuse(error);
			return error as RequestError;
		}
	}

	private refuse(error: unknown): void {
		if (!(error instanceof RequestError)) throw error;
		this.refusal = error;
	}

	private decodedTail(): Uint8Array {
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
		let at = start;
		let filled = 0;
		while (at + 4 <= end) {
			if (filled + 3 > SCRATCH.length) {
				this.output.append(SCRATCH, filled);
				filled = 0;
			}
			const a = BYTE_CLASS[chunk[at] as number] as number;
			const b = BYTE_CLASS[chunk[at + 1] as number] as number;
			const c = BYTE_CLASS[chunk[at + 2] as number] as number;
			const d = BYTE_CLASS[chunk[at + 3] as number] as number;
			if ((a | b | c | d) >= 64) break; // classes are below 128: some byte is not a digit
			const bits = (a << 18) | (b << 12) | (c << 6) | d;
			SCRATCH[filled] = bits >> 16;
			SCRATCH[filled + 1] = (bits >> 8) & 0xff;
			SCRATCH[filled + 2] = bits & 0xff;
			filled += 3;
			at += 4;
		}
		this.output.append(SCRATCH, filled);
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
				// A media type and its parameters are ASCII; a longer header is not one.
				if (codeUnit >= 0x80 || this.pending.length >= DATA_URL_HEADER_MAX) throw new RequestError(400, NOT_BASE64);
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
