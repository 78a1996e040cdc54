import { RequestError } from "./errors";

/**
 * Receives one JSON string's content as it streams in. JSON escapes arrive decoded through
 * `escaped`; everything else arrives as raw UTF-8 bytes through `take`.
 */
export interface StringSink {
	/**
	 * Consumes plain string content from `start` and returns the index of the first byte left
	 * for the reader: a '"', a '\', a control character, or `end`.
	 */
	take(chunk: Uint8Array, start: number, end: number): number;
	/** One UTF-16 code unit written as a JSON escape (`\n`, `\/`, `\u002F`...). */
	escaped(codeUnit: number): void;
	/** The closing quote arrived: the value to report for the member. */
	end(): unknown;
}

/**
 * What to do with the value of one member of the top-level object: `"skip"` it (read, validated
 * and forgotten), `"keep"` it (scalars as parsed, strings truncated, containers as an empty
 * placeholder of the same type), or hand a string value to a custom sink.
 */
export type MemberPolicy = "skip" | "keep" | StringSink;

export interface MemberHandler {
	/** Asked once the member's key is read (duplicates are asked again: the last one wins). */
	policy(key: string): MemberPolicy;
	/** A kept member's value. A custom sink's `end()` result for strings; the value as is otherwise. */
	member(key: string, value: unknown): void;
}

export const MAX_DEPTH = 64;
/** Longer keys cannot name a field; they are truncated here and so never match one. */
const KEY_MAX = 256;
/** Digits kept of a number: numbers are never valid field values, only their type matters. */
const NUMBER_TEXT_MAX = 64;

const notJson = (detail: string) => new RequestError(400, `The request body is not valid JSON: ${detail}`);

/**
 * Collects a string's text up to a number of UTF-16 code units and drops the rest, while still
 * checking that all of it is valid UTF-8. A limit of 0 validates and keeps nothing.
 */
export class TextSink implements StringSink {
	// One decoder for all strings: they never overlap, and `decode()` without arguments resets it.
	private readonly decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
	private text = "";
	private limit = 0;

	reset(limit: number): this {
		this.text = "";
		this.limit = limit;
		return this;
	}

	take(chunk: Uint8Array, start: number, end: number): number {
		let at = start;
		while (at < end) {
			const byte = chunk[at] as number;
			if (byte === 0x22 || byte === 0x5c || byte < 0x20) break;
			at++;
		}
		if (at > start) this.append(this.decode(chunk.subarray(start, at)));
		return at;
	}

	escaped(codeUnit: number): void {
		this.append(this.decode());
		this.append(String.fromCharCode(codeUnit));
	}

	end(): string {
		this.append(this.decode());
		return this.text;
	}

	/** Without bytes: flushes, so that a UTF-8 sequence cut by an escape or the closing quote fails. */
	private decode(bytes?: Uint8Array): string {
		try {
			return bytes ? this.decoder.decode(bytes, { stream: true }) : this.decoder.decode();
		} catch {
			throw new RequestError(400, "The request body is not valid UTF-8");
		}
	}

	private append(piece: string): void {
		const room = this.limit - this.text.length;
		if (room > 0 && piece.length > 0) this.text += piece.length > room ? piece.slice(0, room) : piece;
	}
}

// Reader states.
const START = 0; // nothing but whitespace yet
const VALUE = 1; // a value is due (after ":" or "," in an array)
const FIRST_VALUE_OR_END = 2; // after "["
const FIRST_KEY_OR_END = 3; // after "{"
const KEY = 4; // after "," in an object
const COLON = 5;
const AFTER_VALUE = 6; // "," or a closing bracket is due
const STRING = 7;
const ESCAPE = 8; // after "\" in a string
const UNICODE = 9; // inside the 4 hex digits of "\u"
const NUMBER = 10;
const LITERAL = 11; // inside true, false or null
const DONE = 12; // the top-level object is closed

// What the string being read is.
const TOP_KEY = 0;
const NESTED_KEY = 1;
const TOP_VALUE = 2;
const NESTED_VALUE = 3;

// Positions in a number's grammar; the ones marked "complete" may end it.
const N_MINUS = 0;
const N_ZERO = 1; // complete
const N_INTEGER = 2; // complete
const N_POINT = 3;
const N_FRACTION = 4; // complete
const N_E = 5;
const N_E_SIGN = 6;
const N_EXPONENT = 7; // complete
const NUMBER_COMPLETE = new Set([N_ZERO, N_INTEGER, N_FRACTION, N_EXPONENT]);

/** "t", "f" and "n" start true, false and null. */
const LITERAL_STARTS = new Map([
	[0x74, "true"],
	[0x66, "false"],
	[0x6e, "null"],
]);

const OBJECT = 1;
const ARRAY = 2;

const ESCAPES: Record<number, number> = {
	34: 0x22, // \"
	92: 0x5c, // \\
	47: 0x2f, // \/
	98: 0x08, // \b
	102: 0x0c, // \f
	110: 0x0a, // \n
	114: 0x0d, // \r
	116: 0x09, // \t
};

