import { describe, expect, it } from "vitest";
import { base64Bytes } from "../../src/http/base64-encode";

/** The runtime's own base64 of `bytes`, as ASCII. */
function reference(bytes: Uint8Array): string {
	let binary = "";
	for (const byte of bytes) binary += String.fromCharCode(byte);
	return btoa(binary);
}

describe("the body's base64", () => {
	it("is the runtime's btoa for every tail length, padding included", () => {
		for (let length = 0; length <= 7; length++) {
			const bytes = Uint8Array.from({ length }, (_, i) => 250 - i * 37);
			expect(new TextDecoder().decode(base64Bytes(bytes))).toBe(reference(bytes));
		}
	});

	it("is the runtime's btoa for every byte value in every position of a group", () => {
		const bytes = Uint8Array.from({ length: 256 * 3 + 2 }, (_, i) => (i * 97 + (i >> 8)) & 255);
		expect(new TextDecoder().decode(base64Bytes(bytes))).toBe(reference(bytes));
	});

	it("encodes a view into a larger buffer from its own start", () => {
		const buffer = Uint8Array.from({ length: 64 }, (_, i) => i * 5);
		const view = buffer.subarray(7, 40);
		expect(new TextDecoder().decode(base64Bytes(view))).toBe(reference(view));
	});
});
