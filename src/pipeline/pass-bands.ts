/**
 * Pass 3, the last: the image's rows pass a third time (decoded again, or read from the small
 * image image-rows.ts holds) and are written out as PNG a band of rows at a time. Into each band
 * go the erased pixels, then the overlays whose rows it holds (each rasterised when the bands
 * first reach it and let go after its last row); then the band is encoded and only its compressed
 * pieces are kept, for the response to pull. Nothing the size of a large decoded image is held.
 *
 * The decoders hand rows over synchronously and cannot pause, so the pass runs in segments: when
 * the response pulls, rows are decoded and encoded until HELD_BYTES of compressed pieces wait, the
 * decode is stopped there, and the pieces are handed out; the next segment decodes the image again,
 * skipping the rows already written. A JPEG's next decode starts near the rows not yet written
 * (`resumableRows`), and a held image's rows at the first not written: their segments are short
 * (a noisy photo's PNG of 40 MB and more is a dozen, an MCU row or two more to decode each). The
 * other kinds start from the top: their segments are long enough that most results fit one (a 25 MP
 * page's PNG is 5 to 12 MB).
 */
import { type Band, drawOverlay, pasteErased } from "./compose";
import { freeBuffer } from "./free-buffer";
import type { ImageRows } from "./image-rows";
import { PngEncoder } from "./pixels/png-encode";
import { decodeUntilEnough, EnoughRows, pixelWords } from "./rows";
import type { ErasedPixels, Overlay, Rgb, RowSink } from "./types";

/** Bytes of RGBA a band holds (at least one row). */
const BAND_BYTES = 1 << 20;
/**
 * Compressed bytes made ahead of the response before the decode stops for it. Where the next decode
 * starts near the rows not yet written (`ImageRows.resumesNear`), a stop costs an MCU row or two:
 * 4 MB, so a noisy photo's PNG of 50 MB adds 4 MB to the call's peak rather than 16. Where it
 * starts from the top, a stop costs a decode: 16 MB, which most results fit whole.
 */
export const HELD_BYTES = { near: 4 << 20, fromTop: 16 << 20 };

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
	/** Let go (`release`) when the pieces end, fail, or the reader stops. */
	image: ImageRows;
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
 * The translated image as PNG pieces, made as they are pulled. A piece is valid until the next is
 * pulled: its memory is freed then (a noisy photo's PNG is 50 MB, and the pieces already sent
 * otherwise wait for the collector). `finished` is called when the pieces end, fail, or the reader
 * stops, even before the first pull.
 */
export function bandsToPng(
	inputs: BandInputs,
	heldBytes = inputs.image.resumesNear ? HELD_BYTES.near : HELD_BYTES.fromTop,
): AsyncIterable<Uint8Array> {
	let finished = false;
	const finish = () => {
		if (!finished) inputs.finished();
		finished = true;
	};
	const done = () => {
		finish();
		inputs.image.release();
	};
	async function* pieces(): AsyncGenerator<Uint8Array> {
		try {
			await inputs.overlaysReady;
			const writer = new BandWriter(inputs, heldBytes);
			const decode = inputs.image.resumable();
			yield* writer.start();
			while (!writer.done) {
				const from = writer.rowsWritten;
				const segment = writer.segment();
				await decodeUntilEnough(() => decode(segment, from));
				if (writer.rowsWritten === from) throw new Error(`the decoder stopped at row ${from}`);
				yield* writer.take();
			}
			done();
			yield* writer.finish();
		} finally {
			done();
		}
	}
	return {
		[Symbol.asyncIterator]() {
			const iterator = pieces();
			return {
				next: () => iterator.next(),
				return: (value?: unknown) => {
					done();
					return iterator.return(value);
				},
				[Symbol.asyncIterator]() {
					return this;
				},
			};
		},
	};
}

/** The encoder, the band and what is being drawn: what outlives each segment's decode. */
class BandWriter {
	private readonly encoder: PngEncoder;
	private readonly width: number;
	private readonly height: number;
	private readonly rowsPerBand: number;
	/**
	 * The rows being gathered: a byte a pixel when the PNG is grey (a quarter of the bytes to copy,
	 * paste into and filter; a grey PNG decoder's rows copied as they are), else RGBA.
	 */
	private readonly band: Band;
	private readonly grey: boolean;
	private pasting: ErasedPixels[];
	/** Overlays by top row (in drawing order among equals), and those being drawn, in drawing order. */
	private readonly upcoming: { overlay: PlannedOverlay; order: number }[];
	private drawing: { overlay: Overlay; order: number }[] = [];
	/** The last row written, for the Up filter of the next (its pixel words, or its grey bytes). */
	private above: Int32Array | Uint8Array | undefined;
	/** Compressed pieces waiting for the response, and their bytes. */
	private made: Uint8Array[] = [];
	private madeBytes = 0;

