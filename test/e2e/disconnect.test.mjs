/**
 * Never charge for what the client didn't get, through `wrangler dev`: a client that reads the start of
 * its 200 (the charge is committed before the image streams) and then goes away is refunded, and its
 * Idempotency-Key is free again, so the same request is processed anew and charged once.
 *
 * (A client that leaves while the models still work is refunded too in production, where request.signal
 * aborts; wrangler dev's proxy forwards requests detached from the client, so locally the Worker only
 * learns of it when the body it streams is cancelled. test/http/settlement.test.ts covers both in workerd.)
 */
import assert from "node:assert/strict";
import { randomFillSync } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { crc32, deflateSync } from "node:zlib";
import { startService } from "./harness.mjs";

/** A PNG of noise, so that the translated PNG is too large for socket buffers to swallow whole. */
function noisePng(width, height) {
	const chunk = (type, data) => {
		const out = Buffer.alloc(12 + data.length);
		out.writeUInt32BE(data.length, 0);
		out.write(type, 4, "latin1");
		data.copy(out, 8);
		out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
		return out;
	};
	const header = Buffer.alloc(13);
	header.writeUInt32BE(width, 0);
	header.writeUInt32BE(height, 4);
	header.set([8, 2, 0, 0, 0], 8);
	const rows = randomFillSync(Buffer.alloc(height * (1 + width * 3)));
	for (let y = 0; y < height; y++) rows[y * (1 + width * 3)] = 0;
	return Buffer.concat([
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		chunk("IHDR", header),
		chunk("IDAT", deflateSync(rows, { level: 1 })),
		chunk("IEND", Buffer.alloc(0)),
	]);
}

describe("a client that disconnects while its image streams", { timeout: 300_000 }, () => {
	let service;
	let body;

	before(async () => {
		service = await startService();
		const image = noisePng(1400, 1400);
		body = JSON.stringify({ sourceLanguage: "ja", targetLanguage: "en", imageBase64: image.toString("base64") });
	});

	after(async () => {
		await service?.stop();
	});

	const call = (signal) =>
		fetch(`${service.url}/translate/image`, {
			method: "POST",
			headers: {
				Authorization: `Bearer ${service.apiKey}`,
				"Content-Type": "application/json",
				"Idempotency-Key": "page-1-disconnect",
			},
			body,
			signal,
		});

	it("is refunded and its Idempotency-Key released; the retry is charged once", async () => {
		const client = new AbortController();
		const res = await call(client.signal);
		assert.equal(res.status, 200, service.log());
		const reader = res.body.getReader();
		const head = new TextDecoder().decode((await reader.read()).value);
		assert.match(head, /"remainingCredit":990,"resultImage":"data:image\/png;base64,/, "charged before the image");
		client.abort();

		const deadline = Date.now() + 60_000;
		let credits = await service.credits();
		while (credits !== 1000 && Date.now() < deadline) {
			await new Promise((resolve) => setTimeout(resolve, 250));
			credits = await service.credits();
		}
		assert.equal(credits, 1000, `the undelivered call was not refunded\n${service.log()}`);

		const retry = await call();
		assert.equal(retry.status, 200);
		const answer = await retry.json();
		assert.equal(answer.remainingCredit, 990);
		assert.equal(await service.credits(), 990);
	});
});
