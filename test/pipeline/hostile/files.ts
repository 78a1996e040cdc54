/**
 * Crafted files for every class of issue 11 (hostile files) and of issue 13 item 5 (broken
 * containers), built by code rather than stored: a few are 20 MB. Each says what the service must
 * do with it:
 *   refused    422 on imageBase64 from the probe, before the call is accepted (nothing reserved);
 *   too-large  413 from the probe, for its size or the memory its kind needs;
 *   fails      accepted, then refused by the decoder with 422 within its work budget (refunded);
 *   decodes    decoded, within the budget its pixels give.
 * The fuzz harness (fuzz/targets/image-decode.ts) runs them all; test/pipeline/hostile.test.ts and
 * test/http/hostile-files.test.ts hold the service to the verdicts.
 */
import { RleDeflater } from "../../../src/pipeline/pixels/deflate";
import { chunk as pngChunk, zlibStored } from "../../support/png";
import * as images from "../fixtures/images";
import { ascii, join, LsbBits, u16le, u32be } from "./bytes";
import { DHT, DHT_DC, DQT, EOI, greyBlocks, jpeg, SOI, segment, sof, sos, zeros } from "./jpeg";
import { chunk, constantGroup, flat256, riff, solidVp8l, vp8lHeader, vp8x } from "./webp";

export type Verdict = "refused" | "too-large" | "fails" | "decodes";

export interface HostileFile {
	name: string;
	verdict: Verdict;
	/** Built on demand: some take a moment and 20 MB. */
	bytes(): Uint8Array;
}

const MAX_FILE = 20 * 1024 * 1024;

// --- PNG ---------------------------------------------------------------------------------------

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function ihdr(width: number, height: number, depth = 8, colour = 6, interlace = 0): Uint8Array {
	return pngChunk("IHDR", join([u32be(width), u32be(height), [depth, colour, 0, 0, interlace]]));
}

const iend = () => pngChunk("IEND", new Uint8Array());
const idat = (data: Uint8Array) => pngChunk("IDAT", data);
/** One transparent black RGBA pixel, as its filtered row. */
const onePixelData = () => zlibStored(new Uint8Array(5));

/** A zlib stream of `rows` filtered rows of `rowBytes` zeros (filter 0): long runs, compressed small. */
function zeroRows(rows: number, rowBytes: number): Uint8Array {
	const deflater = new RleDeflater();
	const parts: Uint8Array[] = [];
	const block = new Uint8Array(Math.min(rows * rowBytes, 1 << 20));
	for (let left = rows * rowBytes; left > 0; left -= block.length) {
		parts.push(deflater.push(block.subarray(0, Math.min(block.length, left))));
	}
	parts.push(deflater.finish());
	return join(parts);
}

/** A zlib stream of `count` empty stored blocks, then a last block holding `data`. */
function emptyBlocksThen(count: number, data: Uint8Array): Uint8Array {
	const out = new Uint8Array(2 + count * 5 + 5 + data.length + 4);
	out.set([0x78, 0x01]);
	for (let i = 0; i < count; i++) out.set([0, 0, 0, 0xff, 0xff], 2 + i * 5);
	out.set([1, data.length & 255, data.length >> 8, ~data.length & 255, (~data.length >> 8) & 255], 2 + count * 5);
	out.set(data, 2 + count * 5 + 5);
	return out;
}

