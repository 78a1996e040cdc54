import { describe, expect, it } from "vitest";
import { openApiRoutes } from "../../src/http/openapi";
import { LANGUAGES } from "../../src/request/languages";
import {
	errorBodySchema,
	replayBodySchema,
	translateRequestSchema,
	translateSuccessSchema,
} from "../../src/request/schema";

// biome-ignore lint/suspicious/noExplicitAny: the assertions below are what check the document's shape
type Json = Record<string, any>;

async function fetchDocument(): Promise<Json> {
	const res = await openApiRoutes.request("/openapi.json");
	expect(res.status).toBe(200);
	expect(res.headers.get("content-type")).toContain("application/json");
	return res.json();
}

/** Every `$ref` string anywhere in the document. */
function refs(node: unknown): string[] {
	if (!node || typeof node !== "object") return [];
	return Object.entries(node).flatMap(([key, value]) => (key === "$ref" ? [value as string] : refs(value)));
}

function resolve(doc: Json, ref: string): unknown {
	return (
		ref
			.slice(2)
			.split("/")
			// biome-ignore lint/suspicious/noExplicitAny: a walk through untyped JSON
			.reduce<any>((node, key) => node?.[key], doc)
	);
}

const SPEC_STATUSES = ["200", "400", "401", "402", "403", "409", "413", "422", "429", "500"];
/** The routing answers (DESIGN step 1), documented too. */
const ROUTING_STATUSES = ["404", "405"];

/** The listed values of an enumerated request field: the `anyOf` branch with `enum`. */
function listed(field: Json): Json {
	return field.anyOf.find((branch: Json) => Array.isArray(branch.enum));
}

/** Whether `value` passes the field as a validating proxy reads it: any `anyOf` branch. */
function admits(field: Json, value: string): boolean {
	return field.anyOf.some((branch: Json) =>
		branch.enum ? branch.enum.includes(value) : new RegExp(branch.pattern).test(value),
	);
}

