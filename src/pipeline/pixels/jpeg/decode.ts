import type { Raster } from "../../types";
import { JpegFormatError } from "./errors";
import { BitReader } from "./huffman";
import { idct8x8 } from "./idct";
import { type Component, parseJpeg } from "./parse";

/** Natural-order index of the k-th coefficient in zigzag order. */
const ZIGZAG = Int32Array.from([
	0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
	35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47,
	55, 62, 63,
]);

/** Zero bytes fed past the end of the data beyond which the file is taken as cut short. */
const TRUNCATION_SLACK = 8;

interface Plane {
	component: Component;
	h: number;
	v: number;
	quant: Int32Array;
	/** One MCU row of this component's samples. */
	rows: Uint8ClampedArray;
	stride: number;
	/** Component column for each image column (nearest-neighbour upsampling). */
	xmap: Int32Array;
	pred: number;
}

/**
 * Decodes a baseline (sequential Huffman, 8-bit, one interleaved scan) JPEG straight into an
 * RGBA raster, one MCU row at a time: besides the raster only one row of blocks per component is
 * held. Chroma is upsampled by nearest neighbour. Other JPEGs throw JpegUnsupported.
 */
export function decodeJpeg(bytes: Uint8Array): Raster {
	const frame = parseJpeg(bytes);
	const { width, height } = frame;
	const single = frame.components.length === 1;
	// A single-component scan is not interleaved: its MCU is one block, whatever the factors say.
	const hmax = single ? 1 : Math.max(...frame.components.map((c) => c.h));
	const vmax = single ? 1 : Math.max(...frame.components.map((c) => c.v));
	const mcusX = Math.ceil(width / (8 * hmax));
	const mcusY = Math.ceil(height / (8 * vmax));
	const planes: Plane[] = frame.components.map((component) => {
		const h = single ? 1 : component.h;
		const v = single ? 1 : component.v;
		const quant = frame.quant[component.quant];
		if (!quant) throw new JpegFormatError("undefined quantisation table");
		const stride = mcusX * h * 8;
		const xmap = new Int32Array(width);
		for (let x = 0; x < width; x++) xmap[x] = Math.floor((x * h) / hmax);
		return { component, h, v, quant, rows: new Uint8ClampedArray(stride * v * 8), stride, xmap, pred: 0 };
	});
	const data = new Uint8Array(width * height * 4);
	const clamped = new Uint8ClampedArray(data.buffer);
	const reader = new BitReader(bytes, frame.scanStart);
	const coef = new Int32Array(64);
	const rgb = isRgb(frame.components, frame.adobeTransform);
	let mcu = 0;
	for (let my = 0; my < mcusY; my++) {
		for (let mx = 0; mx < mcusX; mx++) {
			if (frame.restartInterval && mcu > 0 && mcu % frame.restartInterval === 0) {
				reader.restart();
				for (const p of planes) p.pred = 0;
			}
			for (const p of planes) {
				for (let by = 0; by < p.v; by++) {
					for (let bx = 0; bx < p.h; bx++) {
						decodeBlock(reader, p, coef);
						idct8x8(coef, p.rows, by * 8 * p.stride + (mx * p.h + bx) * 8, p.stride);
					}
				}
			}
			mcu++;
		}
		if (reader.overrun > TRUNCATION_SLACK) throw new JpegFormatError("data ends before the last block");
		const y0 = my * 8 * vmax;
		const y1 = Math.min(height, y0 + 8 * vmax);
		if (planes.length === 1) writeGrey(planes[0]!, data, width, y0, y1);
		else writeColour(planes, clamped, width, y0, y1, vmax, rgb);
	}
	return { width, height, data };
}

function decodeBlock(reader: BitReader, p: Plane, coef: Int32Array): void {
	const { dc, ac } = p.component;
	coef.fill(0);
	p.pred += reader.receiveExtend(reader.decode(dc!));
	coef[0] = p.pred * p.quant[0]!;
	for (let k = 1; k < 64; ) {
		const rs = reader.decode(ac!);
		const s = rs & 15;
		const r = rs >> 4;
		if (s === 0) {
			if (r < 15) break; // end of block
			k += 16;
			continue;
		}
		k += r;
		if (k > 63) throw new JpegFormatError("coefficient index past 63");
		coef[ZIGZAG[k]!] = reader.receiveExtend(s) * p.quant[k]!;
		k++;
	}
}

/** Adobe's transform flag 0, or components named R, G, B, mean the samples are RGB already. */
function isRgb(components: Component[], adobeTransform: number | undefined): boolean {
	if (adobeTransform !== undefined) return adobeTransform === 0;
	return components.map((c) => String.fromCharCode(c.id)).join("") === "RGB";
}

function writeGrey(p: Plane, data: Uint8Array, width: number, y0: number, y1: number): void {
	for (let y = y0; y < y1; y++) {
		const row = (y - y0) * p.stride;
		for (let x = 0, o = y * width * 4; x < width; x++, o += 4) {
			const g = p.rows[row + x]!;
			data[o] = g;
			data[o + 1] = g;
			data[o + 2] = g;
			data[o + 3] = 255;
		}
	}
}

// YCbCr to RGB (JFIF), in 16-bit fixed point, as lookup tables over the chroma value.
const CR_R = new Int32Array(256);
const CB_B = new Int32Array(256);
const CB_G = new Int32Array(256);
const CR_G = new Int32Array(256);
for (let i = 0; i < 256; i++) {
	const c = i - 128;
	CR_R[i] = (91881 * c + 32768) >> 16;
	CB_B[i] = (116130 * c + 32768) >> 16;
	CB_G[i] = -22554 * c;
	CR_G[i] = -46802 * c + 32768;
}

function writeColour(
	planes: Plane[],
	data: Uint8ClampedArray,
	width: number,
	y0: number,
	y1: number,
	vmax: number,
	rgb: boolean,
): void {
	const [a, b, c] = planes as [Plane, Plane, Plane];
	for (let y = y0; y < y1; y++) {
		const ly = y - y0;
		const rowA = Math.floor((ly * a.v) / vmax) * a.stride;
		const rowB = Math.floor((ly * b.v) / vmax) * b.stride;
		const rowC = Math.floor((ly * c.v) / vmax) * c.stride;
		for (let x = 0, o = y * width * 4; x < width; x++, o += 4) {
			const s0 = a.rows[rowA + a.xmap[x]!]!;
			const s1 = b.rows[rowB + b.xmap[x]!]!;
			const s2 = c.rows[rowC + c.xmap[x]!]!;
			if (rgb) {
				data[o] = s0;
				data[o + 1] = s1;
				data[o + 2] = s2;
			} else {
				const r = s0 + CR_R[s2]!;
				const g = s0 + ((CB_G[s1]! + CR_G[s2]!) >> 16);
				const bl = s0 + CB_B[s1]!;
				data[o] = r; // a clamped array: out-of-range values saturate
				data[o + 1] = g;
				data[o + 2] = bl;
			}
			data[o + 3] = 255;
		}
	}
}
