import type { Raster } from "../../types";
import { decodeBaseline } from "./baseline";
import { decodeBuffered } from "./buffered";
import { parseJpeg } from "./parse";

/**
 * Decodes a JPEG into an RGBA raster. A sequential JPEG whose first scan carries every component
 * streams, one MCU row at a time (the raster is the only large buffer); progressive JPEGs and
 * sequential ones with a scan per component keep their coefficients in the raster's own buffer
 * until the last scan. Throws JpegFormatError for broken or truncated data and JpegUnsupported
 * for kinds no decoder here handles (arithmetic coding, lossless, 12-bit, CMYK).
 */
export function decodeJpeg(bytes: Uint8Array): Raster {
	const headers = parseJpeg(bytes);
	const { frame, scan } = headers;
	if (!frame.progressive && scan.components.length === frame.components.length) return decodeBaseline(bytes, headers);
	return decodeBuffered(bytes, headers);
}
