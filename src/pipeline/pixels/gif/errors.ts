import { ImageDataError } from "../image-error";

/** A GIF whose structure or data is broken, cut short or contradicts itself. */
export class GifFormatError extends ImageDataError {
	override name = "GifFormatError";
}
