import { describe, expect, it } from "vitest";
import { readTranslateBody } from "../../src/request/body";
import type { RequestError } from "../../src/request/errors";
import { everySplit, randomBytes, randomChunking, refusal, seededRandom, streamOf } from "./streams";

function toBase64(bytes: Uint8Array): string {
	let binary = "";
	for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
	return btoa(binary);
}

/** The reference: the platform's forgiving base64 decoder (atob), after the data URL header and URL-safe digits. */
function referenceDecode(value: string): Uint8Array {
	const payload = value
		.replace(/^\s*data:[^,]*;base64,/i, "")
		.replace(/-/g, "+")
		.replace(/_/g, "/");
	return Uint8Array.from(atob(payload), (character) => character.charCodeAt(0));
}

/** The body with `literal` as the JSON text of imageBase64 (escapes included). */
const imageBody = (literal: string) => `{"sourceLanguage":"ja","imageBase64":"${literal}","targetLanguage":"en"}`;

async function decode(literal: string, chunking?: number[]): Promise<Uint8Array> {
	const result = await readTranslateBody(streamOf(imageBody(literal), chunking), null);
	if (result.image.kind !== "bytes") throw new Error(`expected bytes, got ${result.image.kind}`);
	return result.image.bytes;
}

function refusalOf(literal: string): Promise<RequestError> {
	return refusal(decode(literal));
}

// 14 bytes whose base64, "SW1hZ2VzPz5+IMO/w7s=", holds padding and both of the alphabet's last two digits.
const HELLO = new TextEncoder().encode("Images?>~ ÿû");

