/**
 * The image's rows for the passes after the model (pass 2's crops, pass 3's bands). A large image
 * is decoded anew for each pass, as docs/pipeline.md says; a small one is decoded once, when pass 2
 * first asks, and held until pass 3 has written its last row, packed to the channels its pixels use
 * (a grey page a byte a pixel): a decode saved, two for a PNG or GIF whose PNG takes pass 3 several
 * segments. Never across the model call: only the file's bytes are held then.
 */
import { byLastRow, CropCollector } from "./crop-collector";
import { decodeRows, decodesAfterModel, resumesNear } from "./decode";
import { freeBuffer } from "./free-buffer";
import { PackedPixels } from "./pixels/packed-pixels";
import { bandRows } from "./pixels/raster-rows";
import type { ProbedImage } from "./probe";
import { decodeUntilEnough, pixelWords } from "./rows";
import type { Box, Raster, RowSink } from "./types";

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
	 * Pass 2: a copy of each crop's pixels (RGBA), handed to `take` in the order of their last rows
	 * and freed once it returns. An image decoded for each pass is decoded once for all of `crops`,
	 * down to the last one's last row (crop-plan.ts keeps those alive at once few enough); it may be
	 * asked again for other crops.
	 */
	crops<T extends { box: Box }>(crops: readonly T[], take: (crop: T, pixels: Raster) => void): Promise<void>;
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
		const decodes = decodesAfterModel(image);
		return {
			width,
			height,
			crops: (crops, take) =>
				decodeUntilEnough(() =>
					decodes.rows(
						new CropCollector(crops, width, take),
						crops.map((crop) => crop.box),
					),
				),
			resumable: decodes.resumable,
			resumesNear: resumesNear(image),
			release: () => {},
		};
	}
	heldInIsolate += bytes;
	let reserved = true;
	let held: HeldPixels | undefined;
	const pixelsHeld = () => {
		held ??= HeldPixels.decode(image, channels);
		return held;
	};
	return {
		width,
		height,
		// Each crop is copied out of the pixels, one at a time: no rows pass, nothing else is unpacked.
		crops: async (crops, take) => {
			for (const crop of byLastRow(crops)) {
				const cut = pixelsHeld().cut(crop.box);
				take(crop, cut);
				freeBuffer(cut.data);
			}
		},
		resumable: () => (sink, from) => pixelsHeld().emit(sink, from),
		resumesNear: true,
		release: () => {
			held?.release();
			held = undefined;
			if (reserved) heldInIsolate -= bytes;
			reserved = false;
		},
	};
}

/** The image's pixels at `channels` bytes each (grey; RGB, opaque; RGBA), handed out as RGBA. */
class HeldPixels {
	private constructor(
		private readonly width: number,
		private readonly height: number,
		private readonly packed: PackedPixels,
	) {}

	static decode(image: ProbedImage, channels: 1 | 3 | 4): HeldPixels {
		const { width, height } = image;
		const packed = new PackedPixels(width * height, channels);
		let next = 0;
		const sink: RowSink = {
			rows: (y, count, rgba) => {
				packed.pack(y * width, pixelWords(rgba.subarray(0, count * width * 4)));
				next = y + count;
			},
		};
		if (channels === 1) {
			sink.greyRows = (y, count, grey) => {
				packed.bytes.set(grey.subarray(0, count * width), y * width);
				next = y + count;
			};
		}
		decodeRows(image, sink);
		if (next !== height) throw new Error("the decoder stopped before the last row");
		return new HeldPixels(width, height, packed);
	}

	/**
	 * Rows `from` to the last to `sink`, a band at a time (views of the pixels when they are RGBA, or
	 * grey and the sink takes grey rows).
	 */
	emit(sink: RowSink, from: number): void {
		const { width, height, packed } = this;
		const step = bandRows(width, height);
		const greyRows = packed.channels === 1 ? sink.greyRows?.bind(sink) : undefined;
		const asIs = packed.channels === 4 || greyRows;
		const band = asIs ? undefined : new Int32Array(step * width);
		for (let y = from; y < height; y += step) {
			const count = Math.min(step, height - y);
			if (greyRows) greyRows(y, count, packed.bytes.subarray(y * width, (y + count) * width));
			else if (!band) sink.rows(y, count, packed.bytes.subarray(y * width * 4, (y + count) * width * 4));
			else {
				packed.unpack(y * width, count * width, band, 0);
				sink.rows(y, count, new Uint8Array(band.buffer, 0, count * width * 4));
			}
		}
	}

	/** A copy of the pixels of `box` (within the image). */
	cut(box: Box): Raster {
		const width = box.x1 - box.x0;
		const height = box.y1 - box.y0;
		const words = new Int32Array(width * height);
		for (let y = 0; y < height; y++) this.packed.unpack((box.y0 + y) * this.width + box.x0, width, words, y * width);
		return { width, height, data: new Uint8Array(words.buffer) };
	}

	release(): void {
		freeBuffer(this.packed.bytes);
	}
}
