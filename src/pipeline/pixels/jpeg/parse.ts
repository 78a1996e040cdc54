import { JpegFormatError, JpegUnsupported } from "./errors";
import { HuffmanTable } from "./huffman";

export interface Component {
	id: number;
	h: number;
	v: number;
	quant: number;
	/** Tables of the scan, set when the scan header is read. */
	dc?: HuffmanTable;
	ac?: HuffmanTable;
}

export interface Frame {
	width: number;
	height: number;
	components: Component[];
	/** Quantisation tables, in zigzag order, by id. */
	quant: Int32Array[];
	restartInterval: number;
	/** Adobe APP14 transform flag: 0 means 3-component data is RGB, not YCbCr. */
	adobeTransform?: number;
	/** Offset of the entropy-coded data of the (single) scan. */
	scanStart: number;
}

/**
 * Reads the markers up to the first scan: quantisation and Huffman tables, the frame header, the
 * restart interval, and the scan header. Only baseline and extended sequential Huffman 8-bit
 * frames whose first scan carries every component are accepted; anything else is JpegUnsupported.
 */
export function parseJpeg(bytes: Uint8Array): Frame {
	if (bytes[0] !== 0xff || bytes[1] !== 0xd8) throw new JpegFormatError("no SOI");
	const quant: Int32Array[] = [];
	const dcTables: HuffmanTable[] = [];
	const acTables: HuffmanTable[] = [];
	let frame: Omit<Frame, "scanStart"> | undefined;
	let restartInterval = 0;
	let adobeTransform: number | undefined;
	let at = 2;
	for (;;) {
		if (at + 4 > bytes.length) throw new JpegFormatError("ends before the scan");
		if (bytes[at] !== 0xff) throw new JpegFormatError("marker expected");
		const marker = bytes[at + 1]!;
		if (marker === 0xff) {
			at++;
			continue;
		}
		const length = (bytes[at + 2]! << 8) | bytes[at + 3]!;
		const end = at + 2 + length;
		if (length < 2 || end > bytes.length) throw new JpegFormatError("segment runs past the end");
		const seg = bytes.subarray(at + 4, end);
		if (marker === 0xdb) readQuant(seg, quant);
		else if (marker === 0xc4) readHuffman(seg, dcTables, acTables);
		else if (marker === 0xdd) restartInterval = (seg[0]! << 8) | seg[1]!;
		else if (marker === 0xee && seg.length >= 12 && String.fromCharCode(...seg.subarray(0, 5)) === "Adobe")
			adobeTransform = seg[11];
		else if (marker === 0xc0 || marker === 0xc1) frame = readFrame(seg, quant);
		else if (marker >= 0xc2 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
			throw new JpegUnsupported(`frame type ${marker.toString(16)}`);
		else if (marker === 0xda) {
			if (!frame) throw new JpegFormatError("scan before frame header");
			readScan(seg, frame.components, dcTables, acTables);
			return { ...frame, quant, restartInterval, adobeTransform, scanStart: end };
		} else if (marker === 0xd9) throw new JpegFormatError("no scan");
		at = end;
	}
}

function readQuant(seg: Uint8Array, quant: Int32Array[]): void {
	for (let at = 0; at < seg.length; ) {
		const precision = seg[at]! >> 4;
		const id = seg[at]! & 15;
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

function readFrame(seg: Uint8Array, quant: Int32Array[]): Omit<Frame, "scanStart"> {
	if (seg[0] !== 8) throw new JpegUnsupported("not 8-bit");
	const height = (seg[1]! << 8) | seg[2]!;
	const width = (seg[3]! << 8) | seg[4]!;
	const count = seg[5]!;
	if (count !== 1 && count !== 3) throw new JpegUnsupported(`${count} components`);
	if (width === 0 || height === 0) throw new JpegUnsupported("height given by DNL");
	const components: Component[] = [];
	for (let i = 0; i < count; i++) {
		const at = 6 + i * 3;
		const h = seg[at + 1]! >> 4;
		const v = seg[at + 1]! & 15;
		if (h < 1 || h > 4 || v < 1 || v > 4) throw new JpegFormatError("bad sampling factors");
		components.push({ id: seg[at]!, h, v, quant: seg[at + 2]! });
	}
	return { width, height, components, quant, restartInterval: 0 };
}

function readScan(seg: Uint8Array, components: Component[], dc: HuffmanTable[], ac: HuffmanTable[]): void {
	const count = seg[0]!;
	// Streaming needs every component in the first scan (one interleaved scan).
	if (count !== components.length) throw new JpegUnsupported("components in separate scans");
	for (let i = 0; i < count; i++) {
		const id = seg[1 + i * 2]!;
		const tables = seg[2 + i * 2]!;
		const component = components.find((c) => c.id === id);
		if (!component) throw new JpegFormatError("scan names an unknown component");
		component.dc = dc[tables >> 4];
		component.ac = ac[tables & 15];
		if (!component.dc || !component.ac) throw new JpegFormatError("scan uses an undefined Huffman table");
	}
}
