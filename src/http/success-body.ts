import { base64Bytes } from "./base64-encode";

/** Bytes of PNG encoded per chunk: a multiple of 3, so chunks join into one valid base64 string. */
const CHUNK = 3 * 16 * 1024;

type Pieces = Iterable<Uint8Array> | AsyncIterable<Uint8Array>;

/** How the body's end went, told once: every byte handed over, or not (with why, for the record). */
export interface Delivery {
	delivered(): void;
	undelivered(reason: string): void;
}

function iterate(png: Pieces): AsyncIterator<Uint8Array> | Iterator<Uint8Array> {
	return Symbol.asyncIterator in png ? png[Symbol.asyncIterator]() : png[Symbol.iterator]();
}

/**
 * Produces the image's first piece now, before the call is committed: a pipeline that fails on its
 * first band is answered with a clean error and refunded instead of a 200 cut short. The pieces
 * returned replay that first piece, then pull the rest.
 */
export async function primed(png: Pieces): Promise<AsyncIterable<Uint8Array> & { close(): Promise<void> }> {
	const pieces = iterate(png);
	let head: IteratorResult<Uint8Array> | null = await pieces.next();
	const close = async () => {
		await pieces.return?.();
	};
	const iterator: AsyncIterator<Uint8Array> = {
		next: async () => {
			const first = head;
			head = null;
			return first ?? pieces.next();
		},
		return: async () => {
			await close();
			return { done: true, value: undefined };
		},
	};
	return { [Symbol.asyncIterator]: () => iterator, close };
}

/**
 * The 200 body, streamed. `remainingCredit` comes first (the call is committed before the image
 * streams: DESIGN step 9), then the PNG's pieces base64-encoded a slice at a time as the pipeline
 * produces them, so a large result exists neither as one joined file nor as a second full-size
 * string. `delivery` hears once how it ended: an error producing a piece errors the stream (the
 * client sees a cut body) and, like a client that goes away, counts as undelivered.
 */
export function successBody(
	recordId: string,
	remainingCredit: number,
	png: Pieces,
	delivery: Delivery,
): ReadableStream<Uint8Array> {
	const encoder = new TextEncoder();
	const pieces = iterate(png);
	const slice = new Uint8Array(CHUNK);
	let current: Uint8Array = new Uint8Array(0);
	let offset = 0;
	let ended = false;
	let told = false;
	const tell = (reason?: string) => {
		if (told) return;
		told = true;
		if (reason === undefined) delivery.delivered();
		else delivery.undelivered(reason);
	};
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
				encoder.encode(
					`{"success":true,"recordId":${JSON.stringify(recordId)},"remainingCredit":${remainingCredit},"resultImage":"data:image/png;base64,`,
				),
			);
		},
		async pull(controller) {
			let filled: number;
			try {
				filled = await fill();
			} catch (error) {
				tell("The image failed while it streamed to the client");
				throw error;
			}
			if (filled > 0) {
				controller.enqueue(base64Bytes(slice.subarray(0, filled)));
				return;
			}
			controller.enqueue(encoder.encode(`"}`));
			controller.close();
			tell();
		},
		async cancel() {
			tell("The client disconnected before it had the whole image");
			await pieces.return?.();
		},
	});
}
