import type { Box, RowSink } from "../../types";
import { bandRows, wantedSpans } from "../raster-rows";
import type { WorkBudget } from "../work-budget";
import { ByteReader } from "./blocks";
import type { GifContainer, GifFrame } from "./container";
import { decodeLzw } from "./lzw";

/**
 * Decodes the first frame of a GIF as browsers show it before any animation: the logical screen,
 * transparent, with the first image drawn at its offset, its transparent index as alpha 0. Rows go
 * to the sink top to bottom, a band at a time. A plain frame's rows arrive in order and are passed
 * on as they come; an interlaced frame's arrive in four passes, so its palette indices (a byte a
 * pixel) are kept until the last pass is in. With `wanted`, only the rows its boxes hold are right
 * (decode.ts `decodeRows`).
 */
export function decodeGifRows(
	bytes: Uint8Array,
	gif: GifContainer,
	budget: WorkBudget,
	sink: RowSink,
	wanted?: readonly Box[],
): void {
	const { width, height, frame } = gif;
	const colours = rgbaColours(frame.palette, frame.transparent);
	const bandHeight = bandRows(width, height);
	const band = new Uint8Array(width * bandHeight * 4);
	const pixels = new Int32Array(band.buffer);
	let bandStart = 0;
	let filled = 0;
	const spans = wantedSpans(width, height, wanted);
	/**
	 * Appends screen row `y` (the next one): transparent, with the frame's row over it if it has
	 * one; with `wanted`, only the columns its boxes hold there.
	 */
	const row = (y: number, indices?: Uint8Array, at = 0) => {
		const o = filled * width;
		const from = spans ? spans.from[y]! : 0;
		const to = spans ? spans.to[y]! : width;
		// The frame's columns among them; transparent on either side.
		const left = indices ? Math.min(to, Math.max(from, frame.left)) : to;
		const right = indices ? Math.max(left, Math.min(to, frame.left + frame.width)) : to;
		pixels.fill(0, o + from, o + left);
		for (let x = left, i = at + left - frame.left; x < right; x++, i++) pixels[o + x] = colours[indices![i]!]!;
		pixels.fill(0, o + right, o + to);
		filled += 1;
		if (filled === bandHeight || y === height - 1) {
			sink.rows(bandStart, filled, band.subarray(0, filled * width * 4));
			bandStart = y + 1;
			filled = 0;
		}
	};
	const frameEnd = frame.top + frame.height;
	let y = 0;
	for (; y < frame.top; y++) row(y);
	if (frame.width > 0 && frame.height > 0) {
		const reader = new ByteReader(bytes, frame.data);
		if (frame.interlaced) {
			const indices = new Uint8Array(frame.width * frame.height);
			const order = interlacedRowOrder(frame.height);
			decodeLzw(reader, frame.minCodeSize, frame.width, frame.height, budget, (line, n) => {
				indices.set(line, order[n]! * frame.width);
			});
			for (; y < frameEnd; y++) row(y, indices, (y - frame.top) * frame.width);
		} else {
			decodeLzw(reader, frame.minCodeSize, frame.width, frame.height, budget, (line) => row(y++, line));
		}
	}
	for (; y < height; y++) row(y);
}

/** Bytes the decode holds besides its band: an interlaced frame's indices. */
export function gifHeldBytes(frame: GifFrame): number {
	return frame.interlaced ? frame.width * frame.height : 0;
}

/**
 * 0xAABBGGRR (little-endian RGBA) for each of the 256 indices: the palette's colours, opaque
 * black past its end, and transparent black for the transparent index.
 */
function rgbaColours(palette: Uint8Array, transparent: number): Int32Array {
	const colours = new Int32Array(256).fill(0xff000000 | 0);
	for (let i = 0; i < palette.length / 3; i++) {
		colours[i] = 0xff000000 | (palette[i * 3 + 2]! << 16) | (palette[i * 3 + 1]! << 8) | palette[i * 3]!;
	}
	if (transparent >= 0) colours[transparent] = 0;
	return colours;
}

/** The frame row of the n-th row in the data of an interlaced frame: every 8th from 0, every 8th from 4, every 4th from 2, every 2nd from 1. */
function interlacedRowOrder(rows: number): Int32Array {
	const order = new Int32Array(rows);
	let n = 0;
	for (const [start, step] of [
		[0, 8],
		[4, 8],
		[2, 4],
		[1, 2],
	] as const) {
		for (let y = start; y < rows; y += step) order[n++] = y;
	}
	return order;
}
