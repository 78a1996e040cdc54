import { JpegFormatError } from "./errors";
import { exifOrientation } from "./exif";
import { HuffmanTable } from "./huffman";

export interface Component {
	id: number;
	/** Position in the frame header. */
	index: number;
	h: number;
	v: number;
	quantId: number;
	/** Table `quantId` (zigzag order) as it stood at the component's first scan, which is when decoders latch it. */
	quant?: Int32Array;
}

export interface Frame {
	/** The SOFn marker: 0xc0 baseline, 0xc1 extended, 0xc2 progressive, 0xc3 lossless. */
	marker: number;
	precision: number;
	width: number;
	height: number;
	components: Component[];
	/** SOF2: the coefficients arrive over several scans. */
	progressive: boolean;
}

export interface Scan {
	/** In scan order; more than one means the blocks are interleaved in MCUs. */
	components: Component[];
	/** Each scan component's Huffman tables, as defined when the scan began (undefined when the scan does not code with it). */
	dc: (HuffmanTable | undefined)[];
	ac: (HuffmanTable | undefined)[];
	/** Spectral selection: the zigzag range of coefficients this scan carries (0..63 when sequential). */
	ss: number;
	se: number;
	/** Successive approximation: bit position of the previous scan of this range (0: first scan), and of this one. */
	ah: number;
	al: number;
	restartInterval: number;
	/** The entropy-coded data: from `start` up to the marker that ends it at `end`. */
	start: number;
	end: number;
}

/** Who decodes a frame: our decoder, or photon for the kinds only it takes (CMYK, lossless). */
export type JpegDecoder = "ours" | "photon";

/** Everything one walk over a JPEG found, from SOI to EOI: what the decoder decodes. */
export interface JpegContainer {
	frame: Frame;
	scans: Scan[];
	decoder: JpegDecoder;
	/** EXIF orientation, 1 (as stored) to 8. */
	orientation: number;
	/** Adobe APP14 transform flag: 0 means 3-component data is RGB, not YCbCr. */
	adobeTransform?: number;
	/** Work the scans and the output ask for, in block-coefficient visits (see `scanWork`). */
	work: number;
}

/**
 * Work a file may ask for, per block of its MCU grid: 12 passes over every coefficient. A
 * baseline file needs 2 (decode, then IDCT and colour), libjpeg's progressive script about 4.
 */
const WORK_PER_BLOCK = 12 * 64;
/** Each scan costs this much besides its blocks (its header, tables, a pass over its data), and the file gets 64 scans' worth free. */
const WORK_PER_SCAN = 64;
const FREE_WORK = 64 * WORK_PER_SCAN;
/**
 * Quantisation and Huffman tables one file may define: a real one defines a few per scan. Each is
 * built as it is read (about 5 us), and a file of 100,000 table segments would take half a second.
 */
const MAX_TABLES = 512;
/** ITU T.81 B.2.3: an interleaved scan's MCU holds at most 10 blocks. */
const MAX_BLOCKS_PER_MCU = 10;
/** An end-of-band run codes at most this many blocks with one symbol (EOB14 and 14 bits). */
const MAX_EOB_RUN = 32767;

/**
 * Walks a JPEG's markers from SOI to EOI, through the entropy-coded data of every scan, reading
 * every table, frame and scan header once, the way the decoder will use them. Refused here,
 * before any pixel is decoded (JpegFormatError):
 * - what nobody here decodes: arithmetic coding, hierarchical frames, 12-bit DCT, 2 components;
 * - markers a reader could take two ways: RSTn, TEM or a second SOI between segments, a second
 *   frame header, DNL, reserved markers;
 * - structure that is cut short or broken: a segment past the end, no EOI, a scan before the
 *   frame or naming tables not yet defined, fewer restart markers than its interval needs, or less
 *   entropy-coded data than its blocks need at the shortest codes (so a file of empty scans for a
 *   large frame is refused, not decoded);
 * - progressions that cannot be: a coefficient's first scan twice, a refinement that does not
 *   follow the previous bit, a sequential component in two scans or in none;
 * - more work than the frame's blocks justify (`WORK_PER_BLOCK`): thousands of scans over a large
 *   frame, each walking every block.
 * Trailing bytes after EOI are ignored, as decoders do. `onFrame` sees the frame header as soon as
 * it is read, before the scans are walked, with the EXIF orientation read before it (1 if none).
 */
