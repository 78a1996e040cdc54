import { describe, expect, it } from "vitest";
import { generatedStream } from "../request/streams";
import { instantPipeline, service, validBody } from "../support/service";

/**
 * A refusal that comes while the client is still uploading is sent only once the rest of the body
 * has been read and dropped: clients still writing mostly see a reset instead of an answer
 * (src/http/drain.ts). Past a bound the client is cut off rather than read for ever.
 */
const MB = 1024 * 1024;

function upload(apiKey: string, body: ReadableStream<Uint8Array>, length: number) {
	return new Request("https://yakusu.test/translate/image", {
		method: "POST",
		headers: {
			Authorization: `Bearer ${apiKey}`,
			"Content-Type": "application/json",
			"Content-Length": String(length),
		},
		body,
		duplex: "half",
	} as RequestInit);
}

describe("early answers", () => {
	const yakusu = service(instantPipeline().pipeline);

	it("reads a body declared too large to its end, then answers 413", async () => {
		const { apiKey } = await yakusu.customer();
		const body = generatedStream('{"imageBase64":"', "A", 30 * MB, '"}');
		const length = 30 * MB + 18;
		const res = await yakusu.app.fetch(upload(apiKey, body.stream, length), yakusu.env, yakusu.context());
		expect(res.status).toBe(413);
		expect(body.pulled()).toBe(length);
	});

	it("reads the rest of a body refused at its first bytes, then answers 400", async () => {
		const { apiKey } = await yakusu.customer();
		const body = generatedStream("{x", "A", 5 * MB, "");
		const res = await yakusu.app.fetch(upload(apiKey, body.stream, 5 * MB + 2), yakusu.env, yakusu.context());
		expect(res.status).toBe(400);
		expect(body.pulled()).toBe(5 * MB + 2);
	});

	it("reads the body of a refused key too, then answers 401", async () => {
		const body = generatedStream(JSON.stringify(await validBody()), " ", MB, "");
		const res = await yakusu.app.fetch(
			upload(`sk_yakusu_${"Q".repeat(43)}`, body.stream, 0),
			yakusu.env,
			yakusu.context(),
		);
		expect(res.status).toBe(401);
		expect(body.cancelled()).toBe(false);
		expect(body.pulled()).toBeGreaterThan(MB);
	});

	it("cuts off a body declared beyond what is worth reading, unread", async () => {
		const { apiKey } = await yakusu.customer();
		const body = generatedStream('{"imageBase64":"', "A", 100 * MB, '"}');
		const res = await yakusu.app.fetch(upload(apiKey, body.stream, 100 * MB + 18), yakusu.env, yakusu.context());
		expect(res.status).toBe(413);
		expect(body.pulled()).toBe(0);
		expect(body.cancelled()).toBe(true);
	});
});
