import { describe, expect, it } from "vitest";
import { successBody } from "../../src/http/success-body";
import { concat } from "../support/png";

async function answer(pieces: Iterable<Uint8Array> | AsyncIterable<Uint8Array>) {
	const text = await new Response(successBody("rec_01ABC", pieces, 90)).text();
	return JSON.parse(text) as { success: boolean; recordId: string; resultImage: string; remainingCredit: number };
}

function decoded(resultImage: string): Uint8Array {
	const binary = atob(resultImage.replace("data:image/png;base64,", ""));
	return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** Bytes that differ from place to place, so that a piece out of order or repeated shows. */
function bytes(length: number, seed: number): Uint8Array {
	return Uint8Array.from({ length }, (_, i) => (i * 31 + seed * 7) % 256);
}

describe("the 200 body", () => {
	it("carries the file whole when its pieces are of any length, across the streamed slices", async () => {
		// Lengths not multiples of 3, an empty piece, and pieces larger than one 48 KiB slice.
		const pieces = [
			bytes(8, 1),
			bytes(25, 2),
			bytes(0, 3),
			bytes(70_001, 4),
			bytes(4, 5),
			bytes(49_153, 6),
			bytes(1, 7),
		];
		const body = await answer(pieces);
		expect(decoded(body.resultImage)).toEqual(concat(pieces));
		expect(body).toMatchObject({ success: true, recordId: "rec_01ABC", remainingCredit: 90 });
	});

	it("is valid with a file of one small piece", async () => {
		const body = await answer([new Uint8Array([0x89, 0x50, 0x4e, 0x47])]);
		expect(Array.from(decoded(body.resultImage))).toEqual([0x89, 0x50, 0x4e, 0x47]);
	});

	it("takes pieces produced lazily, as the stream pulls them", async () => {
		const produced: number[] = [];
		async function* lazily() {
			for (let i = 0; i < 3; i++) {
				produced.push(i);
				yield bytes(30_000, i);
			}
		}
		const stream = successBody("rec_01ABC", lazily(), 90);
		// Nothing is produced before the body is read.
		expect(produced).toEqual([]);
		const body = JSON.parse(await new Response(stream).text());
		expect(decoded(body.resultImage)).toEqual(concat([bytes(30_000, 0), bytes(30_000, 1), bytes(30_000, 2)]));
	});

	it("errors the stream when producing a piece fails, so the client sees a cut body", async () => {
		async function* failing() {
			yield bytes(60_000, 1);
			throw new Error("band failed");
		}
		await expect(new Response(successBody("rec_01ABC", failing(), 90)).text()).rejects.toThrow("band failed");
	});
});
