/**
 * The translate request's JSON, streamed from disk: the image is base64-encoded chunk by chunk as it is
 * read, so a 20 MB image is never held whole as bytes, as base64 and as JSON at once.
 */
import { createReadStream } from "node:fs";
import { ReadableStream } from "node:stream/web";

/** A multiple of 3, so each chunk encodes to base64 without padding in the middle of the string. */
const CHUNK = 3 * 64 * 1024;

async function* chunks(file, options) {
	const fields = JSON.stringify(options).slice(1, -1);
	yield Buffer.from(`{${fields}${fields ? "," : ""}"imageBase64":"`);
	let carry = Buffer.alloc(0);
	for await (const chunk of createReadStream(file, { highWaterMark: CHUNK })) {
		const data = carry.length ? Buffer.concat([carry, chunk]) : chunk;
		const whole = data.length - (data.length % 3);
		carry = data.subarray(whole);
		yield Buffer.from(data.subarray(0, whole).toString("base64"));
	}
	yield Buffer.from(`${carry.toString("base64")}"}`);
}

/** A fresh stream per attempt: a body stream can be sent only once. */
export function requestBody(file, options) {
	return ReadableStream.from(chunks(file, options));
}
