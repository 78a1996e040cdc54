/**
 * Pass 1, before the models: the image's rows become the readers' view of it (read-copy.ts), and
 * the scan of which PNG colour type the result will need (the last pass must choose it before its
 * first row). Afterwards the call holds only the file's bytes and the copies while the models think.
 */
import { decodeRows } from "./decode";
import { ColourScan } from "./pixels/png-encode";
import { type ReaderImage, readerImage } from "./read-copy";
import { pixelWords } from "./rows";
import type { TranslateJob } from "./types";

export interface FirstPass {
	/** Its `copies` decode the file again for windows the reading plans later. */
	reader: ReaderImage;
	/** Every pixel of the image scanned; what is drawn over them is added later. */
	colours: ColourScan;
}

export async function copyForReaders(job: TranslateJob): Promise<FirstPass> {
	const colours = new ColourScan();
	const reader = await readerImage(job.image.width, job.image.height, (sink) => decodeRows(job.image, sink), {
		rows: (_y, _count, rgba) => colours.addPixels(pixelWords(rgba)),
	});
	return { reader, colours };
}
