/**
 * Bodies are read and dropped up to this many bytes before a refusal is answered: a 48 MB image's
 * base64, so the common mistake (a photo too large) still learns why. Past it the client is cut off.
 */
const DRAIN_MAX_BYTES = 64 * 1024 * 1024;
/** A client uploading slower than this gets cut off instead of its answer. */
const DRAIN_MAX_MS = 15_000;

/**
 * Answers a refusal only once the client has finished sending its body. A client still uploading
 * when the answer comes and the connection closes mostly sees a reset instead of the answer:
 * Node's fetch (ECONNRESET), curl (Recv failure) and a plain socket all did against workerd, while
 * after reading the rest each got its 413, 400 or 401 (docs/benchmarks.md, "early answers").
 * Reading and dropping costs little: no chunk is kept.
 */
export async function afterDraining(request: Request, answer: Response): Promise<Response> {
	const body = request.body;
	if (body === null || body.locked) return answer;
	const declared = Number(request.headers.get("content-length") ?? Number.NaN);
	if (declared > DRAIN_MAX_BYTES) {
		body.cancel().catch(() => {});
		return answer;
	}
	const reader = body.getReader();
	const deadline = Date.now() + DRAIN_MAX_MS;
	let read = 0;
	try {
		while (read <= DRAIN_MAX_BYTES && Date.now() < deadline) {
			const chunk = await readBefore(reader, deadline);
			if (chunk === undefined) return answer;
			read += chunk.byteLength;
		}
	} catch {
		// Too slow, gone, or a broken body: the answer is all that is left to try.
	}
	reader.cancel().catch(() => {});
	return answer;
}

/** The next chunk, undefined at the end; throws when the deadline passes first. */
async function readBefore(
	reader: ReadableStreamDefaultReader<Uint8Array>,
	deadline: number,
): Promise<Uint8Array | undefined> {
	let late = (_: Error) => {};
	const timer = setTimeout(() => late(new Error("drain deadline")), Math.max(0, deadline - Date.now()));
	const timedOut = new Promise<never>((_, reject) => {
		late = reject;
	});
	try {
		const { done, value } = await Promise.race([reader.read(), timedOut]);
		return done ? undefined : value;
	} finally {
		clearTimeout(timer);
	}
}
