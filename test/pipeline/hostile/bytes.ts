/** Small writers for crafting files byte by byte and bit by bit. */
import { concat } from "../../support/png";

/** Pieces of a file, as bytes or lists of byte values, one after another. */
export function join(parts: (Uint8Array | number[])[]): Uint8Array {
	return concat(parts.map((p) => (p instanceof Uint8Array ? p : Uint8Array.from(p))));
}

export function ascii(text: string): number[] {
	return [...text].map((c) => c.charCodeAt(0));
}

export const u16be = (v: number) => [(v >> 8) & 255, v & 255];
export const u16le = (v: number) => [v & 255, (v >> 8) & 255];
export const u24le = (v: number) => [v & 255, (v >> 8) & 255, (v >> 16) & 255];
export const u32le = (v: number) => [v & 255, (v >> 8) & 255, (v >> 16) & 255, (v >>> 24) & 255];
export const u32be = (v: number) => [(v >>> 24) & 255, (v >> 16) & 255, (v >> 8) & 255, v & 255];

/** Bits least significant first, as deflate, GIF's LZW and VP8L read them. */
export class LsbBits {
	private readonly bytes: number[] = [];
	private bit = 0;

	write(value: number, count: number): this {
		for (let i = 0; i < count; i++) {
			if (this.bit === 0) this.bytes.push(0);
			if ((value >>> i) & 1) this.bytes[this.bytes.length - 1]! |= 1 << this.bit;
			this.bit = (this.bit + 1) & 7;
		}
		return this;
	}

	/** A prefix code's `length`-bit code, sent first bit first (most significant first). */
	code(code: number, length: number): this {
		for (let i = length - 1; i >= 0; i--) this.write((code >> i) & 1, 1);
		return this;
	}

	done(): Uint8Array {
		return Uint8Array.from(this.bytes);
	}
}
