import type { Component, McuGrid } from "./container";

/** One MCU row of one component's samples, after the IDCT, and how it maps onto the image. */
export interface SamplePlane {
	h: number;
	v: number;
	/** One MCU row of this component's samples. */
	rows: Uint8ClampedArray;
	stride: number;
	upsampler?: Upsampler;
}

/** `block`: the pixels a block's side becomes, 8 (4 when decoding at half size); `width` the output's. */
export function samplePlanes(width: number, grid: McuGrid, block = 8): SamplePlane[] {
	return grid.h.map((h, i) => {
		const v = grid.v[i]!;
		const stride = grid.mcusX * h * block;
		const rows = new Uint8ClampedArray(stride * v * block);
		const subsampled = h < grid.hmax || v < grid.vmax;
		const upsampler = subsampled ? new Upsampler(width, h, v, grid.hmax, grid.vmax, stride, block) : undefined;
		return { h, v, rows, stride, upsampler };
	});
}

/**
 * Whether a decode met any non-zero coefficient of the second and third components: when it did
 * not, every chroma sample is 128 and a YCbCr image's pixels are all grey (R = G = B = Y).
 */
export type ChromaSeen = boolean;

/** The pixels a decode writes: the frame's, or half of them each way (rounded up) when blocks become 4×4. */
export function outputSize(frame: { width: number; height: number }, block: 8 | 4): { width: number; height: number } {
	return block === 8 ? frame : { width: Math.ceil(frame.width / 2), height: Math.ceil(frame.height / 2) };
}

/** Adobe's transform flag 0, or components named R, G, B, mean the samples are RGB already. */
export function isRgb(components: Component[], adobeTransform: number | undefined): boolean {
	if (adobeTransform !== undefined) return adobeTransform === 0;
	return components.map((c) => String.fromCharCode(c.id)).join("") === "RGB";
}

/**
 * Writes image rows y0..y1 (one MCU row) from the planes' samples as RGBA pixels (one int32
 * each), image row y at pixels[(y - firstRow) * width]: 0 for a whole raster, y0 for a band.
 * `span` limits the pixels written to a rectangle (a window of a turned image): only its columns'
 * samples, and those of one MCU either side, need to have been decoded. `columns` narrows its
 * columns further to runs ([start, end) pairs: the wanted MCUs of pass 2's crops).
 */
export function writeMcuRow(
	planes: SamplePlane[],
	pixels: Int32Array,
	width: number,
	y0: number,
	y1: number,
	vmax: number,
	rgb: boolean,
	firstRow: number,
	span: PixelSpan = { x0: 0, x1: width, y0, y1 },
	columns: readonly number[] = [span.x0, span.x1],
): void {
	if (planes.length === 1) writeGrey(planes[0]!, pixels, width, y0, y1, firstRow, span, columns);
	else writeColour(planes, pixels, width, y0, y1, vmax, rgb, firstRow, span, columns);
}

/** A rectangle of image pixels: columns x0..x1, rows y0..y1. */
export interface PixelSpan {
	x0: number;
	x1: number;
	y0: number;
	y1: number;
}