	constructor(
		{ image, erased, overlays, channels }: BandInputs,
		private readonly heldBytes: number,
	) {
		this.width = image.width;
		this.height = image.height;
		this.encoder = new PngEncoder(image.width, image.height, channels);
		this.rowsPerBand = Math.max(1, Math.floor(BAND_BYTES / (image.width * 4)));
		this.grey = channels === 1;
		this.band = {
			top: 0,
			width: image.width,
			height: 0,
			data: new Uint8Array(this.rowsPerBand * image.width * (this.grey ? 1 : 4)),
			grey: this.grey,
		};
		this.pasting = erased;
		this.upcoming = overlays
			.map((overlay, order) => ({ overlay, order }))
			.sort((a, b) => a.overlay.top - b.overlay.top);
	}

	get rowsWritten(): number {
		return this.band.top;
	}

	/** Every row is written. */
	get done(): boolean {
		return this.band.top === this.height;
	}

	start(): Uint8Array[] {
		return this.encoder.start();
	}

	/**
	 * A sink for one decode of the image: rows already written are skipped, and the decode is
	 * stopped at a band's end once enough compressed pieces wait.
	 */
	segment(): RowSink {
		const sink: RowSink = { rows: (y, count, rgba) => this.gather(y, count, rgba, 4) };
		if (this.grey) sink.greyRows = (y, count, grey) => this.gather(y, count, grey, 1);
		return sink;
	}

	/** Rows from a decoder (`bytes` a pixel: RGBA, or grey as a grey PNG stores them) into the band. */
	private gather(y: number, count: number, pixels: Uint8Array, bytes: 1 | 4): void {
		const { width, band } = this;
		const bandBytes = this.grey ? 1 : 4;
		// Rows before the band are written already (an earlier segment decoded them).
		for (let r = Math.max(0, band.top + band.height - y); r < count; ) {
			const take = Math.min(count - r, this.rowsPerBand - band.height);
			const from = pixels.subarray(r * width * bytes, (r + take) * width * bytes);
			if (bytes === bandBytes) band.data.set(from, band.height * width * bandBytes);
			else redsInto(band.data, band.height * width, from);
			band.height += take;
			r += take;
			if (band.height < this.rowsPerBand && y + r < this.height) continue;
			this.writeBand();
			if (this.madeBytes >= this.heldBytes && !this.done) throw new EnoughRows();
		}
	}

	/** The pieces made so far, front first, each freed when the next is pulled. */
	*take(): Generator<Uint8Array> {
		const made = this.made.reverse();
		this.made = [];
		this.madeBytes = 0;
		for (let piece = made.pop(); piece; piece = made.pop()) {
			yield piece;
			freeBuffer(piece);
		}
	}

	finish(): Uint8Array[] {
		return this.encoder.finish();
	}

	private writeBand(): void {
		const { band, width, grey } = this;
		const bottom = band.top + band.height;
		for (const pixels of this.pasting) pasteErased(band, pixels);
		this.pasting = this.pasting.filter((pixels) => pixels.box.y1 > bottom);
		while (this.upcoming.length > 0 && this.upcoming[0]!.overlay.top < bottom) {
			const { overlay, order } = this.upcoming.shift()!;
			this.drawing.push({ overlay: overlay.draw(), order });
			this.drawing.sort((a, b) => a.order - b.order);
		}
		for (const { overlay } of this.drawing) drawOverlay(band, overlay);
		this.drawing = this.drawing.filter(({ overlay }) => overlay.y + overlay.raster.height > bottom);

		const last = (band.height - 1) * width;
		if (grey) {
			const rows = band.data.subarray(0, band.height * width);
			this.keep(this.encoder.addGreyRows(rows, band.height, this.above as Uint8Array | undefined));
			this.above = rows.slice(last, last + width);
		} else {
			const pixels = pixelWords(band.data.subarray(0, band.height * width * 4));
			this.keep(this.encoder.addRows(pixels, band.height, this.above as Int32Array | undefined));
			this.above = pixels.slice(last, last + width);
		}
		band.top = bottom;
		band.height = 0;
	}

	private keep(pieces: Uint8Array[]): void {
		for (const piece of pieces) {
			this.made.push(piece);
			this.madeBytes += piece.length;
		}
	}
}

/** Each RGBA pixel's red byte, which is its grey in a grey image, into `grey` from `at` on. */
function redsInto(grey: Uint8Array, at: number, rgba: Uint8Array): void {
	const words = pixelWords(rgba);
	for (let i = 0; i < words.length; i++) grey[at + i] = words[i]!;
}
