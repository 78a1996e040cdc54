/**
 * TEMPORARY ADAPTER, until the decoders hand rows over themselves (decodeRows from the probe's
 * parse, issue 11): decodes the whole file with decodeImage, then feeds its rows to the sink a
 * band at a time. The passes are written against rows already; this adapter still holds the full
 * raster while it runs, which is exactly the memory the row decoders remove.
 */
import { decodeImage } from "./decode";
import { PipelineError } from "./errors";
import type { RowSink } from "./rows";
import type { TranslateJob } from "./types";

/** Rows per call to the sink, about what a JPEG MCU row gives. */
const BATCH_ROWS = 16;

/** Decodes the job's file and hands every row to `sink`, top to bottom. */
export async function decodeRows(
	image: Pick<TranslateJob, "image" | "format" | "width" | "height">,
	sink: RowSink,
): Promise<void> {
	const raster = await decodeImage(image.image, image.format);
	// Every pass sizes its work by the probed size: a file that decodes to another is refused.
	if (raster.width !== image.width || raster.height !== image.height) {
		throw new PipelineError("Invalid field: imageBase64", 422);
	}
	const rowBytes = raster.width * 4;
	for (let y = 0; y < raster.height; y += BATCH_ROWS) {
		const count = Math.min(BATCH_ROWS, raster.height - y);
		sink.rows(y, count, raster.data.subarray(y * rowBytes, (y + count) * rowBytes));
	}
}
