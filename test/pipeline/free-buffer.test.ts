import { describe, expect, it } from "vitest";
import { freeBuffer } from "../../src/pipeline/free-buffer";

describe("freeBuffer", () => {
	it("gives back the memory of a view over its whole buffer: the view reads as empty", () => {
		const pixels = new Uint8Array(1 << 20).fill(7);
		freeBuffer(pixels);
		expect(pixels.buffer.byteLength).toBe(0);
		expect(pixels.length).toBe(0);
	});

	it("leaves alone a view over part of a buffer, which others may still read", () => {
		const whole = new Uint8Array(64).fill(7);
		const part = whole.subarray(8, 16);
		freeBuffer(part);
		expect(whole.length).toBe(64);
		expect(part[0]).toBe(7);
	});
});
