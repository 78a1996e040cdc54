import { ImageDataError } from "./image-error";

/** A zlib/deflate stream that is corrupt or ends early: for an image, the client's bad file. */
export class InflateError extends ImageDataError {
	override name = "InflateError";
}
