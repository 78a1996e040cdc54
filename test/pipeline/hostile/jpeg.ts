import { join, u16be } from "./bytes";

/** JPEG pieces: enough to build files whose every scan decodes from zero bits (flat grey blocks). */

export const SOI = [0xff, 0xd8];
export const EOI = [0xff, 0xd9];

export function segment(marker: number, body: number[]): number[] {
	return [0xff, marker, ...u16be(body.length + 2), ...body];
}

/** Quantisation table 0, all ones. */
export const DQT = segment(0xdb, [0, ...Array(64).fill(1)]);

/**
 * DC table 0: one code, "0", for category 0. AC table 0: two-bit codes "00" EOB, "01" EOBRUN of
 * 2^6 + 6 bits, "10" EOBRUN of 2^14 + 14 bits. Zero bits decode as empty blocks everywhere.
 */
export const DHT_DC = segment(0xc4, [0x00, 1, ...Array(15).fill(0), 0x00]);
export const DHT = [...DHT_DC, ...segment(0xc4, [0x10, 0, 3, ...Array(14).fill(0), 0x00, 0x60, 0xe0])];

/** A frame header: SOFn, `sampling` as h<<4|v per component (ids 1, 2, 3...), quantisation table 0. */
export function sof(marker: number, width: number, height: number, sampling: number[], precision = 8): number[] {
	const components = sampling.flatMap((hv, i) => [i + 1, hv, 0]);
	return segment(marker, [precision, ...u16be(height), ...u16be(width), sampling.length, ...components]);
}

/** A scan header over components `ids`, tables 0. */
export function sos(ids: number[], ss = 0, se = 63, ah = 0, al = 0): number[] {
	return segment(0xda, [ids.length, ...ids.flatMap((id) => [id, 0x00]), ss, se, (ah << 4) | al]);
}

export const zeros = (count: number) => new Uint8Array(count);

/** A whole JPEG: headers, then each scan header followed by its entropy-coded bytes. */
export function jpeg(headers: number[], scans: [number[], Uint8Array][]): Uint8Array {
	return join([SOI, headers, ...scans.flat(), EOI]);
}

/** Blocks of a grey frame (one 8x8 block per MCU). */
export const greyBlocks = (width: number, height: number) => Math.ceil(width / 8) * Math.ceil(height / 8);

/** APP1 with an EXIF block whose IFD0 holds one tag, Orientation. */
export function exifSegment(orientation: number): number[] {
	const tiff = [0x4d, 0x4d, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0, 0, 0, 0, 0];
	return segment(0xe1, [0x45, 0x78, 0x69, 0x66, 0, 0, ...tiff]);
}

/**
 * A JPEG of `width` x `height` whose scans (`scans`: component ids per scan) decode from zero bits:
 * `marker` 0xc0 sequential, 0xc2 progressive (each scan then a DC scan); `extra` segments go first.
 */
export function zeroJpeg(
	marker: number,
	width: number,
	height: number,
	sampling: number[],
	scans: number[][],
	extra: number[] = [],
): Uint8Array {
	// Three bits a block (DC "0", AC end of block "00"), for up to 16 blocks per 8x8 pixels of each component.
	const data = (ids: number[]) => zeros(Math.ceil((greyBlocks(width, height) * ids.length * 16 * 3) / 8));
	return jpeg(
		[...extra, ...DQT, ...DHT, ...sof(marker, width, height, sampling)],
		scans.map((ids) => [marker === 0xc2 ? sos(ids, 0, 0) : sos(ids), data(ids)]),
	);
}
