import { freeBuffer } from "../../free-buffer";
import type { Raster, RowSink } from "../../types";
import { bandRows, emitPassRaster } from "../raster-rows";
import { AlphaRows, alphaHeldBytes } from "./alpha";
import type { WebpContainer, WebpFrame } from "./container";
import { decodeVp8l, vp8lHeldBytes } from "./lossless/decode";
import { decodeVp8Rows, VP8_BAND_ROWS } from "./vp8/decode";

/**
 * Decodes a WebP (RFC 9649) to RGBA rows as `readWebpContainer` found it: a still image, or an
 * animation's first frame at its offset on a transparent canvas (over which it blends to itself).
 * A lossy frame streams a macroblock row at a time, its alpha (if any) alongside; a lossless one
 * (VP8L) is decoded whole, as its transforms and back-references need, then handed out.
 */
export function decodeWebpRows(webp: WebpContainer, sink: RowSink): void {
	const { frame } = webp;
	const fillsCanvas = frame.width === webp.width && frame.height === webp.height;
	if (frame.lossless) {
		const raster = decodeVp8l(frame.lossless);
		if (fillsCanvas) emitPassRaster(raster, sink);
		else {
			try {
				new CanvasRows(webp, sink).frameRows(0, raster.height, raster.data);
			} finally {
				freeBuffer(raster.data);
			}
		}
		return;
	}
	const alpha = frame.alpha ? new AlphaRows(frame.alpha, frame.width, frame.height) : undefined;
	const canvas = fillsCanvas ? undefined : new CanvasRows(webp, sink);
	decodeVp8Rows(frame.lossy!, frame.width, frame.height, (from, to, rgba) => {
		if (alpha) for (let r = 0; r < to - from; r++) alpha.row(rgba, r * frame.width * 4);
		if (canvas) canvas.frameRows(from, to, rgba);
		else sink.rows(from, to - from, rgba);
	});
	canvas?.finish();
}

/** A lossless still WebP decoded into one raster, for callers that want the whole image. */
export function decodeWebpRaster(webp: WebpContainer): Raster | undefined {
	const { frame } = webp;
	const fillsCanvas = frame.width === webp.width && frame.height === webp.height;
	return frame.lossless && fillsCanvas ? decodeVp8l(frame.lossless) : undefined;
}

/**
 * Bytes `decodeWebpRows` holds besides the file: a lossless frame whole, an alpha plane, the bands
 * (`memory`, growing with the image), and prefix tables (`fixedMemory`). Reads every header a
 * bitstream has before its pixels, so a broken one is found here.
 */
export function webpHeldBytes(webp: WebpContainer): { memory: number; fixedMemory: number } {
	const { frame } = webp;
	const canvasBand = webp.width * bandRows(webp.width, webp.height) * 4;
	if (frame.lossless) {
		const held = vp8lHeldBytes(frame.lossless);
		return { memory: held.memory + canvasBand, fixedMemory: held.fixedMemory };
	}
	// The YUV of a few macroblock rows and the RGBA band, the alpha plane.
	const band = frame.width * (VP8_BAND_ROWS * 4 + 48);
	const alpha = frame.alpha ? alphaHeldBytes(frame.alpha, frame.width, frame.height) : { memory: 0, fixedMemory: 0 };
	return { memory: band + canvasBand + alpha.memory, fixedMemory: alpha.fixedMemory };
}

/**
 * Places a frame's rows on the canvas: canvas rows above and below the frame, and beside it, are
 * transparent. Rows come in order, frame rows as `frameRows` gets them.
 */
class CanvasRows {
	private readonly frame: WebpFrame;
	private readonly width: number;
	private readonly height: number;
	private readonly band: Uint8Array;
	private readonly bandHeight: number;
	private filled = 0;
	private next = 0;

	constructor(
		webp: WebpContainer,
		private readonly sink: RowSink,
	) {
		this.frame = webp.frame;
		this.width = webp.width;
		this.height = webp.height;
		this.bandHeight = bandRows(webp.width, webp.height);
		this.band = new Uint8Array(webp.width * this.bandHeight * 4);
	}

	/** Frame rows [from, to), packed in `rgba`. */
	frameRows(from: number, to: number, rgba: Uint8Array): void {
		const { frame } = this;
		while (this.next < frame.y + from) this.row();
		for (let r = from; r < to; r++) {
			const at = (r - from) * frame.width * 4;
			this.row(rgba.subarray(at, at + frame.width * 4));
		}
		if (to === frame.height) this.finish();
	}

	finish(): void {
		while (this.next < this.height) this.row();
	}

	private row(frameRow?: Uint8Array): void {
		const { band, width } = this;
		const o = this.filled * width * 4;
		band.fill(0, o, o + width * 4);
		if (frameRow) band.set(frameRow, o + this.frame.x * 4);
		this.filled += 1;
		this.next += 1;
		if (this.filled === this.bandHeight || this.next === this.height) {
			this.sink.rows(this.next - this.filled, this.filled, band.subarray(0, this.filled * width * 4));
			this.filled = 0;
		}
	}
}