function writeGrey(
	p: SamplePlane,
	pixels: Int32Array,
	width: number,
	y0: number,
	y1: number,
	firstRow: number,
	span: PixelSpan,
	columns: readonly number[],
): void {
	for (let y = Math.max(y0, span.y0); y < Math.min(y1, span.y1); y++) {
		const row = (y - y0) * p.stride;
		const o = (y - firstRow) * width;
		for (let i = 0; i < columns.length; i += 2) {
			const end = columns[i + 1]!;
			for (let x = columns[i]!; x < end; x++) pixels[o + x] = 0xff000000 | (p.rows[row + x]! * 0x010101);
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
	planes: SamplePlane[],
	pixels: Int32Array,
	width: number,
	y0: number,
	y1: number,
	vmax: number,
	rgb: boolean,
	firstRow: number,
	span: PixelSpan,
	columns: readonly number[],
): void {
	const [a, b, c] = planes as [SamplePlane, SamplePlane, SamplePlane];
	const write = rgb ? writeRgbRow : writeYccRow;
	// What cameras write (YCbCr, chroma at half the width: 4:2:0, 4:2:2): the chroma rows are blended
	// vertically and the pixels made from the blends at once, with no upsampled chroma row between.
	const halfChroma = !rgb && !a.upsampler && b.upsampler?.halfWidth === true && c.upsampler?.halfWidth === true;
	for (let y = Math.max(y0, span.y0); y < Math.min(y1, span.y1); y++) {
		const ly = y - y0;
		for (let i = 0; i < columns.length; i += 2) {
			const x0 = columns[i]!;
			const x1 = columns[i + 1]!;
			if (halfChroma) {
				const cbs = b.upsampler!.rowsAround(b.rows, ly);
				const crs = c.upsampler!.rowsAround(c.rows, ly);
				writeYccHalfRow(pixels, (y - firstRow) * width, x0, x1, a.rows, rowStart(a, ly, vmax), cbs, crs);
				continue;
			}
			write(
				pixels,
				(y - firstRow) * width,
				x0,
				x1,
				sampleRow(a, ly, x0, x1),
				rowStart(a, ly, vmax),
				sampleRow(b, ly, x0, x1),
				rowStart(b, ly, vmax),
				sampleRow(c, ly, x0, x1),
				rowStart(c, ly, vmax),
			);
		}
	}
	for (const p of planes) p.upsampler?.keepLastRow(p.rows);
}

// One 32-bit write per pixel: 0xAABBGGRR on little-endian machines (all that run Workers); an
// Int32Array takes the int32 that | gives without conversion. Every sample row is a
// Uint8ClampedArray, so that these loops see one array type.

function writeYccRow(
	pixels: Int32Array,
	o: number,
	x0: number,
	x1: number,
	ys: Uint8ClampedArray,
	yAt: number,
	cbs: Uint8ClampedArray,
	cbAt: number,
	crs: Uint8ClampedArray,
	crAt: number,
): void {
	for (let x = x0; x < x1; x++) pixels[o + x] = ycc(ys[yAt + x]!, cbs[cbAt + x]!, crs[crAt + x]!);
}

/**
 * writeYccRow for chroma at half the width, from the two chroma rows around the pixels' row:
 * each chroma column blended vertically (×256) as the pixels reach it, kept for the pixels either
 * side, and never stored. Pixels 2i and 2i+1 lie a quarter of a column either side of column i,
 * weights 3/4 and 1/4 (×256·4 → 2^10), exactly what Upsampler.row makes of them.
 */
function writeYccHalfRow(
	pixels: Int32Array,
	o: number,
	x0: number,
	x1: number,
	ys: Uint8ClampedArray,
	yAt: number,
	cbs: ChromaRows,
	crs: ChromaRows,
): void {
	const end = cbs.columns - 1;
	const { upper: bu, lower: bl, upperAt: bua, lowerAt: bla, fy: bfy } = cbs;
	const { upper: ru, lower: rl, upperAt: rua, lowerAt: rla, fy: rfy } = crs;
	const bwy = 256 - bfy;
	const rwy = 256 - rfy;
	let x = x0;
	if (x & 1 && x < x1) {
		const i = x >> 1;
		const n = i < end ? i + 1 : end;
		const cb = (bu[bua + i]! * bwy + bl[bla + i]! * bfy) * 3 + 512 + bu[bua + n]! * bwy + bl[bla + n]! * bfy;
		const cr = (ru[rua + i]! * rwy + rl[rla + i]! * rfy) * 3 + 512 + ru[rua + n]! * rwy + rl[rla + n]! * rfy;
		pixels[o + x] = ycc(ys[yAt + x]!, cb >> 10, cr >> 10);
		x++;
	}
	if (x + 1 < x1) {
		let i = x >> 1;
		const before = i > 0 ? i - 1 : 0;
		let cbBefore = bu[bua + before]! * bwy + bl[bla + before]! * bfy;
		let crBefore = ru[rua + before]! * rwy + rl[rla + before]! * rfy;
		let cbHere = bu[bua + i]! * bwy + bl[bla + i]! * bfy;
		let crHere = ru[rua + i]! * rwy + rl[rla + i]! * rfy;
		for (; x + 1 < x1; x += 2) {
			const after = i < end ? i + 1 : end;
			const cbAfter = bu[bua + after]! * bwy + bl[bla + after]! * bfy;
			const crAfter = ru[rua + after]! * rwy + rl[rla + after]! * rfy;
			const cb = cbHere * 3 + 512;
			const cr = crHere * 3 + 512;
			pixels[o + x] = ycc(ys[yAt + x]!, (cb + cbBefore) >> 10, (cr + crBefore) >> 10);
			pixels[o + x + 1] = ycc(ys[yAt + x + 1]!, (cb + cbAfter) >> 10, (cr + crAfter) >> 10);
			cbBefore = cbHere;
			crBefore = crHere;
			cbHere = cbAfter;
			crHere = crAfter;
			i++;
		}
	}
	if (x < x1) {
		const i = x >> 1;
		const n = i > 0 ? i - 1 : 0;
		const cb = (bu[bua + i]! * bwy + bl[bla + i]! * bfy) * 3 + 512 + bu[bua + n]! * bwy + bl[bla + n]! * bfy;
		const cr = (ru[rua + i]! * rwy + rl[rla + i]! * rfy) * 3 + 512 + ru[rua + n]! * rwy + rl[rla + n]! * rfy;
		pixels[o + x] = ycc(ys[yAt + x]!, cb >> 10, cr >> 10);
	}
}

/** One pixel (0xAABBGGRR) from its luma and chroma samples. */
function ycc(y: number, cb: number, cr: number): number {
	const r = y + CR_R[cr]!;
	const g = y + ((CB_G[cb]! + CR_G[cr]!) >> 16);
	const bl = y + CB_B[cb]!;
	if ((r | g | bl) >>> 8 === 0) return 0xff000000 | (bl << 16) | (g << 8) | r;
	return 0xff000000 | (CLAMP[bl + 384]! << 16) | (CLAMP[g + 384]! << 8) | CLAMP[r + 384]!;
}

function writeRgbRow(
	pixels: Int32Array,
	o: number,
	x0: number,
	x1: number,
	rs: Uint8ClampedArray,
	rAt: number,
	gs: Uint8ClampedArray,
	gAt: number,
	bs: Uint8ClampedArray,
	bAt: number,
): void {
	for (let x = x0; x < x1; x++) pixels[o + x] = 0xff000000 | (bs[bAt + x]! << 16) | (gs[gAt + x]! << 8) | rs[rAt + x]!;
}

/** The array holding row `ly` of the MCU row at full resolution: the plane's own rows, or an interpolated row. */
function sampleRow(p: SamplePlane, ly: number, x0: number, x1: number): Uint8ClampedArray {
	return p.upsampler ? p.upsampler.row(p.rows, ly, x0, x1) : p.rows;
}

/** Where that row starts in it. */
function rowStart(p: SamplePlane, ly: number, vmax: number): number {
	return p.upsampler ? 0 : Math.floor((ly * p.v) / vmax) * p.stride;
}

/** Two rows of a subsampled plane, one output row lies between: `lower`'s weight is fy/256. */
export interface ChromaRows {
	upper: Uint8ClampedArray;
	upperAt: number;
	lower: Uint8ClampedArray;
	lowerAt: number;
	fy: number;
	/** Samples a row holds for the image's width. */
	readonly columns: number;
}

/**
 * Bilinear upsampling of a subsampled plane, one output row at a time, sample centres aligned
 * as JFIF places them. Above the first row of an MCU row it uses the last row of the previous one.
 */
export class Upsampler {
	private readonly out: Uint8ClampedArray;
	private readonly x0: Int32Array;
	private readonly x1: Int32Array;
	/** Weight of x1, 0..256. */
	private readonly fx: Int32Array;
	/** Chroma at half the horizontal resolution (4:2:0, 4:2:2): fixed weights, no per-pixel tables. */
	readonly halfWidth: boolean;
	private readonly previous: Uint8ClampedArray;
	private hasPrevious = false;
	/** The current pair of chroma rows blended vertically, one entry per chroma column. */
	private readonly blended: Int32Array;
	private readonly around: ChromaRows;

	constructor(
		width: number,
		h: number,
		private readonly v: number,
		hmax: number,
		private readonly vmax: number,
		private readonly stride: number,
		private readonly block = 8,
	) {
		const columns = Math.ceil((width * h) / hmax);
		this.halfWidth = h * 2 === hmax;
		// Blends of 0..255 stay in range. The half-width path writes pixels in pairs.
		this.out = new Uint8ClampedArray(this.halfWidth ? columns * 2 : width);
		this.x0 = new Int32Array(width);
		this.x1 = new Int32Array(width);
		this.fx = new Int32Array(width);
		for (let x = 0; x < width; x++) {
			const cx = Math.max(0, ((x + 0.5) * h) / hmax - 0.5);
			this.x0[x] = Math.min(columns - 1, Math.floor(cx));
			this.x1[x] = Math.min(columns - 1, Math.floor(cx) + 1);
			this.fx[x] = Math.round((cx - Math.floor(cx)) * 256);
		}
		this.previous = new Uint8ClampedArray(stride);
		this.blended = new Int32Array(columns);
		this.around = { upper: this.previous, upperAt: 0, lower: this.previous, lowerAt: 0, fy: 0, columns };
	}

	/** Output row `ly` of the MCU row, valid for pixels x0..x1 (only their chroma columns and one either side are read). */
	row(rows: Uint8ClampedArray, ly: number, x0: number, x1: number): Uint8ClampedArray {
		const { out } = this;
		const blended = this.blend(rows, ly, x0, x1);
		const end = blended.length - 1;
		if (this.halfWidth) {
			// Pixels 2i and 2i+1 lie a quarter of a chroma column either side of column i: weights 3/4
			// and 1/4, the same as the general path below computes for them (×256·4 → 2^10).
			for (let i = x0 >> 1; i <= Math.min(end, (x1 - 1) >> 1); i++) {
				const here = blended[i]! * 3 + 512;
				out[2 * i] = (here + blended[i > 0 ? i - 1 : 0]!) >> 10;
				out[2 * i + 1] = (here + blended[i < end ? i + 1 : end]!) >> 10;
			}
			return out;
		}
		const { fx } = this;
		const left = this.x0;
		const right = this.x1;
		for (let x = x0; x < x1; x++) {
			const w = fx[x]!;
			out[x] = (blended[left[x]!]! * (256 - w) + blended[right[x]!]! * w + 32768) >> 16;
		}
		return out;
	}

	/**
	 * The two chroma rows around output row `ly` and the lower one's weight: above the first chroma
	 * row of this MCU row lies the last one of the previous MCU row. The same object every call.
	 */
	rowsAround(rows: Uint8ClampedArray, ly: number): ChromaRows {
		const last = this.v * this.block - 1;
		const cy = ((ly + 0.5) * this.v) / this.vmax - 0.5;
		const top = Math.floor(cy);
		const around = this.around;
		around.upper = top < 0 && this.hasPrevious ? this.previous : rows;
		around.upperAt = top < 0 ? 0 : Math.min(last, top) * this.stride;
		around.lower = rows;
		around.lowerAt = Math.min(last, top + 1) * this.stride;
		around.fy = Math.round((cy - top) * 256);
		return around;
	}

	/**
	 * The two chroma rows around output row `ly` blended vertically (×256), one entry per chroma
	 * column, valid for the columns pixels x0..x1 take and one either side.
	 */
	private blend(rows: Uint8ClampedArray, ly: number, x0: number, x1: number): Int32Array {
		const { upper, upperAt, lower, lowerAt, fy } = this.rowsAround(rows, ly);
		const { blended } = this;
		const end = blended.length - 1;
		// The chroma columns pixels x0..x1 take: each pixel's pair, or its column and both neighbours.
		const firstColumn = this.halfWidth ? x0 >> 1 : this.x0[x0]!;
		const lastColumn = this.halfWidth ? (x1 - 1) >> 1 : this.x1[x1 - 1]!;
		const from = Math.max(0, firstColumn - 1);
		const to = Math.min(end, lastColumn + 1);
		for (let i = from; i <= to; i++) blended[i] = upper[upperAt + i]! * (256 - fy) + lower[lowerAt + i]! * fy;
		return blended;
	}

	keepLastRow(rows: Uint8ClampedArray): void {
		const last = this.v * this.block - 1;
		this.previous.set(rows.subarray(last * this.stride, (last + 1) * this.stride));
		this.hasPrevious = true;
	}
}
