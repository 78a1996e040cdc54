/** A JPEG this decoder does not handle (progressive, arithmetic, CMYK...): another decoder takes it. */
export class JpegUnsupported extends Error {
	override name = "JpegUnsupported";
}

/** A JPEG whose data is broken or cut short: the decode stage answers 422 for it. */
export class JpegFormatError extends Error {
	override name = "JpegFormatError";
}
