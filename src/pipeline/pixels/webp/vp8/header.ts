import { BoolDecoder } from "./bool-decoder";
import { Vp8FormatError } from "./errors";
import { COEFF_UPDATE_PROBS, DEFAULT_COEFF_PROBS } from "./tables";

/** Bytes of the uncompressed key-frame chunk: frame tag (3), start code (3), width and height (2 each). */
const KEY_FRAME_HEADER_BYTES = 10;

export interface Segmentation {
	enabled: boolean;
	/** Each MB carries a segment id in the first partition. */
	updateMap: boolean;
	/** Segment values replace the frame's (true) or are added to them. */
	absolute: boolean;
	quantizer: Int32Array;
	filterLevel: Int32Array;
	/** Probabilities of the segment id tree. */
	treeProbs: Uint8Array;
}

export interface LoopFilterHeader {
	simple: boolean;
	level: number;
	sharpness: number;
	/** Level adjustments by reference frame and mode (§9.4); a key frame uses refDelta[0] and modeDelta[0]. */
	useDeltas: boolean;
	refDelta0: number;
	modeDelta0: number;
}

export interface QuantHeader {
	baseIndex: number;
	y1Dc: number;
	y2Dc: number;
	y2Ac: number;
	uvDc: number;
	uvAc: number;
}

export interface FrameHeader {
	width: number;
	height: number;
	/** The first partition: per-MB modes, after the frame header just read from it. */
	modes: BoolDecoder;
	/** The DCT token partitions; MB row r reads from partitions[r % length]. */
	partitions: BoolDecoder[];
	segmentation: Segmentation;
	filter: LoopFilterHeader;
	quant: QuantHeader;
	/** Token probabilities, DEFAULT_COEFF_PROBS with this frame's updates. */
	coeffProbs: Uint8Array;
	/** Probability that an MB has coefficients, or -1 if every MB codes them (no skip flag). */
	skipProb: number;
}

/** Reads the uncompressed chunk and the frame header of a VP8 key frame (RFC 6386 §9, §19.1-19.2). */
export function parseFrameHeader(vp8: Uint8Array): FrameHeader {
	if (vp8.length < KEY_FRAME_HEADER_BYTES) throw new Vp8FormatError("VP8 frame header is truncated");
	const tag = vp8[0]! | (vp8[1]! << 8) | (vp8[2]! << 16);
	if (tag & 1) throw new Vp8FormatError("VP8 frame is not a key frame");
	if (((tag >> 1) & 7) > 3) throw new Vp8FormatError("VP8 frame has an unknown version");
	if (!((tag >> 4) & 1)) throw new Vp8FormatError("VP8 frame is not meant to be shown");
	const firstPartitionSize = tag >>> 5;
	if (vp8[3] !== 0x9d || vp8[4] !== 0x01 || vp8[5] !== 0x2a) throw new Vp8FormatError("VP8 start code is missing");
	// The top two bits are an upscaling hint for players; decoders output the coded size.
	const width = (vp8[6]! | (vp8[7]! << 8)) & 0x3fff;
	const height = (vp8[8]! | (vp8[9]! << 8)) & 0x3fff;
	if (width === 0 || height === 0) throw new Vp8FormatError("VP8 frame has no pixels");
	const firstEnd = KEY_FRAME_HEADER_BYTES + firstPartitionSize;
	if (firstEnd > vp8.length) throw new Vp8FormatError("VP8 first partition is truncated");
	const br = new BoolDecoder(vp8, KEY_FRAME_HEADER_BYTES, firstEnd);

	br.bit(128); // colour space: only one is defined
	br.bit(128); // clamping type: reconstruction always clamps
	const segmentation = readSegmentation(br);
	const filter = readLoopFilter(br);
	const partitionCount = 1 << br.literal(2);
	const quant = readQuant(br);
	br.bit(128); // refresh_entropy_probs: meaningless for a single frame
	const coeffProbs = readCoeffProbs(br);
	const skipProb = br.bit(128) ? br.literal(8) : -1;
	br.checkNotTruncated();
	const partitions = splitPartitions(vp8, firstEnd, partitionCount);
	return { width, height, modes: br, partitions, segmentation, filter, quant, coeffProbs, skipProb };
}

function readSegmentation(br: BoolDecoder): Segmentation {
	const seg: Segmentation = {
		enabled: br.bit(128) === 1,
		updateMap: false,
		absolute: false,
		quantizer: new Int32Array(4),
		filterLevel: new Int32Array(4),
		treeProbs: new Uint8Array([255, 255, 255]),
	};
	if (!seg.enabled) return seg;
	seg.updateMap = br.bit(128) === 1;
	const updateData = br.bit(128) === 1;
	if (updateData) {
		seg.absolute = br.bit(128) === 1;
		for (let i = 0; i < 4; i++) seg.quantizer[i] = br.optionalSigned(7);
		for (let i = 0; i < 4; i++) seg.filterLevel[i] = br.optionalSigned(6);
	}
	if (seg.updateMap) {
		for (let i = 0; i < 3; i++) seg.treeProbs[i] = br.bit(128) ? br.literal(8) : 255;
	}
	return seg;
}

function readLoopFilter(br: BoolDecoder): LoopFilterHeader {
	const simple = br.bit(128) === 1;
	const level = br.literal(6);
	const sharpness = br.literal(3);
	const useDeltas = br.bit(128) === 1;
	let refDelta0 = 0;
	let modeDelta0 = 0;
	if (useDeltas && br.bit(128)) {
		// Four reference-frame deltas then four mode deltas; a key frame only needs the first of each.
		for (let i = 0; i < 4; i++) {
			const delta = br.optionalSigned(6);
			if (i === 0) refDelta0 = delta;
		}
		for (let i = 0; i < 4; i++) {
			const delta = br.optionalSigned(6);
			if (i === 0) modeDelta0 = delta;
		}
	}
	return { simple, level, sharpness, useDeltas, refDelta0, modeDelta0 };
}

function readQuant(br: BoolDecoder): QuantHeader {
	const baseIndex = br.literal(7);
	const y1Dc = br.optionalSigned(4);
	const y2Dc = br.optionalSigned(4);
	const y2Ac = br.optionalSigned(4);
	const uvDc = br.optionalSigned(4);
	const uvAc = br.optionalSigned(4);
	return { baseIndex, y1Dc, y2Dc, y2Ac, uvDc, uvAc };
}

/** §13.4: each probability may be replaced by an 8-bit literal, flagged at its own update probability. */
function readCoeffProbs(br: BoolDecoder): Uint8Array {
	const probs = DEFAULT_COEFF_PROBS.slice();
	for (let i = 0; i < probs.length; i++) {
		if (br.bit(COEFF_UPDATE_PROBS[i]!)) probs[i] = br.literal(8);
	}
	return probs;
}

/** §9.5: after the first partition, 3-byte little-endian sizes of all token partitions but the last. */
function splitPartitions(vp8: Uint8Array, start: number, count: number): BoolDecoder[] {
	const sizesBytes = 3 * (count - 1);
	let at = start + sizesBytes;
	if (at > vp8.length) throw new Vp8FormatError("VP8 partition table is truncated");
	const partitions: BoolDecoder[] = [];
	for (let p = 0; p < count; p++) {
		let end = vp8.length;
		if (p < count - 1) {
			const s = start + 3 * p;
			end = at + (vp8[s]! | (vp8[s + 1]! << 8) | (vp8[s + 2]! << 16));
			if (end > vp8.length) throw new Vp8FormatError("VP8 token partition is truncated");
		}
		partitions.push(new BoolDecoder(vp8, at, end));
		at = end;
	}
	return partitions;
}
