import { describe, expect, it } from "vitest";
import { MAX_BODY_BYTES, MAX_IMAGE_BYTES, readTranslateBody } from "../../src/request/body";
import { generatedStream, refusal } from "./streams";

const MB = 1024 * 1024;
const CHUNK = 64 * 1024; // generatedStream's chunk size

/** A body whose image is `bytes` zero bytes, as base64 ("AAAA" per 3 bytes, then the padded tail). */
function zeroImageBody(bytes: number) {
	const tail = ["", "AA==", "AAA="][bytes % 3];
	return generatedStream('{"imageBase64":"', "AAAA", Math.floor(bytes / 3) * 4, `${tail}","mode":"manga"}`);
}

describe("readTranslateBody: size limits", () => {
	it("refuses a declared length over the limit with 413 before reading a byte", async () => {
		const body = generatedStream('{"imageBase64":"', "AAAA", 30 * MB, '"}');
		const error = await refusal(readTranslateBody(body.stream, 30 * MB));
		expect([error.status, error.detail]).toEqual([413, `The request body is larger than ${MAX_BODY_BYTES} bytes`]);
		expect(body.pulled()).toBe(0);
		expect(body.stream.locked).toBe(false); // the rest is http/drain.ts's to read
	});

	it("accepts a declared length right at the limit", async () => {
		const body = zeroImageBody(3);
		await expect(readTranslateBody(body.stream, MAX_BODY_BYTES)).resolves.toMatchObject({ fields: { mode: "manga" } });
	});

	it("stops reading an undeclared 30 MB body at the limit with 413, and leaves the rest unread", async () => {
		// An unknown field, so that only the body's size can stop it.
		const body = generatedStream('{"padding":"', "x", 30 * MB, '"}');
		const error = await refusal(readTranslateBody(body.stream, null));
		expect([error.status, error.detail]).toEqual([413, `The request body is larger than ${MAX_BODY_BYTES} bytes`]);
		expect(body.pulled()).toBeGreaterThan(MAX_BODY_BYTES);
		expect(body.pulled()).toBeLessThanOrEqual(MAX_BODY_BYTES + CHUNK);
		expect(body.stream.locked).toBe(false); // the rest is http/drain.ts's to read
	});

	it("accepts an image of exactly 20 MB", async () => {
		const body = zeroImageBody(MAX_IMAGE_BYTES);
		const result = await readTranslateBody(body.stream, null);
		expect(result.image.kind === "bytes" && result.image.bytes.length).toBe(MAX_IMAGE_BYTES);
		expect(result.fields).toEqual({ mode: "manga" });
	});

	it("refuses an image one byte over 20 MB with 413", async () => {
		const body = zeroImageBody(MAX_IMAGE_BYTES + 1);
		const error = await refusal(readTranslateBody(body.stream, null));
		expect([error.status, error.detail]).toEqual([
			413,
			`The image is larger than ${MAX_IMAGE_BYTES} bytes once decoded`,
		]);
	});

	it("lets a later imageBase64 replace one over 20 MB, as JSON.parse would", async () => {
		const tail = ["", "AA==", "AAA="][(MAX_IMAGE_BYTES + 1) % 3];
		const oversized = generatedStream(
			'{"imageBase64":"',
			"AAAA",
			Math.floor((MAX_IMAGE_BYTES + 1) / 3) * 4,
			`${tail}","imageBase64":"aGVsbG8="}`,
		);
		const result = await readTranslateBody(oversized.stream, null);
		expect(result.image).toEqual({ kind: "bytes", bytes: new TextEncoder().encode("hello") });
	});
});