function isWhitespace(byte: number): boolean {
	return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

function isDigit(byte: number): boolean {
	return byte >= 0x30 && byte <= 0x39;
}

function hexValue(byte: number): number {
	if (isDigit(byte)) return byte - 0x30;
	const lower = byte | 0x20;
	return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

function describe(byte: number): string {
	return byte > 0x20 && byte < 0x7f ? `"${String.fromCharCode(byte)}"` : `byte 0x${byte.toString(16).padStart(2, "0")}`;
}

/**
 * An incremental JSON reader for a body that must be one object. Bytes are pushed in chunks of
 * any size (a UTF-8 sequence, an escape or a number may be split anywhere). It keeps no more than
 * the current key, a kept field's bounded text and a stack of at most MAX_DEPTH container types;
 * it never recurses. Members of the top-level object go to the handler; nested content is
 * validated and forgotten.
 */
export class JsonObjectStream {
	private state = START;
	private offset = 0; // bytes consumed before the current chunk, for error positions
	private readonly containers = new Uint8Array(MAX_DEPTH + 1);
	private depth = 0;

	private key = "";
	private policy: MemberPolicy = "skip";

	private readonly text = new TextSink();
	private sink: StringSink = this.text;
	private stringRole = NESTED_VALUE;
	private unicode = 0;
	private unicodeDigits = 0;

	private numberState = N_MINUS;
	private numberText = "";
	private literal = "";
	private literalMatched = 0;

	/** @param keptTextMax  characters kept of a kept string; the rest is read and dropped */
	constructor(
		private readonly handler: MemberHandler,
		private readonly keptTextMax: number,
	) {}

	write(chunk: Uint8Array): void {
		const end = chunk.length;
		let at = 0;
		while (at < end) {
			const byte = chunk[at] as number;
			switch (this.state) {
				case STRING: {
					at = this.sink.take(chunk, at, end);
					if (at === end) break;
					const stop = chunk[at] as number;
					if (stop === 0x22) this.endString();
					else if (stop === 0x5c) this.state = ESCAPE;
					else throw notJson(`unescaped control character in a string at byte ${this.offset + at}`);
					at++;
					break;
				}
				case ESCAPE: {
					if (byte === 0x75) {
						this.unicode = 0;
						this.unicodeDigits = 0;
						this.state = UNICODE;
					} else {
						const codeUnit = ESCAPES[byte];
						if (codeUnit === undefined) throw notJson(`invalid escape at byte ${this.offset + at}`);
						this.sink.escaped(codeUnit);
						this.state = STRING;
					}
					at++;
					break;
				}
				case UNICODE: {
					const digit = hexValue(byte);
					if (digit < 0) throw notJson(`invalid \\u escape at byte ${this.offset + at}`);
					this.unicode = (this.unicode << 4) | digit;
					if (++this.unicodeDigits === 4) {
						this.sink.escaped(this.unicode);
						this.state = STRING;
					}
					at++;
					break;
				}
				case NUMBER:
					if (this.continueNumber(byte)) at++;
					else this.endNumber(at); // the byte after a number is read again in AFTER_VALUE
					break;
				case LITERAL:
					if (byte !== this.literal.charCodeAt(this.literalMatched)) throw this.unexpected(byte, at);
					if (++this.literalMatched === this.literal.length) this.endLiteral();
					at++;
					break;
				default:
					if (!isWhitespace(byte)) this.structural(byte, at);
					at++;
			}
		}
		this.offset += end;
	}

	/** The body ended: throws unless it held exactly one complete object. */
	end(): void {
		if (this.state === START) throw new RequestError(400, "The request body is empty");
		if (this.state !== DONE) throw notJson("it ends before the object is closed");
	}

	/** A byte outside strings, numbers and literals that is not whitespace. */
	private structural(byte: number, at: number): void {
		switch (this.state) {
			case START:
				if (byte !== 0x7b) {
					if (byte === 0x5b || byte === 0x22 || byte === 0x2d || isDigit(byte) || LITERAL_STARTS.has(byte)) {
						throw new RequestError(400, "The request body must be a JSON object");
					}
					throw this.unexpected(byte, at);
				}
				this.open(OBJECT, at);
				this.state = FIRST_KEY_OR_END;
				return;
			case FIRST_KEY_OR_END:
				if (byte === 0x7d) this.close(OBJECT, byte, at);
				else this.startKey(byte, at);
				return;
			case KEY:
				this.startKey(byte, at);
				return;
			case COLON:
				if (byte !== 0x3a) throw this.unexpected(byte, at);
				this.state = VALUE;
				return;
			case FIRST_VALUE_OR_END:
				if (byte === 0x5d) this.close(ARRAY, byte, at);
				else this.startValue(byte, at);
				return;
			case VALUE:
				this.startValue(byte, at);
				return;
			case AFTER_VALUE: {
				const container = this.containers[this.depth];
				if (byte === 0x2c) this.state = container === OBJECT ? KEY : VALUE;
				else if (byte === 0x7d) this.close(OBJECT, byte, at);
				else if (byte === 0x5d) this.close(ARRAY, byte, at);
				else throw this.unexpected(byte, at);
				return;
			}
			case DONE:
				throw notJson(`unexpected ${describe(byte)} after the object at byte ${this.offset + at}`);
		}
	}

	private startKey(byte: number, at: number): void {
		if (byte !== 0x22) throw this.unexpected(byte, at);
		const top = this.depth === 1;
		this.startString(top ? TOP_KEY : NESTED_KEY, this.text.reset(top ? KEY_MAX : 0));
	}

	/** Whether the value being read is a member of the top-level object that the handler keeps. */
	private keptMember(): boolean {
		return this.depth === 1 && this.policy !== "skip";
	}

	private startValue(byte: number, at: number): void {
		if (byte === 0x22) {
			if (!this.keptMember()) this.startString(NESTED_VALUE, this.text.reset(0));
			else if (this.policy === "keep") this.startString(TOP_VALUE, this.text.reset(this.keptTextMax));
			else this.startString(TOP_VALUE, this.policy as StringSink);
			return;
		}
		if (byte === 0x7b || byte === 0x5b) {
			const type = byte === 0x7b ? OBJECT : ARRAY;
			if (this.keptMember()) this.handler.member(this.key, type === OBJECT ? {} : []);
			this.open(type, at);
			this.state = type === OBJECT ? FIRST_KEY_OR_END : FIRST_VALUE_OR_END;
			return;
		}
		if (byte === 0x2d || isDigit(byte)) {
			this.numberState = byte === 0x2d ? N_MINUS : byte === 0x30 ? N_ZERO : N_INTEGER;
			this.numberText = String.fromCharCode(byte);
			this.state = NUMBER;
			return;
		}
		const literal = LITERAL_STARTS.get(byte);
		if (literal === undefined) throw this.unexpected(byte, at);
		this.literal = literal;
		this.literalMatched = 1;
		this.state = LITERAL;
	}

	private startString(role: number, sink: StringSink): void {
		this.stringRole = role;
		this.sink = sink;
		this.state = STRING;
	}

	private endString(): void {
		const value = this.sink.end();
		if (this.stringRole === TOP_KEY) {
			this.key = value as string;
			this.policy = this.handler.policy(this.key);
		}
		if (this.stringRole === TOP_VALUE) this.handler.member(this.key, value);
		this.state = this.stringRole === TOP_KEY || this.stringRole === NESTED_KEY ? COLON : AFTER_VALUE;
	}

	/** Advances the number's grammar by one byte; false when the byte is not part of it. */
	private continueNumber(byte: number): boolean {
		const digit = isDigit(byte);
		const exponent = byte === 0x65 || byte === 0x45;
		let next = -1;
		switch (this.numberState) {
			case N_MINUS:
				next = byte === 0x30 ? N_ZERO : digit ? N_INTEGER : -1;
				break;
			case N_ZERO:
			case N_INTEGER:
				if (digit && this.numberState === N_INTEGER) next = N_INTEGER;
				else if (byte === 0x2e) next = N_POINT;
				else if (exponent) next = N_E;
				else if (digit) throw notJson("a number has a leading zero");
				break;
			case N_POINT:
			case N_FRACTION:
				next = digit ? N_FRACTION : exponent && this.numberState === N_FRACTION ? N_E : -1;
				break;
			case N_E:
				next = digit ? N_EXPONENT : byte === 0x2b || byte === 0x2d ? N_E_SIGN : -1;
				break;
			case N_E_SIGN:
			case N_EXPONENT:
				next = digit ? N_EXPONENT : -1;
				break;
		}
		if (next < 0) return false;
		this.numberState = next;
		if (this.numberText.length < NUMBER_TEXT_MAX) this.numberText += String.fromCharCode(byte);
		return true;
	}

	private endNumber(at: number): void {
		if (!NUMBER_COMPLETE.has(this.numberState)) throw notJson(`incomplete number at byte ${this.offset + at}`);
		if (this.keptMember()) this.handler.member(this.key, Number(this.numberText));
		this.state = AFTER_VALUE;
	}

	private endLiteral(): void {
		if (this.keptMember()) {
			this.handler.member(this.key, this.literal === "null" ? null : this.literal === "true");
		}
		this.state = AFTER_VALUE;
	}

	private open(type: number, at: number): void {
		if (this.depth === MAX_DEPTH) {
			throw new RequestError(
				400,
				`The request body is nested deeper than ${MAX_DEPTH} levels (byte ${this.offset + at})`,
			);
		}
		this.containers[++this.depth] = type;
	}

	private close(type: number, byte: number, at: number): void {
		if (this.containers[this.depth] !== type) throw this.unexpected(byte, at);
		this.depth--;
		this.state = this.depth === 0 ? DONE : AFTER_VALUE;
	}

	private unexpected(byte: number, at: number): RequestError {
		return notJson(`unexpected ${describe(byte)} at byte ${this.offset + at}`);
	}
}
