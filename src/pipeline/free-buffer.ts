/**
 * Gives a buffer's memory back at once, instead of at the collection that would find it garbage.
 * V8 collects for large ArrayBuffers only after tens of megabytes of them have been allocated since
 * the last collection, so a pass that lets go of a whole-image buffer, or a stream of pieces already
 * sent, otherwise holds that much more at its peak (docs/pipeline.md, "What a call holds").
 *
 * Only for a view over the whole of a buffer nothing else refers to: the buffer is detached, and
 * every view of it reads as empty afterwards. Where ArrayBuffer.prototype.transfer is missing
 * (Node 20, which runs the fuzzer and the benches' decoders), the buffer is left to the collector.
 */
export function freeBuffer(view: ArrayBufferView): void {
	const { buffer } = view;
	if (!(buffer instanceof ArrayBuffer) || typeof buffer.transfer !== "function") return;
	if (view.byteOffset === 0 && view.byteLength === buffer.byteLength) buffer.transfer(0);
}
