import type { Raster } from "../../types";
import { JpegFormatError } from "./errors";
import { BitReader } from "./huffman";
import { idct8x8, idctDcOnly } from "./idct";
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
	upsampler?: Upsampler;
	pred: number;
}

/**
 * Decodes a baseline (sequential Huffman, 8-bit, one interleaved scan) JPEG straight into an
 * RGBA raster, one MCU row at a time: besides the raster only one row of blocks per component is
 * held. Subsampled chroma is interpolated linearly (like libjpeg's "fancy" upsampling, except
 * below the last row of each MCU row, which repeats). Other JPEGs throw JpegUnsupported.
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
		const rows = new Uint8ClampedArray(stride * v * 8);
		const upsampler = h < hmax || v < vmax ? new Upsampler(width, h, v, hmax, vmax, stride) : undefined;
		return { component, h, v, quant, rows, stride, upsampler, pred: 0 };
	});
	const data = new Uint8Array(width * height * 4);
	const pixels = new Int32Array(data.buffer);
	const reader = new BitReader(bytes, frame.scanStart);
	const coef = new Int32Array(64);
	const written = new Int32Array(64);
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
						const set = decodeBlock(reader, p, coef, written);
						const at = by * 8 * p.stride + (mx * p.h + bx) * 8;
						if (set === 0) idctDcOnly(coef[0]!, p.rows, at, p.stride);
						else idct8x8(coef, p.rows, at, p.stride);
						// Clear only what was set: most coefficients of most blocks are zero.
						for (let i = 0; i < set; i++) coef[written[i]!] = 0;
					}
				}
			}
			mcu++;
		}
		if (reader.overrun > TRUNCATION_SLACK) throw new JpegFormatError("data ends before the last block");
		const y0 = my * 8 * vmax;
		const y1 = Math.min(height, y0 + 8 * vmax);
		if (planes.length === 1) writeGrey(planes[0]!, data, width, y0, y1);
		else writeColour(planes, pixels, width, y0, y1, vmax, rgb);
	}
	return { width, height, data };
}

/**
 * Reads one block's coefficients, dequantised, into `coef` (natural order; all AC entries must be
 * zero on entry). Returns how many AC coefficients it set, their indices listed in `written`.
 */
function decodeBlock(reader: BitReader, p: Plane, coef: Int32Array, written: Int32Array): number {
	const { dc, ac } = p.component;
	let set = 0;
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
		const z = ZIGZAG[k]!;
		coef[z] = reader.receiveExtend(s) * p.quant[k]!;
		written[set++] = z;
		k++;
	}
	return set;
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

/** Clamps -384..639 to 0..255 by lookup (index + 384): conversion overshoots stay in that range. */
const CLAMP = Uint8Array.from({ length: 1024 }, (_, i) => Math.max(0, Math.min(255, i - 384)));

function writeColour(
	planes: Plane[],
	pixels: Int32Array,
	width: number,
	y0: number,
	y1: number,
	vmax: number,
	rgb: boolean,
): void {
	const [a, b, c] = planes as [Plane, Plane, Plane];
	for (let y = y0; y < y1; y++) {
		const ly = y - y0;
		const rowA = sampleRow(a, ly, vmax);
		const rowB = sampleRow(b, ly, vmax);
		const rowC = sampleRow(c, ly, vmax);
		// One 32-bit write per pixel: 0xAABBGGRR on little-endian machines (all that run Workers);
		// an Int32Array takes the int32 that | gives without conversion.
		for (let x = 0, o = y * width; x < width; x++, o++) {
			const s0 = rowA[x]!;
			const s1 = rowB[x]!;
			const s2 = rowC[x]!;
			if (rgb) {
				pixels[o] = 0xff000000 | (s2 << 16) | (s1 << 8) | s0;
			} else {
				const r = CLAMP[s0 + CR_R[s2]! + 384]!;
				const g = CLAMP[s0 + ((CB_G[s1]! + CR_G[s2]!) >> 16) + 384]!;
				const bl = CLAMP[s0 + CB_B[s1]! + 384]!;
				pixels[o] = 0xff000000 | (bl << 16) | (g << 8) | r;
			}
		}
	}
	for (const p of planes) p.upsampler?.keepLastRow(p.rows);
}

/** Row `ly` of the MCU row at full resolution: the plane's own row, or an interpolated one. */
function sampleRow(p: Plane, ly: number, vmax: number): Uint8Array | Uint8ClampedArray {
	if (p.upsampler) return p.upsampler.row(p.rows, ly);
	const at = Math.floor((ly * p.v) / vmax) * p.stride;
	return p.rows.subarray(at, at + p.stride);
}

/**
 * Bilinear upsampling of a subsampled plane, one output row at a time, sample centres aligned
 * as JFIF places them. Above the first row of an MCU row it uses the last row of the previous one.
 */
class Upsampler {
	private readonly out: Uint8Array;
	private readonly x0: Int32Array;
	private readonly x1: Int32Array;
	/** Weight of x1, 0..256. */
	private readonly fx: Int32Array;
	private readonly previous: Uint8ClampedArray;
	private hasPrevious = false;
	/** The current pair of chroma rows blended vertically, one entry per chroma column. */
	private readonly blended: Int32Array;

	constructor(
		width: number,
		h: number,
		private readonly v: number,
		hmax: number,
		private readonly vmax: number,
		private readonly stride: number,
	) {
		this.out = new Uint8Array(width); // blends of 0..255 stay in range
		this.x0 = new Int32Array(width);
		this.x1 = new Int32Array(width);
		this.fx = new Int32Array(width);
		const columns = Math.ceil((width * h) / hmax);
		for (let x = 0; x < width; x++) {
			const cx = Math.max(0, ((x + 0.5) * h) / hmax - 0.5);
			this.x0[x] = Math.min(columns - 1, Math.floor(cx));
			this.x1[x] = Math.min(columns - 1, Math.floor(cx) + 1);
			this.fx[x] = Math.round((cx - Math.floor(cx)) * 256);
		}
		this.previous = new Uint8ClampedArray(stride);
		this.blended = new Int32Array(columns);
	}

	row(rows: Uint8ClampedArray, ly: number): Uint8Array {
		const last = this.v * 8 - 1;
		const cy = ((ly + 0.5) * this.v) / this.vmax - 0.5;
		const top = Math.floor(cy);
		const fy = Math.round((cy - top) * 256);
		const above = top < 0 ? (this.hasPrevious ? this.previous : rows.subarray(0, this.stride)) : undefined;
		const upper = above ?? rows.subarray(Math.min(last, top) * this.stride);
		const lower = rows.subarray(Math.min(last, top + 1) * this.stride);
		// Blend the two chroma rows once per chroma column (×256), then across for each pixel.
		const { blended, out, x0, x1, fx } = this;
		for (let i = 0; i < blended.length; i++) blended[i] = upper[i]! * (256 - fy) + lower[i]! * fy;
		for (let x = 0; x < out.length; x++) {
			const w = fx[x]!;
			out[x] = (blended[x0[x]!]! * (256 - w) + blended[x1[x]!]! * w + 32768) >> 16;
		}
		return out;
	}

	keepLastRow(rows: Uint8ClampedArray): void {
		const last = this.v * 8 - 1;
		this.previous.set(rows.subarray(last * this.stride, (last + 1) * this.stride));
		this.hasPrevious = true;
	}
}
