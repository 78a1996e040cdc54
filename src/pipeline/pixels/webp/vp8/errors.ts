/** VP8 data that is broken, cut short or not a displayable key frame: the decode stage answers 422. */
export class Vp8FormatError extends Error {
	override name = "Vp8FormatError";
}
