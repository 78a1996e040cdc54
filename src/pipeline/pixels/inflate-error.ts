/** A zlib/deflate stream that is corrupt or ends early: for an image, the client's bad file (422). */
export class InflateError extends Error {
	override name = "InflateError";
}
