/** Bytes of PNG encoded per chunk: a multiple of 3, so chunks join into one valid base64 string. */
const CHUNK = 3 * 16 * 1024;

/**
 * The 200 body, streamed: the PNG is base64-encoded a slice at a time, so a large result never
 * exists as a second full-size string next to the PNG bytes.
 */
export function successBody(recordId: string, png: Uint8Array, remainingCredit: number): ReadableStream<Uint8Array> {
	const encoder = new TextEncoder();
	let offset = 0;
	return new ReadableStream<Uint8Array>({
		start(controller) {
			controller.enqueue(
				encoder.encode(`{"success":true,"recordId":${JSON.stringify(recordId)},"resultImage":"data:image/png;base64,`),
			);
		},
		pull(controller) {
			if (offset < png.byteLength) {
				const slice = png.subarray(offset, offset + CHUNK);
				offset += slice.byteLength;
				let binary = "";
				for (let i = 0; i < slice.length; i += 8192) {
					binary += String.fromCharCode(...slice.subarray(i, i + 8192));
				}
				controller.enqueue(encoder.encode(btoa(binary)));
				return;
			}
			controller.enqueue(encoder.encode(`","remainingCredit":${remainingCredit}}`));
			controller.close();
		},
	});
}