const png: HostileFile[] = [
	{
		name: "PNG whose second IHDR says 8000x8000 after a first of 1x1",
		verdict: "refused",
		bytes: () => join([PNG_SIGNATURE, ihdr(1, 1), ihdr(8000, 8000), idat(onePixelData()), iend()]),
	},
	{
		name: "PNG of 1x1 pixel in 1.7 million empty IDAT chunks (20 MB)",
		verdict: "decodes",
		bytes: () => {
			const head = join([PNG_SIGNATURE, ihdr(1, 1), idat(onePixelData())]);
			const empty = idat(new Uint8Array());
			const count = Math.floor((MAX_FILE - head.length - 12) / empty.length);
			const file = new Uint8Array(head.length + count * empty.length + 12);
			file.set(head);
			for (let i = 0; i < count; i++) file.set(empty, head.length + i * empty.length);
			file.set(iend(), head.length + count * empty.length);
			return file;
		},
	},
	{
		name: "PNG of 1x1 pixel whose zlib stream is a million empty blocks",
		verdict: "fails",
		bytes: () => join([PNG_SIGNATURE, ihdr(1, 1), idat(emptyBlocksThen(1_000_000, new Uint8Array(5))), iend()]),
	},
	{
		name: "PNG 1 pixel wide and 25,000,000 high",
		verdict: "decodes",
		bytes: () => join([PNG_SIGNATURE, ihdr(1, 25_000_000, 8, 0), idat(zeroRows(25_000_000, 2)), iend()]),
	},
	{
		name: "PNG 25,000,000 pixels wide and 1 high, 16-bit RGBA (a row of 200 MB)",
		verdict: "too-large",
		bytes: () => join([PNG_SIGNATURE, ihdr(25_000_000, 1, 16, 6), idat(onePixelData()), iend()]),
	},
	{
		name: "PNG cut in half, its header intact",
		verdict: "refused",
		bytes: () => {
			const whole = join([PNG_SIGNATURE, ihdr(64, 64), idat(zeroRows(64, 257)), iend()]);
			return whole.subarray(0, whole.length >> 1);
		},
	},
	{
		name: "PNG whose image data comes in two runs",
		verdict: "refused",
		bytes: () => {
			const data = zeroRows(8, 33);
			const half = data.length >> 1;
			const text = pngChunk("tEXt", Uint8Array.from(ascii("a\0b")));
			return join([PNG_SIGNATURE, ihdr(8, 8), idat(data.subarray(0, half)), text, idat(data.subarray(half)), iend()]);
		},
	},
	{
		name: "PNG with an unknown critical chunk",
		verdict: "refused",
		bytes: () => join([PNG_SIGNATURE, ihdr(1, 1), pngChunk("ABCD", new Uint8Array(4)), idat(onePixelData()), iend()]),
	},
	{
		name: "PNG with PLTE after its image data",
		verdict: "refused",
		bytes: () =>
			join([
				PNG_SIGNATURE,
				ihdr(1, 1, 8, 3),
				idat(zlibStored(new Uint8Array(2))),
				pngChunk("PLTE", new Uint8Array(3)),
				iend(),
			]),
	},
];

// --- JPEG --------------------------------------------------------------------------------------

/** A 64x64 grey progressive JPEG whose 63 AC coefficients each get a first scan and 13 refinements. */
function progressiveScanFlood(): Uint8Array {
	const blocks = greyBlocks(64, 64);
	const dc = zeros(blocks / 8);
	// One EOBRUN of 2^6 blocks ("01", six zero bits) covers all 64 blocks of an AC scan.
	const run = Uint8Array.of(0x40);
	const scans: [number[], Uint8Array][] = [[sos([1], 0, 0, 0, 0), dc]];
	for (let k = 1; k < 64; k++) {
		scans.push([sos([1], k, k, 0, 13), run]);
		for (let al = 12; al >= 0; al--) scans.push([sos([1], k, k, al + 1, al), run]);
	}
	return jpeg([...DQT, ...DHT, ...sof(0xc2, 64, 64, [0x11])], scans);
}