describe("GET /openapi.json", () => {
	it("is OpenAPI 3.1 and describes every status the spec lists", async () => {
		const doc = await fetchDocument();
		expect(doc.openapi).toMatch(/^3\.1\./);
		const op = doc.paths["/translate/image"].post;
		expect(Object.keys(op.responses).sort()).toEqual([...SPEC_STATUSES, ...ROUTING_STATUSES].sort());
	});

	it("has no dangling $ref", async () => {
		const doc = await fetchDocument();
		const all = refs(doc);
		expect(all.length).toBeGreaterThan(10);
		for (const ref of all) expect(resolve(doc, ref), ref).toBeTypeOf("object");
	});

	it("lists exactly the service's languages, with names, and `auto` only as a source", async () => {
		const doc = await fetchDocument();
		const props = doc.components.schemas.TranslateRequest.properties;
		expect(listed(props.targetLanguage).enum).toEqual(Object.keys(LANGUAGES));
		expect(listed(props.sourceLanguage).enum).toEqual(["auto", ...Object.keys(LANGUAGES)]);
		expect(listed(props.targetLanguage)["x-enumDescriptions"].ja).toBe("Japanese");
		expect(listed(props.mode).default).toBe("general");
		expect(listed(props.translator).default).toBe("grok");
		expect(doc.components.schemas.TranslateRequest.required).toEqual([
			"imageBase64",
			"sourceLanguage",
			"targetLanguage",
		]);
	});

	it("admits every spelling the service accepts, so a validating proxy lets them through", async () => {
		const props = (await fetchDocument()).components.schemas.TranslateRequest.properties;
		for (const [field, spellings] of Object.entries({
			sourceLanguage: ["ja", "JA", " Ja ", "AUTO", "zh-Hans", "pt_BR", "iw"],
			targetLanguage: ["en", "EN", "zh-TW", "ZH_tw"],
			mode: ["manga", "MANGA", "Light-Novel", " e-commerce "],
			translator: ["grok", "GEMINI", "ChatGPT"],
		})) {
			for (const value of spellings) {
				expect(admits(props[field], value), `${field} ${value}`).toBe(true);
				expect(translateRequestSchema.shape[field as "mode"].safeParse(value).success, `${field} ${value}`).toBe(true);
			}
		}
		expect(admits(props.targetLanguage, "auto")).toBe(false);
		expect(admits(props.mode, "comic")).toBe(false);
		expect(admits(props.translator, "grok-4")).toBe(false);
	});

	it("keeps fields with a default optional: the default sits with the listed values", async () => {
		const schema = (await fetchDocument()).components.schemas.TranslateRequest;
		expect(schema.required).not.toContain("mode");
		for (const field of Object.values<Json>(schema.properties)) expect(field.default).toBeUndefined();
	});

	it("names a local server and a placeholder for a deployment", async () => {
		const { servers } = await fetchDocument();
		expect(servers[0].url).toBe("http://127.0.0.1:8787");
		expect(servers[1]).toMatchObject({ url: "https://{host}", variables: { host: { default: expect.any(String) } } });
	});

	it("gives examples that the service's own schemas accept", async () => {
		const doc = await fetchDocument();
		const op = doc.paths["/translate/image"].post;
		for (const example of Object.values<Json>(op.requestBody.content["application/json"].examples)) {
			expect(translateRequestSchema.safeParse(example.value).success).toBe(true);
		}
		expect(translateSuccessSchema.safeParse(op.responses["200"].content["application/json"].example).success).toBe(
			true,
		);
		expect(replayBodySchema.safeParse(op.responses["409"].content["application/json"].example).success).toBe(true);
		for (const status of [...SPEC_STATUSES, ...ROUTING_STATUSES].filter((s) => s !== "200" && s !== "409")) {
			const response = op.responses[status].$ref
				? (resolve(doc, op.responses[status].$ref) as Json)
				: op.responses[status];
			const body = response.content["application/json"].example;
			expect(errorBodySchema.safeParse(body).success, status).toBe(true);
		}
		expect(op.responses["422"].content["application/json"].example.detail).toMatch(/^Invalid field: /);
	});

	it("describes the idempotency and rate-limit headers where they apply", async () => {
		const doc = await fetchDocument();
		const op = doc.paths["/translate/image"].post;
		const idem = resolve(doc, op.parameters[0].$ref) as Json;
		expect(idem).toMatchObject({ name: "Idempotency-Key", in: "header", schema: { minLength: 1, maxLength: 255 } });
		const pattern = new RegExp(idem.schema.pattern);
		expect(pattern.test(idem.example)).toBe(true);
		expect(pattern.test("naïve")).toBe(false);
		expect(Object.keys(op.responses["429"].headers)).toEqual(
			expect.arrayContaining(["Retry-After", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"]),
		);
		expect(Object.keys(op.responses["200"].headers)).toContain("RateLimit-Remaining");
		// 401 and 403 answer before the key's rate limit is looked at.
		expect(op.responses["401"].headers).toBeUndefined();
		expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: "http", scheme: "bearer" });
	});
});

describe("GET /docs", () => {
	it("is a script-free page naming every status, header and field", async () => {
		const res = await openApiRoutes.request("/docs");
		expect(res.status).toBe(200);
		expect(res.headers.get("content-type")).toContain("text/html");
		const html = await res.text();
		expect(html).not.toMatch(/<script|https?:\/\/cdn/i);
		for (const status of SPEC_STATUSES) expect(html).toContain(`id="status-${status}"`);
		for (const name of [
			"Authorization",
			"Idempotency-Key",
			"RateLimit-Limit",
			"RateLimit-Remaining",
			"RateLimit-Reset",
			"Retry-After",
		]) {
			expect(html).toContain(`<code>${name}</code>`);
		}
		for (const field of Object.keys(translateRequestSchema.shape)) expect(html).toContain(`<code>${field}</code>`);
		expect(html).toContain("<code>zh-tw</code> Traditional Chinese");
		expect(html).toContain("$YAKUSU_BASE_URL/translate/image");
	});
});
