/** Bytes of PNG encoded per chunk: a multiple of 3, so chunks join into one valid base64 string. */
const CHUNK = 3 * 16 * 1024;

/**
 * The 200 body, streamed: the PNG's pieces are base64-encoded a slice at a time as the pipeline
 * produces them, so a large result exists neither as one joined file nor as a second full-size
 * string. An error from the pieces errors the stream (the client sees a cut body).
 */
export function successBody(
	recordId: string,
	png: Iterable<Uint8Array> | AsyncIterable<Uint8Array>,
	remainingCredit: number,
): ReadableStream<Uint8Array> {
	const encoder = new TextEncoder();
	const pieces: AsyncIterator<Uint8Array> | Iterator<Uint8Array> =
		Symbol.asyncIterator in png ? png[Symbol.asyncIterator]() : png[Symbol.iterator]();
	const slice = new Uint8Array(CHUNK);
	let current: Uint8Array = new Uint8Array(0);
	let offset = 0;
	let ended = false;
	/** Copies the next bytes of the file into `slice`; returns how many (fewer only at the end). */
	const fill = async (): Promise<number> => {
		let filled = 0;
		while (filled < CHUNK && !ended) {
			if (offset === current.length) {
				const next = await pieces.next();
				if (next.done) ended = true;
				else [current, offset] = [next.value, 0];
				continue;
			}
			const rest = current.subarray(offset, offset + CHUNK - filled);
			slice.set(rest, filled);
			filled += rest.length;
			offset += rest.length;
		}
		return filled;
	};
	return new ReadableStream<Uint8Array>({
		start(controller) {
			controller.enqueue(
				encoder.encode(`{"success":true,"recordId":${JSON.stringify(recordId)},"resultImage":"data:image/png;base64,`),
			);
		},
		async pull(controller) {
			const filled = await fill();
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
		async cancel() {
			await pieces.return?.();
		},
	});
}
