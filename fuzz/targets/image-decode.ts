import { decodeImage, decodeRows, decodesAfterModel, halfSizeDecode } from "../../src/pipeline/decode";
import { PipelineError } from "../../src/pipeline/errors";
import { ImageDataError } from "../../src/pipeline/pixels/image-error";
import { type ProbedImage, probeImage } from "../../src/pipeline/probe";
import type { Box, RowSink } from "../../src/pipeline/types";
import { RequestError } from "../../src/request/errors";
import { admitImage } from "../../src/request/validate";
import * as gifJpeg from "../../test/pipeline/fixtures/gif-jpeg";
import * as images from "../../test/pipeline/fixtures/images";
import { fixtures as vp8Frames } from "../../test/pipeline/fixtures/vp8";
import * as webp from "../../test/pipeline/fixtures/webp";
import { HOSTILE_FILES } from "../../test/pipeline/hostile/files";
import { chunk, riff } from "../../test/pipeline/hostile/webp";
import { jpegKinds, withOrientation } from "../../test/support/jpeg-files";
import { decodeInSegments } from "../../test/support/segments";
import type { FuzzBudget, FuzzTarget } from "../target";

/**
 * CPU a decode may take: "a few hundred milliseconds per megapixel" (issue 11), and half a second
 * for the container walk of a 20 MB file whatever its pixels (a cold walk takes about 150 ms).
 */
const MS_PER_MEGAPIXEL = 300;
const WALK_MS = 500;
/** Memory beside what the probe stated: the engine's own churn while it runs. */
const SLACK_BYTES = 24 * 1024 * 1024;
/** Decodes this small are also decoded whole and compared with their rows. */
const COMPARE_PIXELS = 1_000_000;

/**
 * The image probe and decoder as a request's file meets them: `probeImage` with the service's
 * limits, then `decodeRows`, and pass 1's half-size decode where there is one. Clean outcomes are a
 * typed refusal by the probe (422, 413), a 422 from the decoder, or rows that cover the image once
 * in order; anything else is a defect. The budget comes from the probe's stated cost, a decode's
 * worth for each decode. Small images are also decoded whole, and for pass 2's boxes, and compared.
 */
const imageDecode: FuzzTarget = {
	name: "image-decode",

	/**
	 * The test fixtures of every format and kind (not their reference decodes), JPEGs turned by EXIF,
	 * and the VP8 frames as WebP files.
	 */
	seeds() {
		const files = [images, gifJpeg, webp].flatMap((fixtures) =>
			Object.entries(fixtures)
				.filter(([name]) => !name.endsWith("_ref_png") && !(fixtures === webp && name.endsWith("_png")))
				.map(([, base64]) => fromBase64(base64)),
		);
		// JPEGs of every kind turned by EXIF (3 to 8): decoded a window at a time, for pass 2's boxes too.
		const turned = jpegKinds().map(([, file], i) => withOrientation(file, 3 + (i % 6)));
		return [...files, ...turned, ...vp8Frames.map((f) => riff([chunk("VP8 ", fromBase64(f.vp8))]))];
	},

	crafted: () => HOSTILE_FILES.map((file) => ({ name: file.name, bytes: file.bytes() })),

	run(input: Uint8Array): FuzzBudget {
		let image: ProbedImage;
		try {
			image = probeImage(input, admitImage);
		} catch (error) {
			if (error instanceof ImageDataError) return budget(undefined, "refused by the probe (422)");
			if (error instanceof RequestError && error.status === 413) return budget(undefined, "too large (413)");
			throw error;
		}
		const outcome = decodeChecked((sink) => decodeRows(image, sink), image.width, image.height);
		const half = halfSizeDecode(image);
		const halfOutcome =
			half && decodeChecked((sink) => half(sink), Math.ceil(image.width / 2), Math.ceil(image.height / 2));
		if (half && (halfOutcome === "decoded") !== (outcome === "decoded")) {
			throw new Error(`the half-size decode ${halfOutcome}, the whole ${outcome}`);
		}
		let decodes = half ? 2 : 1;
		if (outcome === "decoded" && image.width * image.height <= COMPARE_PIXELS) {
			compareWithWhole(image);
			// A JPEG's decodes stopped and taken up again read about twice a decode's worth; pass 2's
			// and 3's decodes after the model (every format) three more.
			decodes += image.format === "jpeg" ? 5 : 3;
		}
		return budget(image, outcome, decodes);
	},
};

