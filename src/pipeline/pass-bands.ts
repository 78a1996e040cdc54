/**
 * Pass 3, the last: the image is decoded a third time and written out as PNG a band of rows at a
 * time. Into each band go the erased pixels, then the overlays whose rows it holds (each
 * rasterised when the bands first reach it and let go after its last row); then the band is
 * encoded and only its compressed pieces are kept, for the response to pull. Nothing the size of
 * the decoded image is ever held.
 *
 * The pass runs when the response first pulls. The decoder hands rows over synchronously and
 * cannot pause, so the whole image is encoded in that one go and the response then streams the
 * pieces, dropping each once sent: the compressed file is what waits, never the pixels.
 */
import { type Band, drawOverlay, pasteErased } from "./compose";
import { decodeRows } from "./decode-rows";
import { PngEncoder } from "./pixels/png-encode";
import { pixelWords } from "./rows";
import type { ErasedPixels, Overlay, Rgb, TranslateJob } from "./types";

/** Bytes of RGBA a band holds (at least one row). */
const BAND_BYTES = 1 << 20;

/** One overlay of the page, drawn when the bands reach it. */
export interface PlannedOverlay {
	/** Image row of its top. */
	top: number;
	/** Opaque colours it puts on the image, for the PNG colour type chosen before the first row. */
	colours: Rgb[];
	/** Rasterises it (straight RGBA at its place), at once: `overlaysReady` has resolved. */
	draw(): Overlay;
}

export interface BandInputs {
	job: Pick<TranslateJob, "image" | "format" | "width" | "height">;
	/** Pasted in this order. */
	erased: ErasedPixels[];
	/** Drawn in this order, over the erased pixels. */
	overlays: PlannedOverlay[];
	/** Resolves once the overlays can be drawn without waiting. */
	overlaysReady: Promise<void>;
	/** The PNG colour type: 1 grey, 3 RGB, 4 RGBA. */
	channels: 1 | 3 | 4;
	/** Called once the overlays are drawn, or will not be (the response was cancelled or failed). */
	finished(): void;
}

/**
 * The translated image as PNG pieces, made when first pulled. `finished` is called when the
 * pieces end, fail, or the reader stops, even before the first pull.
 */
export function bandsToPng(inputs: BandInputs): AsyncIterable<Uint8Array> {
	let finished = false;
	const finish = () => {
		if (!finished) inputs.finished();
		finished = true;
	};
	async function* pieces(): AsyncGenerator<Uint8Array> {
		try {
			await inputs.overlaysReady;
			const made: Uint8Array[] = [];
			await writeBands(inputs, (more) => made.push(...more));
			finish();
			// Handed out front first, each let go once taken.
			made.reverse();
			for (let piece = made.pop(); piece; piece = made.pop()) yield piece;
		} finally {
			finish();
		}
	}
	return {
		[Symbol.asyncIterator]() {
			const iterator = pieces();
			return {
				next: () => iterator.next(),
				return: (value?: unknown) => {
					finish();
					return iterator.return(value);
				},
				[Symbol.asyncIterator]() {
					return this;
				},
			};
		},
	};
}

async function writeBands(
	{ job, erased, overlays, channels }: BandInputs,
	emit: (pieces: Uint8Array[]) => void,
): Promise<void> {
	const { width, height } = job;
	const encoder = new PngEncoder(width, height, channels);
	emit(encoder.start());
	const rowsPerBand = Math.max(1, Math.floor(BAND_BYTES / (width * 4)));
	const band: Band = { top: 0, width, height: 0, data: new Uint8Array(rowsPerBand * width * 4) };
	let pasting = erased;
	/** Overlays by top row (in drawing order among equals), and those being drawn, in drawing order. */
	const upcoming = overlays.map((overlay, order) => ({ overlay, order })).sort((a, b) => a.overlay.top - b.overlay.top);
	let drawing: { overlay: Overlay; order: number }[] = [];
	let above: Int32Array | undefined;

	const writeBand = () => {
		const bottom = band.top + band.height;
		for (const pixels of pasting) pasteErased(band, pixels);
		pasting = pasting.filter((pixels) => pixels.box.y1 > bottom);
		while (upcoming.length > 0 && upcoming[0]!.overlay.top < bottom) {
			const { overlay, order } = upcoming.shift()!;
			drawing.push({ overlay: overlay.draw(), order });
			drawing.sort((a, b) => a.order - b.order);
		}
		for (const { overlay } of drawing) drawOverlay(band, overlay);
		drawing = drawing.filter(({ overlay }) => overlay.y + overlay.raster.height > bottom);

		const pixels = pixelWords(band.data.subarray(0, band.height * width * 4));
		emit(encoder.addRows(pixels, band.height, above));
		above = pixels.slice((band.height - 1) * width, band.height * width);
		band.top = bottom;
		band.height = 0;
	};

	await decodeRows(job, {
		rows(y, count, rgba) {
			for (let r = 0; r < count; ) {
				const take = Math.min(count - r, rowsPerBand - band.height);
				band.data.set(rgba.subarray(r * width * 4, (r + take) * width * 4), band.height * width * 4);
				band.height += take;
				r += take;
				if (band.height === rowsPerBand || y + r === height) writeBand();
			}
		},
	});
	if (band.height > 0) writeBand();
	emit(encoder.finish());
}
