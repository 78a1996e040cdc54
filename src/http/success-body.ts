/** Bytes of PNG encoded per chunk: a multiple of 3, so chunks join into one valid base64 string. */
const CHUNK = 3 * 16 * 1024;

/**
 * The 200 body, streamed: the PNG's pieces are base64-encoded a slice at a time, so a large result
 * exists neither as one joined file nor as a second full-size string.
 */
export function successBody(recordId: string, png: Uint8Array[], remainingCredit: number): ReadableStream<Uint8Array> {
	const encoder = new TextEncoder();
	const slice = new Uint8Array(CHUNK);
	let piece = 0;
	let offset = 0;
	/** Copies the next bytes of the file into `slice`; returns how many (fewer only at the end). */
	const fill = (): number => {
		let filled = 0;
		while (filled < CHUNK && piece < png.length) {
			const rest = png[piece]!.subarray(offset, offset + CHUNK - filled);
			slice.set(rest, filled);
			filled += rest.length;
			offset += rest.length;
			if (offset === png[piece]!.length) [piece, offset] = [piece + 1, 0];
		}
		return filled;
	};
	return new ReadableStream<Uint8Array>({
		start(controller) {
			controller.enqueue(
				encoder.encode(`{"success":true,"recordId":${JSON.stringify(recordId)},"resultImage":"data:image/png;base64,`),
			);
		},
		pull(controller) {
			const filled = fill();
			if (filled > 0) {
				let binary = "";
				for (let i = 0; i < filled; i += 8192) {
					binary += String.fromCharCode(...slice.subarray(i, Math.min(filled, i + 8192)));
				}
				controller.enqueue(encoder.encode(btoa(binary)));
				return;
			}
			controller.enqueue(encoder.encode(`","remainingCredit":${remainingCredit}}`));
			controller.close();
		},
	});
}
