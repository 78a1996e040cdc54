/**
 * Pass 1, before the models: the image's rows become the readers' view of it (read-copy.ts), and
 * the scan of which PNG colour type the result will need (the last pass must choose it before its
 * first row). Afterwards the call holds only the file's bytes and the copies while the models think.
 */
import { decodeRows, halfSizeDecode } from "./decode";
import { ColourScan } from "./pixels/png-encode";
import { halfSizeSuffices, type ReaderImage, readerImage } from "./read-copy";
import { pixelWords } from "./rows";
import type { RowSink, TranslateJob } from "./types";

export interface FirstPass {
	/** Its `copies` decode the file again for windows the reading plans later. */
	reader: ReaderImage;
	/** Every pixel of the image scanned; what is drawn over them is added later. */
	colours: ColourScan;
}

export async function copyForReaders(job: TranslateJob): Promise<FirstPass> {
	const { image } = job;
	const colours = new ColourScan();
	const rows = (sink: RowSink) => decodeRows(image, sink);
	const half = halfSizeDecode(image);
	if (half && halfSizeSuffices(image.width, image.height)) {
		// A JPEG strip large enough: its copies from the image at half size, its colours from its coefficients.
		let colour = true;
		const reader = await readerImage(image.width, image.height, rows, undefined, (sink) => {
			colour = half(sink).colour;
		});
		colours.addOpaque(colour);
		return { reader, colours };
	}
	const reader = await readerImage(image.width, image.height, rows, {
		rows: (_y, _count, rgba) => colours.addPixels(pixelWords(rgba)),
	});
	return { reader, colours };
}
