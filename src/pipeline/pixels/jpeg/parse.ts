import { JpegFormatError, JpegUnsupported, unsupportedFrame } from "./errors";
import { HuffmanTable } from "./huffman";

export interface Component {
	id: number;
	/** Position in the frame header. */
	index: number;
	h: number;
	v: number;
	quant: number;
	/** Tables of the current scan, set when its header is read. */
	dc?: HuffmanTable;
	ac?: HuffmanTable;
}

export interface Frame {
	width: number;
	height: number;
	components: Component[];
	/** SOF2: the coefficients arrive over several scans. */
	progressive: boolean;
}

/** What the segments between scans define; later segments replace earlier ones. */
export interface Tables {
	/** Quantisation tables, in zigzag order, by id. */
	quant: Int32Array[];
	dc: HuffmanTable[];
	ac: HuffmanTable[];
	restartInterval: number;
	/** Adobe APP14 transform flag: 0 means 3-component data is RGB, not YCbCr. */
	adobeTransform?: number;
}

export interface Scan {
	/** In scan order; more than one means the blocks are interleaved in MCUs. */
	components: Component[];
	/** Spectral selection: the zigzag range of coefficients this scan carries (0..63 when sequential). */
	ss: number;
	se: number;
	/** Successive approximation: bit position of the previous scan of this range (0: first scan), and of this one. */
	ah: number;
	al: number;
	/** Offset of the scan's entropy-coded data. */
	start: number;
}

export interface Headers {
	frame: Frame;
	tables: Tables;
	scan: Scan;
}

/**
 * Reads the markers up to the first scan: tables, the frame header, the restart interval and the
 * scan header. Baseline, extended sequential and progressive Huffman 8-bit frames of one or three
 * components are accepted; anything else (arithmetic coding, lossless, 12-bit, CMYK) is
 * JpegUnsupported.
 */
export function parseJpeg(bytes: Uint8Array): Headers {
	if (bytes[0] !== 0xff || bytes[1] !== 0xd8) throw new JpegFormatError("no SOI");
	const tables: Tables = { quant: [], dc: [], ac: [], restartInterval: 0 };
	const state: { frame?: Frame } = {};
	const scan = readUntilScan(bytes, 2, tables, state);
	if (!scan || !state.frame) throw new JpegFormatError("no scan");
	return { frame: state.frame, tables, scan };
}

/**
 * The next scan after the entropy-coded data that ends at or after `from`, reading the tables
 * defined before it; undefined at the end of the image. Data that ends without EOI is cut short.
 */
export function nextScan(bytes: Uint8Array, from: number, frame: Frame, tables: Tables): Scan | undefined {
	let at = from;
	// Step over the rest of the entropy-coded data: stuffed zeros, restart markers and fill bytes.
	while (at + 1 < bytes.length) {
		const next = bytes[at + 1]!;
		if (bytes[at] === 0xff && next !== 0 && next !== 0xff && (next < 0xd0 || next > 0xd7)) break;
		at++;
	}
	return readUntilScan(bytes, at, tables, { frame });
}

function readUntilScan(bytes: Uint8Array, from: number, tables: Tables, state: { frame?: Frame }): Scan | undefined {
	let at = from;
	for (;;) {
		if (at + 2 > bytes.length) throw new JpegFormatError("data ends before the end of the image");
		if (bytes[at] !== 0xff) throw new JpegFormatError("marker expected");
		const marker = bytes[at + 1]!;
		if (marker === 0xff) {
			at++;
			continue;
		}
		if (marker === 0xd9) return undefined;
		if (at + 4 > bytes.length) throw new JpegFormatError("data ends before the end of the image");
		const length = (bytes[at + 2]! << 8) | bytes[at + 3]!;
		const end = at + 2 + length;
		if (length < 2 || end > bytes.length) throw new JpegFormatError("segment runs past the end");
		const seg = bytes.subarray(at + 4, end);
		if (marker === 0xdb) readQuant(seg, tables.quant);
		else if (marker === 0xc4) readHuffman(seg, tables.dc, tables.ac);
		else if (marker === 0xdd) tables.restartInterval = (seg[0]! << 8) | seg[1]!;
		else if (marker === 0xee && seg.length >= 12 && String.fromCharCode(...seg.subarray(0, 5)) === "Adobe")
			tables.adobeTransform = seg[11];
		else if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
			const unsupported = unsupportedFrame(marker, seg);
			if (unsupported) throw new JpegUnsupported(unsupported);
			if (state.frame) throw new JpegFormatError("second frame header");
			state.frame = readFrame(seg, marker === 0xc2);
		} else if (marker === 0xda) {
			if (!state.frame) throw new JpegFormatError("scan before frame header");
			return readScan(seg, state.frame, tables, end);
		}
		at = end;
	}
}

