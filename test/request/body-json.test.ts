import { describe, expect, it } from "vitest";
import { readTranslateBody } from "../../src/request/body";
import { everySplit, generatedStream, randomChunking, refusal, seededRandom, streamOf } from "./streams";

const KNOWN = ["sourceLanguage", "targetLanguage", "mode", "translator", "customPrompt"];

/** What the reader must produce for a body JSON.parse understands: the known fields, containers as same-typed placeholders. */
function expectedFields(parsed: Record<string, unknown>): Record<string, unknown> {
	const fields: Record<string, unknown> = {};
	for (const key of KNOWN) {
		if (!(key in parsed)) continue;
		const value = parsed[key];
		fields[key] = Array.isArray(value) ? [] : typeof value === "object" && value !== null ? {} : value;
	}
	return fields;
}

// Accepted and refused JSON, judged against JSON.parse: an object is accepted, anything else is 400.
const CORPUS = [
	'{"sourceLanguage":"ja","targetLanguage":"en"}',
	' \n\t{ "mode" : "manga" , "translator":"GEMINI" }\r\n ',
	'{"customPrompt":"quotes \\" backslash \\\\ slash \\/ \\b\\f\\n\\r\\t \\u00e9 \\uD83D\\uDE00 lone \\ud800"}',
	'{"customPrompt":"héllo 漢字 😀 Ünïcödé"}',
	'{"mode":null,"translator":true,"sourceLanguage":false,"targetLanguage":-12.5e+3,"customPrompt":0}',
	'{"mode":{"a":[1,2,{"b":null}]},"translator":[["x"],{}],"extra":{"deep":[[[[1]]]]}}',
	'{"numbers":[0,-0,1.5,1e5,1E-5,-0.0e0,123456789012345678901234567890]}',
	'{"mode":"first","mode":"last"}',
	'{"__proto__":{"mode":"x"},"constructor":"y","mode":"z"}',
	'{"":"empty key","\\u006dode":"escaped key"}',
	"{}",
	"[]",
	'["sourceLanguage"]',
	'"a string"',
	"42",
	"true",
	"null",
	'{"a":1}{"b":2}',
	'{"a":1} x',
	'{"a":1,}',
	'{"a":[1,]}',
	'{"a" 1}',
	"{a:1}",
	"{'a':1}",
	'{"a":01}',
	'{"a":1.}',
	'{"a":.5}',
	'{"a":-}',
	'{"a":1e}',
	'{"a":+1}',
	'{"a":tru}',
	'{"a":nul}',
	'{"a":True}',
	'{"a":"\\x41"}',
	'{"a":"\\u12G4"}',
	'{"a":"tab\there"}',
	'{"a":"newline\nhere"}',
	'{"a":[}',
	'{"a":{]}',
	'{"a":1',
	'{"a":"unterminated',
	"{",
	"hello",
	"<html>",
];