export function readJpegContainer(
	bytes: Uint8Array,
	onFrame?: (frame: Frame, orientation: number) => void,
): JpegContainer {
	if (bytes[0] !== 0xff || bytes[1] !== 0xd8) throw new JpegFormatError("no SOI");
	const walk = new Walk(bytes, onFrame);
	for (let at = 2; ; ) {
		if (at >= bytes.length || bytes[at] !== 0xff) throw new JpegFormatError("marker expected");
		while (bytes[at + 1] === 0xff) at++; // fill bytes
		if (at + 2 > bytes.length) throw new JpegFormatError("the file ends before EOI");
		const marker = bytes[at + 1]!;
		if (marker === 0xd9) return walk.finish();
		if (marker === 0x00 || marker === 0x01 || marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7)) {
			throw new JpegFormatError(`marker ${hex(marker)} where a segment should start`);
		}
		if (at + 4 > bytes.length) throw new JpegFormatError("the file ends before EOI");
		const length = (bytes[at + 2]! << 8) | bytes[at + 3]!;
		const end = at + 2 + length;
		if (length < 2 || end > bytes.length) throw new JpegFormatError("segment runs past the end");
		at = walk.segment(marker, bytes.subarray(at + 4, end), end);
	}
}

/** The state of one walk: tables as defined so far, the frame, the scans. */
class Walk {
	private readonly quant: (Int32Array | undefined)[] = [];
	private readonly dc: (HuffmanTable | undefined)[] = [];
	private readonly ac: (HuffmanTable | undefined)[] = [];
	private restartInterval = 0;
	private frame?: Frame;
	private decoder: JpegDecoder = "ours";
	private readonly scans: Scan[] = [];
	private orientation = 0;
	private adobeTransform?: number;
	private work = 0;
	private allowedWork = 0;
	/** Per component, per coefficient (zigzag index): the bit the last scan stopped at, -1 before the first. */
	private coefficientBits: Int8Array[] = [];
	/** Sequential frames: how many scans carried each component. */
	private scansOf: number[] = [];
	private tables = 0;

	constructor(
		private readonly bytes: Uint8Array,
		private readonly onFrame?: (frame: Frame, orientation: number) => void,
	) {}

	/** Reads one segment; returns where the next marker is. */
	segment(marker: number, seg: Uint8Array, end: number): number {
		if (marker === 0xda) return this.scan(seg, end);
		if (marker === 0xc4 || marker === 0xdb) {
			this.tables += marker === 0xc4 ? readHuffman(seg, this.dc, this.ac) : readQuant(seg, this.quant);
			if (this.tables > MAX_TABLES) throw new JpegFormatError("more tables than any image needs");
		} else if (marker === 0xdd) {
			if (seg.length !== 2) throw new JpegFormatError("DRI is not 4 bytes");
			this.restartInterval = (seg[0]! << 8) | seg[1]!;
		} else if (isFrameMarker(marker)) this.readFrame(marker, seg);
		else if (marker === 0xe1 && this.orientation === 0 && isExif(seg)) {
			this.orientation = exifOrientation(seg.subarray(6)) ?? 1;
		} else if (marker === 0xee && seg.length >= 12 && String.fromCharCode(...seg.subarray(0, 5)) === "Adobe") {
			this.adobeTransform = seg[11];
		} else if (marker === 0xcc) throw new JpegFormatError("arithmetic coding (DAC)");
		else if (marker === 0xdc) throw new JpegFormatError("DNL: the height comes after the first scan");
		else if (marker === 0xde || marker === 0xdf) throw new JpegFormatError("hierarchical coding");
		else if (marker < 0xc0) throw new JpegFormatError(`reserved marker ${hex(marker)}`);
		// APPn, COM and JPGn (0xf0-0xfd) carry nothing the pixels need.
		return end;
	}

	private readFrame(marker: number, seg: Uint8Array): void {
		if (this.frame) throw new JpegFormatError("second frame header");
		if (marker >= 0xc5) throw new JpegFormatError(`frame type ${hex(marker)} (hierarchical or arithmetic)`);
		if (seg.length < 6) throw new JpegFormatError("short frame header");
		const precision = seg[0]!;
		const height = (seg[1]! << 8) | seg[2]!;
		const width = (seg[3]! << 8) | seg[4]!;
		const count = seg[5]!;
		if (seg.length !== 6 + count * 3) throw new JpegFormatError("frame header length does not match its components");
		if (width === 0) throw new JpegFormatError("zero width");
		if (height === 0) throw new JpegFormatError("DNL: the height comes after the first scan");
		this.decoder = frameDecoder(marker, precision, count);
		const components: Component[] = [];
		for (let i = 0; i < count; i++) {
			const at = 6 + i * 3;
			const h = seg[at + 1]! >> 4;
			const v = seg[at + 1]! & 15;
			if (h < 1 || h > 4 || v < 1 || v > 4) throw new JpegFormatError("bad sampling factors");
			if (components.some((c) => c.id === seg[at])) throw new JpegFormatError("two components with one id");
			if (seg[at + 2]! > 3) throw new JpegFormatError("bad quantisation table id");
			components.push({ id: seg[at]!, index: i, h, v, quantId: seg[at + 2]! });
		}
		this.frame = { marker, precision, width, height, components, progressive: marker === 0xc2 };
		this.coefficientBits = components.map(() => new Int8Array(64).fill(-1));
		this.scansOf = components.map(() => 0);
		this.allowedWork = WORK_PER_BLOCK * frameBlocks(this.frame) + FREE_WORK;
		this.work = 64 * frameBlocks(this.frame); // the IDCT and colour output of every block
		this.onFrame?.(this.frame, this.orientation || 1);
	}

