/**
 * The image's rows for the passes after the model (pass 2's crops, pass 3's bands). A large image
 * is decoded anew for each pass, as docs/pipeline.md says; a small one is decoded once, when pass 2
 * first asks, and held until pass 3 has written its last row, packed to the channels its pixels use
 * (a grey page a byte a pixel): a decode saved, two for a PNG or GIF whose PNG takes pass 3 several
 * segments. Never across the model call: only the file's bytes are held then.
 */
import { decodeRows, decodesAfterModel, resumesNear } from "./decode";
import { freeBuffer } from "./free-buffer";
import { bandRows } from "./pixels/raster-rows";
import type { ProbedImage } from "./probe";
import { pixelWords } from "./rows";
import type { Box, RowSink } from "./types";

/**
 * What the held pixels and the 0.7 bytes a pixel the rest of a call adds with the image's size
 * (crops, bands, the PNG's pieces) may take together. The call's memory model (src/request/
 * validate.ts, measured in workerd) puts the rest at 28 MB, so a call holding its image peaks about
 * 8 MB under the 60 MB a call may add: a grey page up to 14.8 MP is held, an opaque colour one up
 * to 6.8 MP, one with alpha up to 5.3 MP; none at 25 MP.
 */
export const HOLD_BUDGET = 24 * 1024 * 1024;

/**
 * Pixels held by all the calls of an isolate at once: eight 3 MP photos finishing together would
 * otherwise hold 9 MB each beside what each call's passes take. A call that finds no room decodes
 * for each pass, as a large image does.
 */
export const ISOLATE_HOLD_BYTES = 16 * 1024 * 1024;
/** Pixels held now by the isolate's calls. */
let heldInIsolate = 0;

export interface ImageRows {
	width: number;
	height: number;
	/**
	 * Pass 2: every row to `sink`, top to bottom, of which only the pixels inside `wanted` need be
	 * right (decode.ts decodeRows); the sink may stop it (EnoughRows), and it may be asked again.
	 */
	rows(sink: RowSink, wanted: readonly Box[]): void;
	/**
	 * Pass 3: `read(sink, from)` hands out every row from `from` on, and maybe some before it, which
	 * the sink skips; the sink may stop it and a later call take up (decode.ts resumableRows).
	 */
	resumable(): (sink: RowSink, from: number) => void;
	/** Whether those calls start near `from` (held pixels, a JPEG of ours not turned by EXIF), not from the top. */
	readonly resumesNear: boolean;
	/** Lets go of what is held: pass 3 is over, or will not run. */
	release(): void;
}

/**
 * The rows of `image`, whose every pixel is grey and opaque (`channels` 1), opaque (3) or neither
 * (4), as pass 1 found: held once decoded when that fits `budget` and the isolate's room for held
 * pixels. `release` must be called once its rows are no longer wanted: it gives that room back.
 */
export function imageRows(image: ProbedImage, channels: 1 | 3 | 4, budget = HOLD_BUDGET): ImageRows {
	const { width, height } = image;
	const pixels = width * height;
	const bytes = pixels * channels;
	if (bytes + pixels * 0.7 > budget || heldInIsolate + bytes > ISOLATE_HOLD_BYTES) {
		return {
			width,
			height,
			...decodesAfterModel(image),
			resumesNear: resumesNear(image),
			release: () => {},
		};
	}
	heldInIsolate += bytes;
	let reserved = true;
	let held: HeldPixels | undefined;
	const rowsFrom = (sink: RowSink, from: number, x0 = 0, x1 = width) => {
		held ??= HeldPixels.decode(image, channels);
		held.emit(sink, from, x0, x1);
	};
	return {
		width,
		height,
		// Only the wanted boxes need be right: their rows from the first, their columns (pass 2 asks
		// once per group of crops, each group lower down the page).
		rows: (sink, wanted) => {
			if (wanted.length === 0) return rowsFrom(sink, 0);
			rowsFrom(
				sink,
				Math.min(...wanted.map((b) => b.y0)),
				Math.min(...wanted.map((b) => b.x0)),
				Math.max(...wanted.map((b) => b.x1)),
			);
		},
		resumable: () => rowsFrom,
		resumesNear: true,
		release: () => {
			held?.release();
			held = undefined;
			if (reserved) heldInIsolate -= bytes;
			reserved = false;
		},
	};
}

/** The image's pixels at `channels` bytes each (grey; RGB, opaque; RGBA), handed out as RGBA rows. */
class HeldPixels {
	private readonly data: Uint8Array;

	private constructor(
		private readonly width: number,
		private readonly height: number,
		private readonly channels: 1 | 3 | 4,
	) {
		this.data = new Uint8Array(width * height * channels);
	}

	static decode(image: ProbedImage, channels: 1 | 3 | 4): HeldPixels {
		const held = new HeldPixels(image.width, image.height, channels);
		let next = 0;
		decodeRows(image, {
			rows: (y, count, rgba) => {
				held.pack(y, count, rgba);
				next = y + count;
			},
		});
		if (next !== image.height) throw new Error("the decoder stopped before the last row");
		return held;
	}

	/**
	 * Rows `from` to the last to `sink`, a band of RGBA at a time (views of the pixels when they are
	 * RGBA), of which columns x0..x1 are right (the others are left as they were).
	 */
	emit(sink: RowSink, from: number, x0: number, x1: number): void {
		const { width, height, channels, data } = this;
		const step = bandRows(width, height);
		const band = channels === 4 ? undefined : new Uint8Array(step * width * 4);
		for (let y = from; y < height; y += step) {
			const count = Math.min(step, height - y);
			if (!band) sink.rows(y, count, data.subarray(y * width * 4, (y + count) * width * 4));
			else sink.rows(y, count, this.unpack(y, count, band, x0, x1));
		}
	}

	release(): void {
		freeBuffer(this.data);
	}

	private pack(y: number, count: number, rgba: Uint8Array): void {
		const { width, channels, data } = this;
		const n = count * width;
		if (channels === 4) {
			data.set(rgba.subarray(0, n * 4), y * width * 4);
			return;
		}
		let to = y * width * channels;
		for (let i = 0; i < n * 4; i += 4) {
			data[to++] = rgba[i]!;
			if (channels === 1) continue;
			data[to++] = rgba[i + 1]!;
			data[to++] = rgba[i + 2]!;
		}
	}

	private unpack(y: number, count: number, band: Uint8Array, x0: number, x1: number): Uint8Array {
		const { width, channels, data } = this;
		const words = pixelWords(band);
		for (let r = 0; r < count; r++) {
			const row = r * width;
			let from = ((y + r) * width + x0) * channels;
			if (channels === 1) {
				for (let i = row + x0; i < row + x1; i++, from++) words[i] = 0xff000000 | (data[from]! * 0x010101);
			} else {
				for (let i = row + x0; i < row + x1; i++, from += 3) {
					words[i] = 0xff000000 | (data[from + 2]! << 16) | (data[from + 1]! << 8) | data[from]!;
				}
			}
		}
		return band.subarray(0, count * width * 4);
	}
}