const jpegFiles: HostileFile[] = [
	{
		name: "sequential JPEG of 5000x5000 with 10 scans and no entropy-coded data (236-byte scan bomb)",
		verdict: "refused",
		bytes: () =>
			jpeg(
				[...DQT, ...DHT, ...sof(0xc0, 5000, 5000, [0x11])],
				Array.from({ length: 10 }, () => [sos([1]), zeros(0)] as [number[], Uint8Array]),
			),
	},
	{
		name: "sequential JPEG of 5000x5000 whose one scan is 100 bytes of zeros",
		verdict: "refused",
		bytes: () => jpeg([...DQT, ...DHT, ...sof(0xc0, 5000, 5000, [0x11])], [[sos([1]), zeros(100)]]),
	},
	{
		name: "progressive JPEG of 5000x5000 with 1000 AC scans of the same band",
		verdict: "refused",
		bytes: () => {
			const dc: [number[], Uint8Array] = [sos([1], 0, 0), zeros(Math.ceil(greyBlocks(5000, 5000) / 8))];
			const ac = Array.from(
				{ length: 1000 },
				() => [sos([1], 1, 63), Uint8Array.of(0x80, 0, 0)] as [number[], Uint8Array],
			);
			return jpeg([...DQT, ...DHT, ...sof(0xc2, 5000, 5000, [0x11])], [dc, ...ac]);
		},
	},
	{
		name: "progressive JPEG of 64x64 whose 897 scans each walk every block (valid progression)",
		verdict: "refused",
		bytes: progressiveScanFlood,
	},
	{
		name: "JPEG whose FF D0 between segments hides an 8000x8000 frame behind a 1x1 one",
		verdict: "refused",
		// Read as a standalone marker, FF D0 is followed by a 1x1 frame header; read as a segment, its
		// length is that header's first two bytes (FF C0: 65472), which skip to an 8000x8000 frame.
		bytes: () => {
			const decoy = sof(0xc0, 1, 1, [0x11]);
			const hidden = join([
				DQT,
				DHT,
				sof(0xc0, 8000, 8000, [0x11]),
				sos([1]),
				zeros((greyBlocks(8000, 8000) * 3) / 8),
				EOI,
			]);
			const file = new Uint8Array(4 + 0xffc0 + hidden.length);
			file.set([...SOI, 0xff, 0xd0, ...decoy, ...DQT, ...DHT, ...sos([1]), 0, 0, ...EOI]);
			file.set(hidden, 4 + 0xffc0);
			return file;
		},
	},
	{
		name: "JPEG of 16x16 pixels defining 100,000 Huffman tables (found by the fuzzer: half a second to build them)",
		verdict: "refused",
		bytes: () => {
			const tables = new Uint8Array(100_000 * DHT_DC.length);
			for (let i = 0; i < 100_000; i++) tables.set(DHT_DC, i * DHT_DC.length);
			return join([SOI, DQT, tables, DHT, sof(0xc0, 16, 16, [0x11]), sos([1]), zeros(2), EOI]);
		},
	},
	{
		name: "arithmetic-coded JPEG",
		verdict: "refused",
		bytes: () => jpeg([...DQT, ...segment(0xcc, [0x00, 0x10]), ...sof(0xc9, 16, 16, [0x11])], [[sos([1]), zeros(8)]]),
	},
	{
		name: "12-bit JPEG",
		verdict: "refused",
		bytes: () => jpeg([...DQT, ...DHT, ...sof(0xc1, 16, 16, [0x11], 12)], [[sos([1]), zeros(8)]]),
	},
	{
		name: "sequential 4:4:4 JPEG of 5000x5000 with one scan per component (its scans take turns on each MCU row)",
		verdict: "decodes",
		bytes: () => {
			const data = zeros(Math.ceil((greyBlocks(5000, 5000) * 3) / 8));
			return jpeg(
				[...DQT, ...DHT, ...sof(0xc0, 5000, 5000, [0x11, 0x11, 0x11])],
				[1, 2, 3].map((id) => [sos([id]), data] as [number[], Uint8Array]),
			);
		},
	},
	{
		name: "CMYK JPEG of 5000x5000 (photon's 14 bytes a pixel)",
		verdict: "too-large",
		bytes: () => {
			const data = zeros(Math.ceil((greyBlocks(5000, 5000) * 4 * 3) / 8));
			return jpeg([...DQT, ...DHT, ...sof(0xc0, 5000, 5000, [0x11, 0x11, 0x11, 0x11])], [[sos([1, 2, 3, 4]), data]]);
		},
	},
	{
		name: "JPEG without EOI",
		verdict: "refused",
		bytes: () => jpeg([...DQT, ...DHT, ...sof(0xc0, 16, 16, [0x11])], [[sos([1]), zeros(2)]]).slice(0, -2),
	},
	{
		name: "JPEG whose restart interval needs markers its scan lacks",
		verdict: "refused",
		bytes: () => jpeg([...DQT, ...DHT, ...segment(0xdd, [0, 1]), ...sof(0xc0, 32, 32, [0x11])], [[sos([1]), zeros(8)]]),
	},
	{
		name: "JPEG whose scan data stops halfway, EOI moved up (the rest would decode from zero fill)",
		verdict: "fails",
		bytes: () => {
			const file = Uint8Array.from(atob(images.jpeg420_jpg), (c) => c.charCodeAt(0));
			const scan = file.findIndex((b, i) => b === 0xff && file[i + 1] === 0xda);
			const dataStart = scan + 2 + ((file[scan + 2]! << 8) | file[scan + 3]!);
			return join([file.subarray(0, dataStart + ((file.length - 2 - dataStart) >> 1)), EOI]);
		},
	},
];

