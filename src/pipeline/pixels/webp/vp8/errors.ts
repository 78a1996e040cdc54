import { ImageDataError } from "../../image-error";

/** VP8 data that is broken, cut short or not a displayable key frame. */
export class Vp8FormatError extends ImageDataError {
	override name = "Vp8FormatError";
}
