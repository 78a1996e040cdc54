/**
 * Differential fuzz target: the streaming body reader (src/request/body.ts) against a reference built
 * from the platform's own parts: a strict UTF-8 decode, JSON.parse (the last duplicate member wins) and
 * a plain base64 decode with the reader's documented rules. Every input is read twice, whole and cut
 * into small chunks at places drawn from its bytes; the two readings and the reference must agree on
 * the status (400, 413) or on the fields and image bytes. `run` throws only for a disagreement.
 */
import { MAX_IMAGE_BYTES, readTranslateBody, type TranslateBody } from "../../src/request/body";
import { RequestError } from "../../src/request/errors";
import { MAX_DEPTH } from "../../src/request/json-object-stream";
import { translateOptionsSchema } from "../../src/request/schema";
import type { FuzzTarget } from "../target";

/** What a body comes to: a refusal's status, or what the reader hands on. */
type Outcome = { status: 400 | 413 } | { fields: Record<string, unknown>; image: NormalImage };
type NormalImage = { kind: "missing" } | { kind: "not-a-string" } | { kind: "bytes"; hex: string };

const KNOWN_FIELDS = new Set(Object.keys(translateOptionsSchema.shape));
/** Characters the reader keeps of a field's string (body.ts); longer values fail validation anyway. */
const KEPT_TEXT_MAX = 4097;
const WHITESPACE = new Set([" ", "\t", "\n", "\f", "\r"]);
const DATA_URL_HEADER_MAX = 256;
const DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

function hex(bytes: Uint8Array): string {
	return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Containers only matter by type, numbers only by being numbers (the reader keeps a number's first digits). */
function normalValue(value: unknown): unknown {
	if (Array.isArray(value)) return [];
	if (value !== null && typeof value === "object") return {};
	if (typeof value === "number") return "a number";
	if (typeof value === "string") return value.slice(0, KEPT_TEXT_MAX);
	return value;
}

/** Deepest nesting outside strings: the reader refuses more than MAX_DEPTH with 400. */
function depth(text: string): number {
	let deepest = 0;
	let level = 0;
	let inString = false;
	for (let i = 0; i < text.length; i++) {
		const ch = text[i];
		if (inString) {
			if (ch === "\\") i++;
			else if (ch === '"') inString = false;
		} else if (ch === '"') inString = true;
		else if (ch === "{" || ch === "[") deepest = Math.max(deepest, ++level);
		else if (ch === "}" || ch === "]") level--;
	}
	return deepest;
}

/** imageBase64's rules, stated plainly: optional data URL with an ASCII header ending in ;base64. */
function referenceBase64(value: string): Uint8Array | 400 | 413 {
	let text = value;
	let start = 0;
	while (start < text.length && WHITESPACE.has(text[start] as string)) start++;
	text = text.slice(start);
	if (text.slice(0, 5).toLowerCase() === "data:") {
		const comma = text.indexOf(",");
		if (comma < 0) return 400;
		const header = text.slice(5, comma);
		if (header.length > DATA_URL_HEADER_MAX || [...header].some((ch) => ch.charCodeAt(0) >= 0x80)) return 400;
		if (!header.toLowerCase().endsWith(";base64")) return 400;
		text = text.slice(comma + 1);
	}
	const values: number[] = [];
	let padding = 0;
	for (const ch of text) {
		if (WHITESPACE.has(ch)) continue;
		if (ch === "=") {
			const inQuantum = values.length % 4;
			if (inQuantum < 2 || inQuantum + padding >= 4) return 400;
			padding++;
			continue;
		}
		const digit = ch === "-" ? 62 : ch === "_" ? 63 : DIGITS.indexOf(ch);
		if (digit < 0 || padding > 0) return 400;
		values.push(digit);
	}
	if (values.length % 4 === 1) return 400;
	const bytes: number[] = [];
	for (let i = 0; i < values.length; i += 4) {
		const quantum = values.slice(i, i + 4);
		const bits = quantum.reduce((acc, v) => (acc << 6) | v, 0) << (6 * (4 - quantum.length));
		// 4 digits give 3 bytes, 3 give 2, 2 give 1.
		bytes.push(...[bits >> 16, (bits >> 8) & 0xff, bits & 0xff].slice(0, quantum.length - 1));
	}
	return bytes.length > MAX_IMAGE_BYTES ? 413 : Uint8Array.from(bytes);
}

export function reference(input: Uint8Array): Outcome {
	let text: string;
	try {
		// A byte order mark is not whitespace to JSON: kept, so that JSON.parse refuses it as the reader does.
		text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(input);
	} catch {
		return { status: 400 };
	}
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		return { status: 400 };
	}
	if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return { status: 400 };
	if (depth(text) > MAX_DEPTH) return { status: 400 };
	const members = parsed as Record<string, unknown>;
	const fields: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(members)) if (KNOWN_FIELDS.has(key)) fields[key] = normalValue(value);
	if (!Object.hasOwn(members, "imageBase64")) return { fields, image: { kind: "missing" } };
	const image = members.imageBase64;
	if (typeof image !== "string") return { fields, image: { kind: "not-a-string" } };
	const decoded = referenceBase64(image);
	if (typeof decoded === "number") return { status: decoded };
	return { fields, image: { kind: "bytes", hex: hex(decoded) } };
}

