import { describe, expect, it } from "vitest";
import { type Delivery, primed, successBody } from "../../src/http/success-body";
import { concat } from "../support/png";

/** Remembers how the body said its end went. */
function listener() {
	const heard: string[] = [];
	const delivery: Delivery = {
		delivered: () => heard.push("delivered"),
		undelivered: (reason) => heard.push(`undelivered: ${reason}`),
	};
	return { heard, delivery };
}

async function answer(pieces: Iterable<Uint8Array> | AsyncIterable<Uint8Array>) {
	const text = await new Response(successBody("rec_01ABC", 90, pieces, listener().delivery)).text();
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
		const stream = successBody("rec_01ABC", 90, lazily(), listener().delivery);
		// Nothing is produced before the body is read.
		expect(produced).toEqual([]);
		const body = JSON.parse(await new Response(stream).text());
		expect(decoded(body.resultImage)).toEqual(concat([bytes(30_000, 0), bytes(30_000, 1), bytes(30_000, 2)]));
	});

	it("puts remainingCredit before the image, so the charge is known before the image streams", async () => {
		const text = await new Response(successBody("rec_01ABC", 90, [bytes(10, 1)], listener().delivery)).text();
		expect(text.indexOf('"remainingCredit":90')).toBeLessThan(text.indexOf('"resultImage"'));
	});

	it("tells once that the body was delivered, after its last byte", async () => {
		const { heard, delivery } = listener();
		const stream = successBody("rec_01ABC", 90, [bytes(100_000, 1)], delivery);
		const reader = stream.getReader();
		await reader.read();
		expect(heard).toEqual([]);
		while (!(await reader.read()).done);
		expect(heard).toEqual(["delivered"]);
	});

	it("errors the stream when producing a piece fails, so the client sees a cut body, and tells it undelivered", async () => {
		async function* failing() {
			yield bytes(60_000, 1);
			throw new Error("band failed");
		}
		const { heard, delivery } = listener();
		await expect(new Response(successBody("rec_01ABC", 90, failing(), delivery)).text()).rejects.toThrow("band failed");
		expect(heard).toEqual(["undelivered: The image failed while it streamed to the client"]);
	});

	it("tells undelivered when the client goes away, and stops producing pieces", async () => {
		let stopped = false;
		async function* endless() {
			try {
				for (let i = 0; ; i++) yield bytes(60_000, i);
			} finally {
				stopped = true;
			}
		}
		const { heard, delivery } = listener();
		const reader = successBody("rec_01ABC", 90, endless(), delivery).getReader();
		await reader.read();
		await reader.read();
		await reader.cancel();
		expect(heard).toEqual(["undelivered: The client disconnected before it had the whole image"]);
		expect(stopped).toBe(true);
	});
});

describe("priming the image", () => {
	it("produces the first piece at once and replays it before the rest", async () => {
		const produced: number[] = [];
		async function* lazily() {
			for (let i = 0; i < 3; i++) {
				produced.push(i);
				yield bytes(10, i);
			}
		}
		const pieces = await primed(lazily());
		expect(produced).toEqual([0]);
		const all: Uint8Array[] = [];
		for await (const piece of pieces) all.push(piece);
		expect(concat(all)).toEqual(concat([bytes(10, 0), bytes(10, 1), bytes(10, 2)]));
	});

	it("fails when the first piece fails, before anything could be committed", async () => {
		const broken: AsyncIterable<Uint8Array> = {
			[Symbol.asyncIterator]: () => ({
				next: async () => {
					throw new Error("first band failed");
				},
			}),
		};
		await expect(primed(broken)).rejects.toThrow("first band failed");
	});
});