describe("readTranslateBody: JSON structure", () => {
	it.each(CORPUS)("judges %s as JSON.parse does, for every chunking", async (body) => {
		let parsed: unknown;
		try {
			parsed = JSON.parse(body);
		} catch {
			parsed = undefined;
		}
		const isObject = typeof parsed === "object" && parsed !== null && !Array.isArray(parsed);
		const random = seededRandom(body.length);
		const streams = [...everySplit(body), streamOf(body, randomChunking(body.length, random, 5))];
		for (const stream of streams) {
			if (isObject) {
				const result = await readTranslateBody(stream, null);
				expect(result.fields).toEqual(expectedFields(parsed as Record<string, unknown>));
				expect(result.image).toEqual({ kind: "missing" });
			} else {
				expect((await refusal(readTranslateBody(stream, null))).status).toBe(400);
			}
		}
	});

	it("says why a body is refused", async () => {
		const detail = async (body: string) => (await refusal(readTranslateBody(streamOf(body), null))).detail;
		expect(await detail("")).toBe("The request body is empty");
		expect(await detail("  \n")).toBe("The request body is empty");
		expect(await detail('["a"]')).toBe("The request body must be a JSON object");
		expect(await detail('"text"')).toBe("The request body must be a JSON object");
		expect(await detail("hello")).toMatch(/^The request body is not valid JSON: unexpected "h" at byte 0/);
		expect(await detail('{"a":1} trailing')).toMatch(/not valid JSON: unexpected "t" after the object at byte 8/);
		expect(await detail('{"a":1')).toMatch(/not valid JSON: it ends before the object is closed/);
	});

	it("refuses a missing body as empty", async () => {
		const error = await refusal(readTranslateBody(null, null));
		expect([error.status, error.detail]).toEqual([400, "The request body is empty"]);
	});

	it("accepts nesting 64 deep and refuses 65, without recursing", async () => {
		const nested = (depth: number) => `{"extra":${"[".repeat(depth - 1)}${"]".repeat(depth - 1)}}`;
		await expect(readTranslateBody(streamOf(nested(64)), null)).resolves.toMatchObject({ fields: {} });
		const error = await refusal(readTranslateBody(streamOf(nested(65)), null));
		expect(error.status).toBe(400);
		expect(error.detail).toMatch(/nested deeper than 64/);
		// A hostile depth far beyond any stack: refused at level 65 without reading further.
		const hostile = await refusal(readTranslateBody(streamOf(`{"a":${'{"a":'.repeat(1_000_000)}`), null));
		expect(hostile.detail).toMatch(/nested deeper than 64/);
	});

	it("refuses invalid UTF-8 in a string, and a UTF-8 sequence cut by the closing quote", async () => {
		const bytes = (...parts: (string | number[])[]) =>
			new Uint8Array(parts.flatMap((part) => (typeof part === "string" ? [...new TextEncoder().encode(part)] : part)));
		for (const body of [
			bytes('{"customPrompt":"', [0xff], '"}'),
			bytes('{"unknown":"', [0xc3], '"}'),
			bytes('{"customPrompt":"', [0xe6, 0xbc], '"}'),
			bytes('{"customPrompt":"', [0xed, 0xa0, 0x80], '"}'), // an encoded surrogate
		]) {
			const error = await refusal(readTranslateBody(streamOf(body, new Array(body.length).fill(1)), null));
			expect([error.status, error.detail]).toEqual([400, "The request body is not valid UTF-8"]);
		}
	});

	it("keeps a long known string truncated past every limit, and skips unknown fields of any size", async () => {
		const prompt = "p".repeat(100_000);
		const body = `{"customPrompt":"${prompt}","unknown":"${"u".repeat(1_000_000)}","other":[${"1,".repeat(100_000)}1]}`;
		const result = await readTranslateBody(streamOf(body, randomChunking(body.length, seededRandom(7), 4096)), null);
		expect(result.fields).toEqual({ customPrompt: "p".repeat(4097) });
		const exact = await readTranslateBody(streamOf(`{"customPrompt":"${"é".repeat(1001)}"}`), null);
		expect(exact.fields.customPrompt).toBe("é".repeat(1001));
	});

	it("never stores unknown fields, including ones named after Object.prototype", async () => {
		const result = await readTranslateBody(streamOf('{"__proto__":{"polluted":1},"toString":"x","mode":"m"}'), null);
		expect(Object.keys(result.fields)).toEqual(["mode"]);
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});

	it("stops reading at the first error and leaves the rest unread", async () => {
		for (const head of ['{"a":1} trailing', "[", '{"mode":}']) {
			const body = generatedStream(head, "x", 10 * 1024 * 1024, "");
			expect((await refusal(readTranslateBody(body.stream, null))).status).toBe(400);
			expect(body.pulled()).toBe(head.length);
			expect(body.stream.locked).toBe(false); // the rest is http/drain.ts's to read
		}
	});

	it("answers 400 when the stream fails before its end", async () => {
		let sent = false;
		const failing = new ReadableStream<Uint8Array>({
			pull(controller) {
				if (sent) return controller.error(new Error("connection reset"));
				sent = true;
				controller.enqueue(new TextEncoder().encode('{"mode":"ma'));
			},
		});
		const error = await refusal(readTranslateBody(failing, null));
		expect([error.status, error.detail]).toEqual([400, "The request body could not be read to its end"]);
	});
});