	private scan(seg: Uint8Array, end: number): number {
		const frame = this.frame;
		if (!frame) throw new JpegFormatError("scan before the frame header");
		const count = seg[0] ?? 0;
		if (count < 1 || count > 4 || seg.length !== 4 + count * 2) throw new JpegFormatError("bad scan header");
		const ss = seg[1 + count * 2]!;
		const se = seg[2 + count * 2]!;
		const ah = seg[3 + count * 2]! >> 4;
		const al = seg[3 + count * 2]! & 15;
		const components: Component[] = [];
		const dc: (HuffmanTable | undefined)[] = [];
		const ac: (HuffmanTable | undefined)[] = [];
		const lossless = frame.marker === 0xc3;
		const needsDc = ss === 0 && ah === 0;
		const needsAc = !lossless && se > 0;
		for (let i = 0; i < count; i++) {
			const component = frame.components.find((c) => c.id === seg[1 + i * 2]);
			if (!component || components.includes(component)) throw new JpegFormatError("scan names an unknown component");
			const ids = seg[2 + i * 2]!;
			const dcTable = needsDc || lossless ? this.dc[ids >> 4] : undefined;
			const acTable = needsAc ? this.ac[ids & 15] : undefined;
			if (((needsDc || lossless) && !dcTable) || (needsAc && !acTable)) {
				throw new JpegFormatError("scan uses an undefined Huffman table");
			}
			components.push(component);
			dc.push(dcTable);
			ac.push(acTable);
		}
		this.checkProgression(frame, components, ss, se, ah, al);
		if (!lossless) this.latchQuantTables(components);
		const dataEnd = this.skipEntropyData(end);
		const scan: Scan = {
			components,
			dc,
			ac,
			ss,
			se,
			ah,
			al,
			restartInterval: this.restartInterval,
			start: end,
			end: dataEnd.end,
		};
		this.checkScanData(frame, scan, dataEnd.restarts);
		this.work += WORK_PER_SCAN + scanBlocks(frame, scan) * (lossless ? 1 : 1 + se - ss + 1);
		if (this.work > this.allowedWork) throw new JpegFormatError("more scans than the frame's blocks justify");
		this.scans.push(scan);
		return dataEnd.end;
	}

	/** ITU T.81 G.1.1.1: every coefficient gets one first scan, then one scan per further bit, in order. */
	private checkProgression(
		frame: Frame,
		components: Component[],
		ss: number,
		se: number,
		ah: number,
		al: number,
	): void {
		if (!frame.progressive) {
			const lossless = frame.marker === 0xc3;
			if (
				lossless
					? ss < 1 || ss > 7 || se !== 0 || ah !== 0 || al >= frame.precision
					: ss !== 0 || se !== 63 || ah !== 0 || al !== 0
			) {
				throw new JpegFormatError("bad spectral selection or approximation in a sequential scan");
			}
			for (const c of components) {
				if (this.scansOf[c.index]!++ > 0) throw new JpegFormatError("a sequential component in two scans");
			}
		} else {
			if (ss > se || se > 63 || (ss === 0) !== (se === 0)) throw new JpegFormatError("bad spectral selection");
			if (ss > 0 && components.length !== 1) throw new JpegFormatError("interleaved AC scan");
			if (al > 13 || (ah !== 0 && ah !== al + 1)) throw new JpegFormatError("bad successive approximation");
			for (const c of components) {
				const bits = this.coefficientBits[c.index]!;
				for (let k = ss; k <= se; k++) {
					if (ah === 0 ? bits[k] !== -1 : bits[k] !== ah) throw new JpegFormatError("scan out of progression order");
					bits[k] = al;
				}
			}
		}
		if (components.length > 1 && components.reduce((n, c) => n + c.h * c.v, 0) > MAX_BLOCKS_PER_MCU) {
			throw new JpegFormatError("more than 10 blocks in an MCU");
		}
	}

