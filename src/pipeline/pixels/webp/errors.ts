import { ImageDataError } from "../image-error";

/** A WebP whose structure or data is broken, cut short or contradicts itself. */
export class WebpFormatError extends ImageDataError {
	override name = "WebpFormatError";
}
