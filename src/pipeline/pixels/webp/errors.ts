/** Broken or truncated WebP data: the decode stage answers 422 for it. */
export class WebpFormatError extends Error {
	override name = "WebpFormatError";
}

/** A WebP this decoder cannot handle yet: the decode stage hands it to another decoder. */
export class WebpUnsupported extends Error {
	override name = "WebpUnsupported";
}
