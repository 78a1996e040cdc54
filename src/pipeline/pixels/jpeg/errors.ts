/** A JPEG this decoder does not handle (progressive, arithmetic, CMYK...): another decoder takes it. */
export class JpegUnsupported extends Error {
	override name = "JpegUnsupported";
}

/**
 * Why our decoder hands a frame to another, from its SOFn marker and frame header segment, or
 * undefined when it decodes it itself: Huffman-coded baseline, extended or progressive, 8-bit,
 * grey or three components. The probe prices a file by the same rule before it is accepted.
 */
export function unsupportedFrame(marker: number, frame: Uint8Array): string | undefined {
	if (marker > 0xc2) return `frame type ${marker.toString(16)}`;
	if (frame.length < 6) return undefined; // too short to tell: the parser reports it broken
	if (frame[0] !== 8) return "not 8-bit";
	if (frame[5] !== 1 && frame[5] !== 3) return `${frame[5]} components`;
	return undefined;
}

/** A JPEG whose data is broken or cut short: the decode stage answers 422 for it. */
export class JpegFormatError extends Error {
	override name = "JpegFormatError";
}