/** The reader's outcome for `input` cut into the given chunk sizes. */
async function readerOutcome(input: Uint8Array, sizes: number[]): Promise<Outcome> {
	let at = 0;
	let next = 0;
	const stream = new ReadableStream<Uint8Array>({
		pull(controller) {
			if (at >= input.length) return controller.close();
			const size = sizes[next++ % sizes.length] as number;
			controller.enqueue(input.slice(at, at + size));
			at += size;
		},
	});
	let body: TranslateBody;
	try {
		body = await readTranslateBody(stream, null);
	} catch (error) {
		if (error instanceof RequestError && (error.status === 400 || error.status === 413)) {
			return { status: error.status };
		}
		throw error;
	}
	const fields = Object.fromEntries(Object.entries(body.fields).map(([k, v]) => [k, normalValue(v)]));
	const image: NormalImage = body.image.kind === "bytes" ? { kind: "bytes", hex: hex(body.image.bytes) } : body.image;
	return { fields, image };
}

/** Chunk sizes of 1 to 7 bytes drawn from the input itself, so a failure replays exactly. */
function chunkSizes(input: Uint8Array): number[] {
	const sizes: number[] = [];
	for (let i = 0; i < Math.min(64, input.length); i++) sizes.push(1 + (((input[i] as number) * 31 + i) % 7));
	return sizes.length ? sizes : [1];
}

const encoder = new TextEncoder();
const body = (text: string) => encoder.encode(text);
const HELLO = "aGVsbG8gd29ybGQ=";

export const bodyTarget: FuzzTarget = {
	name: "body",
	seeds: () => [
		body(`{"imageBase64":"${HELLO}","sourceLanguage":"ja","targetLanguage":"en"}`),
		body(`{"imageBase64":"data:image/png;base64,${HELLO}","mode":"manga","translator":"gemini"}`),
		body(`{"imageBase64":"DATA:image/webp;charset=x;BASE64, aGVs\\nbG8-_w","customPrompt":"Keep -san"}`),
		body(`{"imageBase64":"\\u0061GVsbG8","imageBase64":"${HELLO}","extra":{"a":[1,2,{"b":null}]}}`),
		body(`{"imageBase64":"!!","imageBase64":"${HELLO}"}`),
		body(`{"mode":"light-novel","imageBase64":7,"targetLanguage":"\\u00e9t\\ud83d\\ude00"}`),
		body(`{"imageBase64":"aGVsbA==","sourceLanguage":-1.5e3,"translator":true}`),
		body(` { "imageBase64" : "aGVsbA" , "mode" : [ ] } `),
	],
	crafted: () => [
		{
			name: "raw non-UTF-8 byte in a data URL header",
			bytes: new Uint8Array([...body('{"imageBase64":"data:'), 0xff, ...body(`;base64,${HELLO}"}`)]),
		},
		{ name: "non-ASCII in a data URL header", bytes: body(`{"imageBase64":"data:image/pñg;base64,${HELLO}"}`) },
		{ name: "invalid base64, then a valid duplicate", bytes: body(`{"imageBase64":"@@@@","imageBase64":"${HELLO}"}`) },
		{ name: "valid base64, then an invalid duplicate", bytes: body(`{"imageBase64":"${HELLO}","imageBase64":"@@@@"}`) },
		{
			name: "invalid base64 with invalid UTF-8 after it",
			bytes: new Uint8Array([...body('{"imageBase64":"@'), 0xc3, 0x28, ...body(`","imageBase64":"${HELLO}"}`)]),
		},
		{ name: "byte order mark", bytes: new Uint8Array([0xef, 0xbb, 0xbf, ...body(`{"imageBase64":"${HELLO}"}`)]) },
		{
			name: "nested as deep as allowed",
			bytes: body(`{"x":${"[".repeat(MAX_DEPTH - 1)}${"]".repeat(MAX_DEPTH - 1)},"imageBase64":"${HELLO}"}`),
		},
		{
			name: "nested one deeper",
			bytes: body(`{"x":${"[".repeat(MAX_DEPTH)}${"]".repeat(MAX_DEPTH)},"imageBase64":"${HELLO}"}`),
		},
		{
			name: "data URL header at its longest",
			bytes: body(`{"imageBase64":"data:${"x".repeat(249)};base64,${HELLO}"}`),
		},
		{ name: "data URL header one too long", bytes: body(`{"imageBase64":"data:${"x".repeat(250)};base64,${HELLO}"}`) },
	],
	async run(input) {
		const expected = JSON.stringify(reference(input));
		for (const sizes of [[input.length || 1], chunkSizes(input)]) {
			const actual = JSON.stringify(await readerOutcome(input, sizes));
			if (actual !== expected) {
				throw new Error(`body reader (chunks ${sizes.slice(0, 8).join(",")}…) gave ${actual}, reference ${expected}`);
			}
		}
	},
};

/** What the fuzz harness (fuzz/run.mjs) runs: every module in fuzz/targets/ default-exports its target. */
export default bodyTarget;
