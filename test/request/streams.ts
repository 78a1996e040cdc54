import { RequestError } from "../../src/request/errors";

/** Request bodies as streams, chunked in controlled ways, for the body reader's tests. */

const encoder = new TextEncoder();

export { seededRandom } from "../../fuzz/seeded-random";

export function randomBytes(length: number, random: () => number): Uint8Array {
	const bytes = new Uint8Array(length);
	for (let index = 0; index < length; index++) bytes[index] = Math.floor(random() * 256);
	return bytes;
}

/** Lengths of consecutive chunks that cut `total` bytes into pieces. */
export type Chunking = number[];

export function randomChunking(total: number, random: () => number, largest = 17): Chunking {
	const sizes: Chunking = [];
	for (let left = total; left > 0; ) {
		const size = Math.min(left, 1 + Math.floor(random() * largest));
		sizes.push(size);
		left -= size;
	}
	return sizes;
}

/** A stream that hands out `body` in the given chunk sizes (one chunk when none are given). */
export function streamOf(body: string | Uint8Array, chunking?: Chunking): ReadableStream<Uint8Array> {
	const bytes = typeof body === "string" ? encoder.encode(body) : body;
	const sizes = chunking ?? [bytes.length];
	let at = 0;
	let next = 0;
	return new ReadableStream<Uint8Array>({
		pull(controller) {
			if (at >= bytes.length) return controller.close();
			const size = sizes[next++] ?? bytes.length - at;
			controller.enqueue(bytes.slice(at, at + size));
			at += size;
		},
	});
}

/** Every way to split `body` into two chunks, plus one chunk per byte. */
export function everySplit(body: string): ReadableStream<Uint8Array>[] {
	const length = encoder.encode(body).length;
	const streams = [streamOf(body, new Array(length).fill(1))];
	for (let cut = 1; cut < length; cut++) streams.push(streamOf(body, [cut, length - cut]));
	return streams;
}

/** A generated body too large to build in memory, with a record of how much of it was read. */
export interface WatchedStream {
	stream: ReadableStream<Uint8Array>;
	/** Bytes handed to the reader so far. */
	pulled(): number;
	cancelled(): boolean;
}

/**
 * Streams `head`, then `middleLength` bytes repeating `filler` (a multiple of its length), then
 * `tail`, in 64 KiB chunks, pulled only when read (so a reader that refuses early pulls nothing).
 */
export function generatedStream(head: string, filler: string, middleLength: number, tail: string): WatchedStream {
	const chunkSize = 64 * 1024;
	const fillerChunk = encoder.encode(filler.repeat(Math.ceil(chunkSize / filler.length)));
	const parts = [encoder.encode(head)];
	let middleLeft = middleLength;
	let tailSent = false;
	let pulled = 0;
	let cancelled = false;
	const stream = new ReadableStream<Uint8Array>(
		{
			pull(controller) {
				let chunk = parts.shift();
				if (chunk === undefined && middleLeft > 0) {
					chunk = fillerChunk.slice(0, Math.min(middleLeft, fillerChunk.length));
					middleLeft -= chunk.length;
				}
				if (chunk === undefined && !tailSent) {
					tailSent = true;
					chunk = encoder.encode(tail);
				}
				if (chunk === undefined) return controller.close();
				pulled += chunk.length;
				controller.enqueue(chunk);
			},
			cancel() {
				cancelled = true;
			},
		},
		{ highWaterMark: 0 },
	);
	return { stream, pulled: () => pulled, cancelled: () => cancelled };
}

/** The RequestError a read ends in; fails the test when the read succeeds or throws anything else. */
export async function refusal(promise: Promise<unknown>): Promise<RequestError> {
	const error = await promise.then(
		() => null,
		(thrown: unknown) => thrown,
	);
	if (!(error instanceof RequestError)) throw new Error(`expected a RequestError, got ${String(error)}`);
	return error;
}
