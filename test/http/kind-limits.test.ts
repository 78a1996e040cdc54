import { beforeAll, describe, expect, it } from "vitest";
import { decodeRows } from "../../src/pipeline/decode";
import type { Pipeline } from "../../src/pipeline/run";
import { exifSegment, zeroJpeg } from "../pipeline/hostile/jpeg";
import { riff, chunk as riffChunk, solidVp8l } from "../pipeline/hostile/webp";
import { interlacedGreyPng, toBase64 } from "../support/png";
import { service } from "../support/service";

/**
 * DESIGN "Limits": kinds whose decoding holds more a pixel than a few rows have lower pixel limits,
 * so that every accepted file's whole call stays within its memory. A file just over its kind's
 * limit is refused with 413 before acceptance, the detail stating that limit, nothing charged; one
 * just under is accepted, decoded to its last row and charged.
 */
const decodedRows: number[] = [];
const decodingPipeline: Pipeline = async (job) => {
	let rows = 0;
	decodeRows(job.image, {
		rows(_, count) {
			rows += count;
		},
	});
	decodedRows.push(rows);
	return { png: [new Uint8Array([0x89, 0x50, 0x4e, 0x47])], overflow: [] };
};
const yakusu = service(decodingPipeline);
let customer: Awaited<ReturnType<typeof yakusu.customer>>;

beforeAll(async () => {
	customer = await yakusu.customer("enterprise", 1000);
});

/** Each kind, the limit its 413 states (megapixels), and a valid file of it, `width` x `height` as displayed. */
const KINDS: [string, number, (width: number, height: number) => Uint8Array][] = [
	[
		"a progressive JPEG turned by its EXIF orientation",
		9.8,
		(w, h) => zeroJpeg(0xc2, h, w, [0x22, 0x11, 0x11], [[1, 2, 3]], exifSegment(6)),
	],
	["a CMYK or lossless JPEG", 0.9, (w, h) => zeroJpeg(0xc0, w, h, [0x11, 0x11, 0x11, 0x11], [[1, 2, 3, 4]])],
	["a lossless WebP", 3.1, (w, h) => riff([riffChunk("VP8L", solidVp8l(w, h))])],
	["an interlaced PNG", 3.1, interlacedGreyPng],
];

/**
 * JPEGs whose coefficients come over several scans (decoded an MCU row at a time) and sequential
 * JPEGs turned by their EXIF orientation (a window of displayed rows at a time): 25 MP like the rest.
 */
const MULTI_SCAN: [string, (width: number, height: number) => Uint8Array][] = [
	[
		"a JPEG turned a quarter by its EXIF orientation",
		(w, h) => zeroJpeg(0xc0, h, w, [0x22, 0x11, 0x11], [[1, 2, 3]], exifSegment(6)),
	],
	[
		"a JPEG turned a half by its EXIF orientation",
		(w, h) => zeroJpeg(0xc0, w, h, [0x22, 0x11, 0x11], [[1, 2, 3]], exifSegment(3)),
	],
	["a progressive grey JPEG", (w, h) => zeroJpeg(0xc2, w, h, [0x11], [[1]])],
	["a progressive 4:2:0 JPEG", (w, h) => zeroJpeg(0xc2, w, h, [0x22, 0x11, 0x11], [[1, 2, 3]])],
	["a progressive 4:2:2 JPEG", (w, h) => zeroJpeg(0xc2, w, h, [0x21, 0x11, 0x11], [[1, 2, 3]])],
	["a progressive 4:4:4 JPEG", (w, h) => zeroJpeg(0xc2, w, h, [0x11, 0x11, 0x11], [[1, 2, 3]])],
	["a 4:4:4 JPEG with a scan per component", (w, h) => zeroJpeg(0xc0, w, h, [0x11, 0x11, 0x11], [[1], [2], [3]])],
];

const WIDTH = 2000;
/** Heights that put a file 6% over or under a limit of `megapixels`, whole MCU rows (no padding to price). */
const over = (megapixels: number) => Math.ceil((megapixels * 1.06e6) / WIDTH / 16) * 16;
const under = (megapixels: number) => Math.floor((megapixels * 0.94e6) / WIDTH / 16) * 16;

async function send(file: Uint8Array) {
	const before = await yakusu.balance(customer.accountId);
	const calls = decodedRows.length;
	const res = await yakusu.translate(customer.apiKey, {
		imageBase64: toBase64(file),
		sourceLanguage: "ja",
		targetLanguage: "en",
	});
	const body = await res.json<{ detail?: string }>();
	return {
		status: res.status,
		detail: body.detail,
		charged: before - (await yakusu.balance(customer.accountId)),
		decoded: decodedRows.slice(calls),
	};
}

describe("kinds that take more memory to decode: their own limit", () => {
	it.each(KINDS)(
		"%s (limit %s MP): just over it, 413 stating the limit, nothing charged",
		async (kind, limit, make) => {
			const height = over(limit);
			const answer = await send(make(WIDTH, height));
			expect(answer.status).toBe(413);
			const size = `Image is ${WIDTH}x${height} (${((WIDTH * height) / 1e6).toFixed(1)} megapixels)`;
			expect(answer.detail).toBe(
				`${size}; the limit is ${limit.toFixed(1)} megapixels for ${kind}, which takes more memory to decode (25 megapixels for other images)`,
			);
			expect(answer.charged).toBe(0);
			expect(answer.decoded).toEqual([]);
		},
	);

	it.each(KINDS)("%s (limit %s MP): just under it, decoded to its last row and charged", async (_, limit, make) => {
		const height = under(limit);
		const answer = await send(make(WIDTH, height));
		expect(answer.status).toBe(200);
		expect(answer.decoded).toEqual([height]);
		expect(answer.charged).toBe(10);
	});
});

describe("multi-scan and turned JPEGs: the 25 megapixels of other images", () => {
	it.each(MULTI_SCAN)("%s of 25 MP is decoded to its last row and charged", async (_, make) => {
		const answer = await send(make(5000, 5000));
		expect(answer.status).toBe(200);
		expect(answer.decoded).toEqual([5000]);
		expect(answer.charged).toBe(10);
	});

	it.each(MULTI_SCAN)("%s over 25 MP is refused with 413, nothing charged", async (_, make) => {
		const answer = await send(make(5008, 5008));
		expect(answer.status).toBe(413);
		expect(answer.detail).toBe("Image is 5008x5008 (25.1 megapixels); the limit is 25 megapixels");
		expect(answer.charged).toBe(0);
	});

	it("a photo turned a quarter by its EXIF orientation over 25 MP: the 413 states its size as displayed", async () => {
		// Stored 6000 wide and 4208 high, as a phone held upright writes it; shown 4208 x 6000.
		const answer = await send(zeroJpeg(0xc0, 6000, 4208, [0x22, 0x11, 0x11], [[1, 2, 3]], exifSegment(6)));
		expect(answer.status).toBe(413);
		expect(answer.detail).toBe("Image is 4208x6000 (25.2 megapixels); the limit is 25 megapixels");
		expect(answer.charged).toBe(0);
	});
});