export default imageDecode;

function fromBase64(base64: string): Uint8Array {
	return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

/** Decodes the rows (width×height), checking the sink's promises; a 422 from the decoder is a clean outcome. */
function decodeChecked(decode: (sink: RowSink) => unknown, width: number, height: number): string {
	let next = 0;
	try {
		decode({
			rows(y, count, rgba) {
				if (y !== next || count < 1 || y + count > height || rgba.length !== count * width * 4) {
					throw new Error(`rows ${y}+${count} of ${rgba.length} bytes where row ${next} of ${height} was due`);
				}
				next += count;
			},
		});
	} catch (error) {
		if (error instanceof PipelineError && error.status === 422) return "refused by the decoder (422)";
		throw error;
	}
	if (next !== height) throw new Error(`decodeRows ended at row ${next} of ${height}`);
	return "decoded";
}

/**
 * The whole-image decode must give the very pixels the rows gave, a decode for boxes those in the
 * boxes, and decodes stopped and taken up again (the last pass's) those of the rows.
 */
function compareWithWhole(image: ProbedImage): void {
	const { width, height } = image;
	const rows = new Uint8Array(width * height * 4);
	decodeRows(image, { rows: (y, _count, rgba) => rows.set(rgba, y * width * 4) });
	const whole = decodeImage(image);
	if (whole.width !== width || whole.height !== height) throw new Error("whole decode of another size");
	for (let i = 0; i < rows.length; i++) {
		if (rows[i] !== whole.data[i]) throw new Error(`whole decode differs from the rows at byte ${i}`);
	}
	const boxes: Box[] = [
		{ x0: width >> 3, y0: height >> 2, x1: width >> 1, y1: (height >> 1) + 1 },
		{ x0: (width * 3) >> 2, y0: height >> 1, x1: width, y1: height },
	];
	// Only a JPEG's are taken up midway: the others decode again from the top, as the rows above did.
	if (image.format === "jpeg") compareResumed(image, whole.data);
	rows.fill(0);
	decodeRows(image, { rows: (y, _count, rgba) => rows.set(rgba, y * width * 4) }, boxes);
	compareBoxes(rows, whole.data, width, boxes, "the decode for boxes");
	// Pass 2's decodes after the model, a group of boxes each, the lower one started near its box
	// from where the first wrote its places down; then pass 3's from the top, sharing them.
	const after = decodesAfterModel(image);
	for (const box of boxes) {
		rows.fill(0);
		after.rows({ rows: (y, _count, rgba) => rows.set(rgba, y * width * 4) }, [box]);
		compareBoxes(rows, whole.data, width, [box], "pass 2's decode for a group of boxes");
	}
	rows.fill(0);
	after.resumable()({ rows: (y, _count, rgba) => rows.set(rgba, y * width * 4) }, 0);
	compareBoxes(rows, whole.data, width, [{ x0: 0, y0: 0, x1: width, y1: height }], "pass 3's decode after pass 2's");
}

function compareBoxes(rows: Uint8Array, whole: Uint8Array, width: number, boxes: Box[], what: string): void {
	for (const box of boxes) {
		for (let y = box.y0; y < box.y1; y++) {
			for (let i = (y * width + box.x0) * 4; i < (y * width + box.x1) * 4; i++) {
				if (rows[i] !== whole[i]) throw new Error(`${what} differs at byte ${i}`);
			}
		}
	}
}

function budget(image: ProbedImage | undefined, outcome: string, decodes = 1): FuzzBudget {
	if (!image) return { cpuMs: WALK_MS, memoryBytes: SLACK_BYTES, outcome };
	const megapixels = (image.width * image.height) / 1e6;
	return {
		cpuMs: WALK_MS + MS_PER_MEGAPIXEL * megapixels * decodes,
		memoryBytes: image.cost.memory + image.cost.fixedMemory + SLACK_BYTES,
		outcome,
	};
}

/** Decodes stopped at a third and two thirds of the rows, each taken up from the first row not written. */
function compareResumed(image: ProbedImage, whole: Uint8Array): void {
	const { data } = decodeInSegments(image, [Math.ceil(image.height / 3), Math.ceil((image.height * 2) / 3)]);
	for (let i = 0; i < data.length; i++) {
		if (data[i] !== whole[i]) throw new Error(`decodes taken up again differ from the whole at byte ${i}`);
	}
}
