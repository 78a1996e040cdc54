import { ImageDataError } from "../image-error";

/** A JPEG whose structure or data is broken, cut short or contradicts itself, or of a kind nobody here decodes. */
export class JpegFormatError extends ImageDataError {
	override name = "JpegFormatError";
}