describe("readTranslateBody: imageBase64", () => {
	const padded = toBase64(HELLO);
	const forms: [string, string][] = [
		["raw with padding", padded],
		["raw without padding", padded.replace(/=+$/, "")],
		["a data URL", `data:image/png;base64,${padded}`],
		["a data URL of any media type, with parameters", `data:application/octet-stream;name=a.png;base64,${padded}`],
		["an upper-case data URL", `DATA:IMAGE/PNG;BASE64,${padded}`],
		["a data URL with an escaped slash", `data:image\\/png;base64,${padded}`],
		["raw spaces anywhere", `  ${padded.slice(0, 5)} ${padded.slice(5, 9)}   ${padded.slice(9)} `],
		["escaped line breaks every 4 characters", padded.replace(/(.{4})/g, "$1\\r\\n")],
		["escaped tabs and form feeds", `\\t${padded.slice(0, 7)}\\f${padded.slice(7)}\\n`],
		["escaped digits", padded.replace(/\//g, "\\/").replace(/S/g, "\\u0053").replace(/=/g, "\\u003d")],
		["the URL-safe alphabet", padded.replace(/\+/g, "-").replace(/\//g, "_")],
	];

	it.each(forms)("decodes %s, split at every position", async (_name, literal) => {
		expect(padded).toBe("SW1hZ2VzPz5+IMO/w7s=");
		for (const stream of everySplit(imageBody(literal))) {
			const result = await readTranslateBody(stream, null);
			expect(result.image).toEqual({ kind: "bytes", bytes: HELLO });
			expect(result.fields).toEqual({ sourceLanguage: "ja", targetLanguage: "en" });
		}
	});

	it("decodes an empty string, and an empty data URL, to zero bytes", async () => {
		expect(await decode("")).toEqual(new Uint8Array(0));
		expect(await decode("data:image/png;base64,")).toEqual(new Uint8Array(0));
		expect(await decode("   ")).toEqual(new Uint8Array(0));
	});

	it('takes "data" at the start of raw base64 as base64, not as a data URL', async () => {
		expect(await decode("ZGF0YQ==")).toEqual(new TextEncoder().encode("data"));
		expect(await decode("data")).toEqual(new Uint8Array([0x75, 0xab, 0x5a]));
	});

	const invalid: [string, string][] = [
		["an invalid character", "SGVsbG8!"],
		["a dot", "SGVs.bG8="],
		["a non-ASCII character", "SGVsbé8="],
		["an escaped non-ASCII character", "SGVs\\u00e9G8="],
		["an escaped quote", 'SGVs\\"bG8='],
		["padding in the middle", "SGVsbA==bG8="],
		["padding then a digit", "SGVsbG8=A"],
		["too much padding", "SGVsbA==="],
		["padding after one digit of a quantum", "SGVsb==="],
		["padding only", "=="],
		["a lone trailing digit (6 bits)", "SGVsbG8gd"],
		["a data URL whose payload is not base64", "data:image/png;base64,not*base64"],
		["a data URL header that never ends", "data:image/png;base64"],
		["a scheme that only looks like data: to a careless case fold", "data\\u001aimage/png;base64,SGVsbG8="],
		["a data URL header longer than any media type", `data:${"x".repeat(300)};base64,SGVsbG8=`],
	];

	it.each(invalid)("refuses %s with 400", async (_name, literal) => {
		const error = await refusalOf(literal);
		expect([error.status, error.detail]).toEqual([400, "imageBase64 is not valid base64"]);
	});

	it("refuses a data URL without ;base64 with its own detail", async () => {
		const error = await refusalOf("data:image/png,SGVsbG8=");
		expect([error.status, error.detail]).toEqual([400, "imageBase64 is a data URL without ;base64"]);
	});

	it("refuses a raw control character inside the string as invalid JSON", async () => {
		const error = await refusalOf("SGVs\tbG8=");
		expect(error.status).toBe(400);
		expect(error.detail).toMatch(/not valid JSON: unescaped control character/);
	});

	it("reports a missing image, and a non-string one, without failing", async () => {
		const read = async (body: string) => (await readTranslateBody(streamOf(body), null)).image;
		expect(await read('{"mode":"manga"}')).toEqual({ kind: "missing" });
		for (const value of ["42", "null", "true", "{}", '["SGVsbG8="]', '{"data":"SGVsbG8="}']) {
			expect(await read(`{"imageBase64":${value}}`)).toEqual({ kind: "not-a-string" });
		}
	});

	it("lets the last imageBase64 win, whatever came before", async () => {
		const read = async (body: string) => (await readTranslateBody(streamOf(body), null)).image;
		const long = toBase64(new Uint8Array(300).fill(7));
		expect(await read(`{"imageBase64":"${long}","imageBase64":"${padded}"}`)).toEqual({ kind: "bytes", bytes: HELLO });
		expect(await read(`{"imageBase64":"${padded}","imageBase64":1}`)).toEqual({ kind: "not-a-string" });
		expect(await read(`{"imageBase64":[1],"imageBase64":"${padded}"}`)).toEqual({ kind: "bytes", bytes: HELLO });
	});

	it("matches the original bytes and the reference decoder on random data, formats and chunkings", async () => {
		const random = seededRandom(20261122);
		for (let round = 0; round < 300; round++) {
			const original = randomBytes(Math.floor(random() * 600), random);
			let digits = toBase64(original);
			if (random() < 0.5) digits = digits.replace(/=+$/, "");
			if (random() < 0.5) digits = digits.replace(/\+/g, "-").replace(/\//g, "_");
			// Spell each character as JSON allows: raw, escaped, or after whitespace.
			let literal = random() < 0.3 ? "data:image/webp;base64," : "";
			for (const character of digits) {
				const roll = random();
				if (roll < 0.05) literal += [" ", "\\n", "\\r\\n", "\\t"][Math.floor(random() * 4)];
				if (roll > 0.97) literal += `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`;
				else if (roll > 0.95 && character === "/") literal += "\\/";
				else literal += character;
			}
			const body = imageBody(literal);
			const result = await readTranslateBody(streamOf(body, randomChunking(body.length, random, 40)), null);
			const decoded = result.image.kind === "bytes" ? result.image.bytes : null;
			expect(decoded, `round ${round}: ${literal}`).toEqual(original);
			expect(decoded).toEqual(referenceDecode(JSON.parse(`"${literal}"`)));
		}
	});

	it("decodes a large image the same whether the body length is exact, understated or unknown", async () => {
		const random = seededRandom(5);
		const original = randomBytes(3 * 1024 * 1024 + 1, random);
		const body = imageBody(`data:image/png;base64,${toBase64(original)}`);
		for (const declared of [body.length, 1000, null]) {
			const stream = streamOf(body, randomChunking(body.length, random, 100_000));
			const result = await readTranslateBody(stream, declared);
			const decoded = result.image.kind === "bytes" ? result.image.bytes : new Uint8Array(0);
			expect(decoded.length).toBe(original.length);
			// Compared by hand: a deep equality of millions of elements takes the test runner minutes.
			expect(decoded.findIndex((byte, index) => byte !== original[index])).toBe(-1);
		}
	});
});