	/** Decoders take each component's quantisation table as it stands at the component's first scan. */
	private latchQuantTables(components: Component[]): void {
		for (const c of components) {
			if (c.quant) continue;
			c.quant = this.quant[c.quantId];
			if (!c.quant) throw new JpegFormatError("undefined quantisation table");
		}
	}

	/**
	 * Steps over entropy-coded data from `from` to the marker that ends it (stuffed zeros and
	 * restart markers belong to the data; fill bytes before a marker do not), a memchr per 0xff.
	 */
	private skipEntropyData(from: number): { end: number; restarts: number } {
		const bytes = this.bytes;
		let restarts = 0;
		for (let at = from; ; ) {
			at = bytes.indexOf(0xff, at);
			if (at < 0 || at + 1 >= bytes.length) throw new JpegFormatError("scan data runs to the end of the file");
			const next = bytes[at + 1]!;
			if (next === 0x00) at += 2;
			else if (next >= 0xd0 && next <= 0xd7) {
				restarts++;
				at += 2;
			} else if (next === 0xff) at += 1;
			else return { end: at, restarts };
		}
	}

	/** Enough restart markers for the interval, and at least the bits the blocks need at the shortest codes. */
	private checkScanData(frame: Frame, scan: Scan, restarts: number): void {
		const blocks = scanBlocks(frame, scan);
		const mcus = scan.components.length > 1 ? blocks / scan.components.reduce((n, c) => n + c.h * c.v, 0) : blocks;
		if (scan.restartInterval > 0 && restarts < Math.ceil(mcus / scan.restartInterval) - 1) {
			throw new JpegFormatError("fewer restart markers than the restart interval needs");
		}
		const bits = (scan.end - scan.start - 2 * restarts) * 8;
		if (bits < leastBits(frame, scan, blocks)) throw new JpegFormatError("scan data shorter than its blocks need");
	}

	finish(): JpegContainer {
		const frame = this.frame;
		if (!frame || this.scans.length === 0) throw new JpegFormatError("no frame or no scan before EOI");
		if (!frame.progressive && this.scansOf.some((n) => n === 0)) {
			throw new JpegFormatError("EOI before every component was sent");
		}
		return {
			frame,
			scans: this.scans,
			decoder: this.decoder,
			orientation: this.orientation || 1,
			adobeTransform: this.adobeTransform,
			work: this.work,
		};
	}
}

/**
 * Our decoder takes Huffman-coded baseline, extended and progressive 8-bit frames of one or three
 * components; photon (jpeg-decoder) also takes four (CMYK, YCCK) and lossless frames of 8 bits, or
 * of 9 to 16 bits in grey. Tried on crafted files: photon traps on arithmetic coding, hierarchical
 * frames, 12-bit DCT and two components, so those are refused.
 */
function frameDecoder(marker: number, precision: number, components: number): JpegDecoder {
	if (marker === 0xc3) {
		if (
			(precision === 8 && components !== 2 && components <= 4) ||
			(components === 1 && precision > 8 && precision <= 16)
		) {
			return "photon";
		}
		throw new JpegFormatError(`lossless ${precision}-bit frame of ${components} components`);
	}
	if (precision !== 8) throw new JpegFormatError(`${precision}-bit DCT frame`);
	if (components === 1 || components === 3) return "ours";
	if (components === 4) return "photon";
	throw new JpegFormatError(`${components} components`);
}