// --- GIF ---------------------------------------------------------------------------------------

/** GIF89a with a 2-colour global palette. */
const gifHead = (width: number, height: number) => [
	...ascii("GIF89a"),
	...u16le(width),
	...u16le(height),
	0x80,
	0,
	0,
	0,
	0,
	0,
	255,
	255,
	255,
];

function imageDescriptor(width: number, height: number): number[] {
	return [0x2c, 0, 0, 0, 0, ...u16le(width), ...u16le(height), 0];
}

/** LZW data (minimum code size 2) in sub-blocks, then the block terminator. */
function subBlocks(data: Uint8Array): Uint8Array {
	const parts: (Uint8Array | number[])[] = [[2]];
	for (let at = 0; at < data.length; at += 255) {
		const piece = data.subarray(at, at + 255);
		parts.push([piece.length], piece);
	}
	parts.push([0]);
	return join(parts);
}

/**
 * LZW data (minimum code size 2) for `pixels` indices: each new code one index longer than the
 * last, up to the full 4096-entry table, then the longest string again and again: 1.5 MB makes a
 * 65535 x 65535 frame.
 */
function lzwFlood(pixels: number): Uint8Array {
	const bits = new LsbBits();
	let size = 3;
	bits.write(4, size).write(0, size);
	let emitted = 1;
	let length = 1;
	for (let next = 6; next < 4096 && emitted < pixels; next++) {
		bits.write(next, size); // the code not yet in the table: the previous string and its first index
		length += 1;
		emitted += length;
		if (next + 1 === 1 << size && size < 12) size++;
	}
	while (emitted < pixels) {
		bits.write(4095, 12);
		emitted += length;
	}
	return bits.write(5, 12).done();
}

/** `count` clear codes (3 bits each at minimum code size 2), then one pixel and end. */
function clearCodes(count: number): Uint8Array {
	const bits = new LsbBits();
	for (let i = 0; i < count; i++) bits.write(4, 3);
	return bits.write(0, 3).write(5, 3).done();
}

const gif: HostileFile[] = [
	{
		name: "GIF of 5000x5000 from 12 KB of LZW data (the longest strings over and over)",
		verdict: "decodes",
		bytes: () => join([gifHead(5000, 5000), imageDescriptor(5000, 5000), subBlocks(lzwFlood(5000 * 5000)), [0x3b]]),
	},
	{
		name: "GIF whose 65535x65535 frame (1.5 MB of LZW data) outgrows its 1x1 screen",
		verdict: "refused",
		bytes: () => join([gifHead(1, 1), imageDescriptor(65535, 65535), subBlocks(lzwFlood(65535 * 65535)), [0x3b]]),
	},
	{
		name: "GIF of 1x1 pixel whose image data is 5 million clear codes",
		verdict: "fails",
		bytes: () => join([gifHead(1, 1), imageDescriptor(1, 1), subBlocks(clearCodes(5_000_000)), [0x3b]]),
	},
	{
		name: "GIF without its trailer",
		verdict: "refused",
		bytes: () => join([gifHead(1, 1), imageDescriptor(1, 1), subBlocks(clearCodes(1))]),
	},
];

// --- WebP --------------------------------------------------------------------------------------

