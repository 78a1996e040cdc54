/** A GIF whose data is broken or cut short: the decode stage answers 422 for it. */
export class GifFormatError extends Error {
	override name = "GifFormatError";
}