function readQuant(seg: Uint8Array, quant: Int32Array[]): void {
	for (let at = 0; at < seg.length; ) {
		const precision = seg[at]! >> 4;
		const id = seg[at]! & 15;
		if (at + 1 + 64 * (precision ? 2 : 1) > seg.length) throw new JpegFormatError("short quantisation table");
		const table = new Int32Array(64);
		for (let k = 0; k < 64; k++) {
			table[k] = precision ? (seg[at + 1 + 2 * k]! << 8) | seg[at + 2 + 2 * k]! : seg[at + 1 + k]!;
		}
		quant[id] = table;
		at += 1 + 64 * (precision ? 2 : 1);
	}
}

function readHuffman(seg: Uint8Array, dc: HuffmanTable[], ac: HuffmanTable[]): void {
	for (let at = 0; at < seg.length; ) {
		const tableClass = seg[at]! >> 4;
		const id = seg[at]! & 15;
		const counts = seg.subarray(at + 1, at + 17);
		const total = counts.reduce((a, b) => a + b, 0);
		const symbols = seg.subarray(at + 17, at + 17 + total);
		if (symbols.length < total) throw new JpegFormatError("short Huffman table");
		(tableClass === 0 ? dc : ac)[id] = new HuffmanTable(counts, symbols);
		at += 17 + total;
	}
}

function readFrame(seg: Uint8Array, progressive: boolean): Frame {
	const height = (seg[1]! << 8) | seg[2]!;
	const width = (seg[3]! << 8) | seg[4]!;
	const count = seg[5]!;
	if (width === 0 || height === 0) throw new JpegUnsupported("height given by DNL");
	if (seg.length < 6 + count * 3) throw new JpegFormatError("short frame header");
	const components: Component[] = [];
	for (let i = 0; i < count; i++) {
		const at = 6 + i * 3;
		const h = seg[at + 1]! >> 4;
		const v = seg[at + 1]! & 15;
		if (h < 1 || h > 4 || v < 1 || v > 4) throw new JpegFormatError("bad sampling factors");
		components.push({ id: seg[at]!, index: i, h, v, quant: seg[at + 2]! });
	}
	return { width, height, components, progressive };
}

function readScan(seg: Uint8Array, frame: Frame, tables: Tables, start: number): Scan {
	const count = seg[0]!;
	if (count < 1 || count > 4 || seg.length < 4 + count * 2) throw new JpegFormatError("bad scan header");
	const components: Component[] = [];
	for (let i = 0; i < count; i++) {
		const id = seg[1 + i * 2]!;
		const ids = seg[2 + i * 2]!;
		const component = frame.components.find((c) => c.id === id);
		if (!component || components.includes(component)) throw new JpegFormatError("scan names an unknown component");
		component.dc = tables.dc[ids >> 4];
		component.ac = tables.ac[ids & 15];
		components.push(component);
	}
	const at = 1 + count * 2;
	const ss = seg[at]!;
	const se = seg[at + 1]!;
	const ah = seg[at + 2]! >> 4;
	const al = seg[at + 2]! & 15;
	const sequential = !frame.progressive;
	if (sequential ? ss !== 0 || se !== 63 || ah !== 0 || al !== 0 : ss > se || se > 63 || (ss === 0) !== (se === 0))
		throw new JpegFormatError("bad spectral selection");
	if (frame.progressive && ss > 0 && count !== 1) throw new JpegFormatError("interleaved AC scan");
	if (al > 13 || ah > 13) throw new JpegFormatError("bad successive approximation");
	// Tables a scan does not decode with may be left undefined (AC in a DC scan, DC in an AC or refining scan).
	for (const c of components) {
		const needsDc = ss === 0 && ah === 0;
		const needsAc = se > 0;
		if ((needsDc && !c.dc) || (needsAc && !c.ac)) throw new JpegFormatError("scan uses an undefined Huffman table");
	}
	return { components, ss, se, ah, al, start };
}