/** A 4x4 VP8L whose one-block group map names group 65535: 65536 groups declared for 16 pixels. */
function manyGroupsForFewPixels(): Uint8Array {
	const bits = vp8lHeader(new LsbBits(), 4, 4);
	bits.write(0, 1).write(0, 1).write(1, 1); // no transform, no cache, meta prefix codes
	bits.write(0, 3); // blocks of 4x4: one block
	bits.write(0, 1); // the map: no cache, one constant group (red 0xff, green 0xff: group 65535)
	constantGroup(bits, 0xffffffff);
	for (let g = 0; g < 65536; g++) constantGroup(bits, 0xff000000);
	return riff([chunk("VP8L", bits.done())]);
}

/** A 1024x1024 VP8L whose 65536 blocks each name their own group of 8-bit codes: 84 M table entries. */
function hugePrefixTables(): Uint8Array {
	const bits = vp8lHeader(new LsbBits(), 1024, 1024);
	bits.write(0, 1).write(0, 1).write(1, 1); // no transform, no cache, meta prefix codes
	bits.write(0, 3); // blocks of 4x4: 256 x 256 of them
	// The map: green and red each with 256 8-bit codes, blue, alpha and distance one symbol.
	bits.write(0, 1);
	flat256(bits);
	flat256(bits);
	for (let i = 0; i < 3; i++) bits.write(1, 1).write(0, 1).write(0, 1).write(0, 1);
	for (let i = 0; i < 65536; i++) bits.code(i & 255, 8).code(i >> 8, 8); // group i: green low byte, red high
	for (let g = 0; g < 65536; g++) {
		for (let c = 0; c < 4; c++) flat256(bits);
		bits.write(1, 1).write(0, 1).write(0, 1).write(0, 1);
	}
	return riff([chunk("VP8L", bits.done())]);
}

const webp: HostileFile[] = [
	{
		name: "WebP whose VP8X canvas is 1x1 and whose VP8L bitstream is 16384x16384 (50 bytes)",
		verdict: "refused",
		bytes: () => riff([vp8x(1, 1), chunk("VP8L", solidVp8l(16384, 16384))]),
	},
	{
		name: "WebP of 1x1 pixel among 2.6 million empty chunks (20 MB)",
		verdict: "decodes",
		bytes: () => {
			const image = chunk("VP8L", solidVp8l(1, 1));
			const head = join([ascii("RIFF"), [0, 0, 0, 0], ascii("WEBP"), vp8x(1, 1)]);
			const count = Math.floor((MAX_FILE - head.length - image.length) / 8);
			const file = new Uint8Array(head.length + count * 8 + image.length);
			file.set(head);
			const junk = Uint8Array.from([...ascii("JUNK"), 0, 0, 0, 0]);
			for (let i = 0; i < count; i++) file.set(junk, head.length + i * 8);
			file.set(image, head.length + count * 8);
			new DataView(file.buffer).setUint32(4, file.length - 8, true);
			return file;
		},
	},
	{
		name: "VP8L of 4x4 pixels declaring 65536 prefix groups",
		verdict: "refused",
		bytes: manyGroupsForFewPixels,
	},
	{
		name: "VP8L whose prefix tables would take more than 4 million entries",
		verdict: "refused",
		bytes: hugePrefixTables,
	},
	{
		name: "WebP still image with two bitstreams",
		verdict: "refused",
		bytes: () => riff([vp8x(1, 1), chunk("VP8L", solidVp8l(1, 1)), chunk("VP8L", solidVp8l(1, 1))]),
	},
	{
		name: "lossless WebP of 1700x1700 in 30 bytes (a solid colour: priced by its pixels)",
		verdict: "decodes",
		bytes: () => riff([chunk("VP8L", solidVp8l(1700, 1700))]),
	},
	{
		name: "lossless WebP of 16384x16384 in 30 bytes",
		verdict: "too-large",
		bytes: () => riff([chunk("VP8L", solidVp8l(16384, 16384))]),
	},
];

export const HOSTILE_FILES: HostileFile[] = [...png, ...jpegFiles, ...gif, ...webp];
