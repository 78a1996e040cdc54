/**
 * Pass 1, before the models: the image's rows become the readers' copies, and the scan of which
 * PNG colour type the result will need (the last pass must choose it before its first row).
 * Afterwards the call holds only the file's bytes and the copies while the models think.
 */
import { decodeRows } from "./decode-rows";
import { ColourScan } from "./pixels/png-encode";
import { ReaderCopier, type ReaderCopies } from "./read-copy";
import { pixelWords } from "./rows";
import type { TranslateJob } from "./types";

export interface FirstPass {
	copies: ReaderCopies;
	/** Every pixel of the image scanned; what is drawn over them is added later. */
	colours: ColourScan;
}

export async function copyForReaders(job: TranslateJob): Promise<FirstPass> {
	const copier = new ReaderCopier(job.width, job.height);
	const colours = new ColourScan();
	await decodeRows(job, {
		rows(y, count, rgba) {
			copier.take(y, count, rgba);
			colours.addPixels(pixelWords(rgba));
		},
	});
	return { copies: copier.finish(), colours };
}