function isFrameMarker(marker: number): boolean {
	return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

function isExif(seg: Uint8Array): boolean {
	return seg[0] === 0x45 && seg[1] === 0x78 && seg[2] === 0x69 && seg[3] === 0x66 && seg[4] === 0 && seg[5] === 0;
}

function hex(marker: number): string {
	return `ff${marker.toString(16).padStart(2, "0")}`;
}

/** The MCU grid: a single-component frame has one-block MCUs, whatever its factors say. */
export interface McuGrid {
	hmax: number;
	vmax: number;
	mcusX: number;
	mcusY: number;
	/** Each component's blocks per MCU, horizontally and vertically. */
	h: number[];
	v: number[];
}

/**
 * One sequential scan with every component: decoded as it streams, and its data can be entered at
 * a place an earlier decode wrote down.
 */
export function oneScan(jpeg: JpegContainer): boolean {
	return !jpeg.frame.progressive && jpeg.scans.length === 1;
}

export function mcuGrid(frame: Pick<Frame, "width" | "height" | "components">): McuGrid {
	const { width, height, components } = frame;
	const single = components.length === 1;
	const h = components.map((c) => (single ? 1 : c.h));
	const v = components.map((c) => (single ? 1 : c.v));
	const hmax = Math.max(...h);
	const vmax = Math.max(...v);
	return { hmax, vmax, mcusX: Math.ceil(width / (8 * hmax)), mcusY: Math.ceil(height / (8 * vmax)), h, v };
}

/** Blocks of the whole MCU grid, every component. */
function frameBlocks(frame: Frame): number {
	const grid = mcuGrid(frame);
	return grid.mcusX * grid.mcusY * grid.h.reduce((n, h, c) => n + h * grid.v[c]!, 0);
}

/**
 * Blocks a scan codes: an interleaved scan every block of its components' MCUs; a scan of one
 * component only the blocks that hold its samples (T.81 A.2.2). For a lossless frame, samples.
 */
function scanBlocks(frame: Frame, scan: Pick<Scan, "components">): number {
	const grid = mcuGrid(frame);
	if (frame.marker === 0xc3) {
		return scan.components.reduce(
			(n, c) => n + componentSize(frame, grid, c, 1).x * componentSize(frame, grid, c, 1).y,
			0,
		);
	}
	if (scan.components.length > 1) {
		return grid.mcusX * grid.mcusY * scan.components.reduce((n, c) => n + grid.h[c.index]! * grid.v[c.index]!, 0);
	}
	const { x, y } = componentSize(frame, grid, scan.components[0]!, 8);
	return x * y;
}

/** A component's samples, in units of `unit` (8 for blocks), rounded up. */
export function componentSize(frame: Frame, grid: McuGrid, c: Component, unit: number): { x: number; y: number } {
	return {
		x: Math.ceil(Math.ceil((frame.width * grid.h[c.index]!) / grid.hmax) / unit),
		y: Math.ceil(Math.ceil((frame.height * grid.v[c.index]!) / grid.vmax) / unit),
	};
}

/** The fewest bits a scan of `blocks` blocks can take, each symbol at its table's shortest code. */
function leastBits(frame: Frame, scan: Scan, blocks: number): number {
	const shortest = (tables: (HuffmanTable | undefined)[]) => Math.min(...tables.map((t) => t?.shortest ?? 1));
	if (frame.marker === 0xc3) return blocks * shortest(scan.dc);
	if (!frame.progressive) return blocks * (shortest(scan.dc) + shortest(scan.ac));
	if (scan.ss === 0) return scan.ah === 0 ? blocks * shortest(scan.dc) : blocks;
	return Math.ceil(blocks / MAX_EOB_RUN) * shortest(scan.ac);
}

/** Reads a DQT segment's tables; returns how many. */
function readQuant(seg: Uint8Array, quant: (Int32Array | undefined)[]): number {
	let count = 0;
	for (let at = 0; at < seg.length; count++) {
		const precision = seg[at]! >> 4;
		const id = seg[at]! & 15;
		if (precision > 1 || id > 3) throw new JpegFormatError("bad quantisation table header");
		if (at + 1 + 64 * (precision + 1) > seg.length) throw new JpegFormatError("short quantisation table");
		const table = new Int32Array(64);
		for (let k = 0; k < 64; k++) {
			table[k] = precision ? (seg[at + 1 + 2 * k]! << 8) | seg[at + 2 + 2 * k]! : seg[at + 1 + k]!;
		}
		quant[id] = table;
		at += 1 + 64 * (precision + 1);
	}
	return count;
}

/** Reads a DHT segment's tables; returns how many. */
function readHuffman(seg: Uint8Array, dc: (HuffmanTable | undefined)[], ac: (HuffmanTable | undefined)[]): number {
	let count = 0;
	for (let at = 0; at < seg.length; count++) {
		const tableClass = seg[at]! >> 4;
		const id = seg[at]! & 15;
		if (tableClass > 1 || id > 3) throw new JpegFormatError("bad Huffman table header");
		const counts = seg.subarray(at + 1, at + 17);
		if (counts.length < 16) throw new JpegFormatError("short Huffman table");
		const total = counts.reduce((a, b) => a + b, 0);
		if (total === 0 || total > 256) throw new JpegFormatError("Huffman table of no or too many symbols");
		const symbols = seg.subarray(at + 17, at + 17 + total);
		if (symbols.length < total) throw new JpegFormatError("short Huffman table");
		(tableClass === 0 ? dc : ac)[id] = new HuffmanTable(counts, symbols);
		at += 17 + total;
	}
	return count;
}
