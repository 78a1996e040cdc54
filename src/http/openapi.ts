import { Hono } from "hono";
import { type ZodType, z } from "zod";
import { LANGUAGES } from "../request/languages";
import { MODES, TRANSLATORS } from "../request/options";
import { errorBodySchema, replayBodySchema, translateRequestSchema, translateSuccessSchema } from "../request/schema";
import { renderDocsPage } from "./docs-page";

/**
 * The OpenAPI 3.1 description of the public endpoint. Body schemas come from the zod schemas that
 * validate requests (JSON Schema draft 2020-12 is OpenAPI 3.1's dialect), so the description cannot
 * drift from what the service accepts; only statuses, headers and examples are written here.
 */

type JsonObject = Record<string, unknown>;

/** Language names, keyed by code, so that clients (the playground among them) can show "ja Japanese". */
const LANGUAGE_NAMES: JsonObject = { auto: "Detect automatically", ...LANGUAGES };

function jsonSchema(schema: ZodType, io: "input" | "output"): JsonObject {
	const converted = z.toJSONSchema(schema, {
		target: "draft-2020-12",
		io,
		override: ({ zodSchema, jsonSchema: json }) => {
			const def = zodSchema._zod.def;
			// zod drops defaults from the input side of a preprocess pipe; the default is a valid input too.
			if (def.type === "default" && json.default === undefined) json.default = def.defaultValue;
			// `example` is OpenAPI 3.0's keyword; 3.1 schemas use JSON Schema's `examples` array.
			if ("example" in json) {
				json.examples = [json.example];
				delete json.example;
			}
			// z.number().int() states the safe-integer range; that says nothing to a reader.
			if (json.minimum === Number.MIN_SAFE_INTEGER) delete json.minimum;
			if (json.maximum === Number.MAX_SAFE_INTEGER) delete json.maximum;
			// Enumerated language codes carry their names (Redocly's `x-enumDescriptions` convention).
			if (Array.isArray(json.enum) && json.enum.includes("en")) {
				json["x-enumDescriptions"] = Object.fromEntries(json.enum.map((code) => [code, LANGUAGE_NAMES[String(code)]]));
			}
		},
	}) as JsonObject;
	delete converted.$schema;
	return converted;
}

/** One value of `values`, in any case, with spaces around it allowed: what the service accepts for mode and translator. */
function anyCasePattern(values: string[]): string {
	const letters = (value: string) =>
		[...value].map((ch) => (/[a-z]/i.test(ch) ? `[${ch.toUpperCase()}${ch.toLowerCase()}]` : ch)).join("");
	return `^\\s*(?:${values.map(letters).join("|")})\\s*$`;
}

/**
 * What a language code looks like, in any case, `_` for `-`: the service maps aliases (zh-Hans, iw,
 * pt_BR) to listed codes and answers 422 for a code it does not know.
 */
const LANGUAGE_CODE_PATTERN = "^\\s*[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*\\s*$";
const SOURCE_LANGUAGE_PATTERN = "^\\s*(?:[Aa][Uu][Tt][Oo]|[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*)\\s*$";

/**
 * An enumerated request field as validators and generators should read it: the listed values (with
 * their names and the default) or any spelling the service also accepts. The default sits with the
 * list, not on the field, so that generated clients keep the field optional (openapi-typescript makes
 * a field with a top-level default required).
 */
function admitAnyCase(field: JsonObject, pattern: string): JsonObject {
	const { enum: values, default: fallback, "x-enumDescriptions": names, type: _, ...annotations } = field;
	const listed: JsonObject = { type: "string", enum: values };
	if (fallback !== undefined) listed.default = fallback;
	if (names !== undefined) listed["x-enumDescriptions"] = names;
	return { ...annotations, anyOf: [listed, { type: "string", pattern }] };
}

function requestSchema(): JsonObject {
	const schema = jsonSchema(translateRequestSchema, "input");
	const fields = schema.properties as Record<string, JsonObject>;
	fields.sourceLanguage = admitAnyCase(fields.sourceLanguage as JsonObject, SOURCE_LANGUAGE_PATTERN);
	fields.targetLanguage = admitAnyCase(fields.targetLanguage as JsonObject, LANGUAGE_CODE_PATTERN);
	fields.mode = admitAnyCase(fields.mode as JsonObject, anyCasePattern([...MODES]));
	fields.translator = admitAnyCase(fields.translator as JsonObject, anyCasePattern([...TRANSLATORS]));
	return schema;
}

const integerHeader = (description: string, example: number) => ({
	description,
	schema: { type: "integer", minimum: 0 },
	example,
});

/** Carried by every answer once the key and plan have passed, so a client can pace itself. */
const RATE_LIMIT_HEADERS = {
	"RateLimit-Limit": { $ref: "#/components/headers/RateLimit-Limit" },
	"RateLimit-Remaining": { $ref: "#/components/headers/RateLimit-Remaining" },
	"RateLimit-Reset": { $ref: "#/components/headers/RateLimit-Reset" },
};

function errorResponse(description: string, detail: string, withRateLimit = true) {
	return {
		description,
		...(withRateLimit ? { headers: RATE_LIMIT_HEADERS } : {}),
		content: {
			"application/json": { schema: { $ref: "#/components/schemas/ErrorBody" }, example: { detail } },
		},
	};
}

/** Sends page.png and saves the translation as page.en.png (curl, base64, node; the CLI's two variables). */
const CURL_SAMPLE = `(printf '{"sourceLanguage":"ja","targetLanguage":"en","imageBase64":"'; base64 -w0 page.png; printf '"}') \\
  | curl -s "$YAKUSU_BASE_URL/translate/image" \\
      -H "Authorization: Bearer $YAKUSU_API_KEY" -H "Content-Type: application/json" \\
      -H "Idempotency-Key: $(node -p 'crypto.randomUUID()')" --data-binary @- > result.json
node -e 'const r = require("./result.json"); require("fs").writeFileSync("page.en.png", Buffer.from(r.resultImage.split(",")[1], "base64"))'`;

function buildDocument(): JsonObject {
	return {
		openapi: "3.1.0",
		info: {
			title: "yakusu image translation API",
			version: "1",
			description:
				"One synchronous call takes an image, finds its text, translates it, and returns the image re-lettered in the target language as a PNG. Every successful call costs 10 credits, whichever translator; failed calls are refunded.",
		},
		servers: [
			{ url: "http://127.0.0.1:8787", description: "`npm start` on your machine" },
			{
				url: "https://{host}",
				description: "A deployment",
				variables: { host: { default: "yakusu.example.workers.dev", description: "Where the Worker is deployed" } },
			},
		],
		security: [{ apiKey: [] }],
		paths: {
			"/translate/image": {
				post: {
					operationId: "translateImage",
					summary: "Translate the text in an image",
					description:
						"Checks run in this order: key (401), plan (403), rate limit (429), body (400, 413, 422), idempotency (409), credit (402). Nothing is charged unless the translated image is delivered: a translation failure answers 500 and refunds, and a client that goes away before it has the whole answer is refunded too. The 200 body gives `remainingCredit` before `resultImage`, which streams. A refusal is answered once the request body has arrived.",
					parameters: [{ $ref: "#/components/parameters/Idempotency-Key" }],
					// Redocly's convention for ready-to-run samples; /docs shows it too.
					"x-codeSamples": [{ lang: "Shell", label: "curl", source: CURL_SAMPLE }],
					requestBody: {
						required: true,
						content: {
							"application/json": {
								schema: { $ref: "#/components/schemas/TranslateRequest" },
								examples: {
									manga: {
										summary: "A manga page from Japanese into English",
										value: {
											imageBase64: "data:image/png;base64,iVBORw0KGgo...",
											sourceLanguage: "ja",
											targetLanguage: "en",
											mode: "manga",
											translator: "gemini",
											customPrompt: "Keep honorifics such as -san and -sama.",
										},
									},
									minimal: {
										summary: "Only the required fields (general mode, grok)",
										value: { imageBase64: "iVBORw0KGgo...", sourceLanguage: "auto", targetLanguage: "fr" },
									},
								},
							},
						},
					},
					responses: {
						"200": {
							description: "Translated. 10 credits were charged.",
							headers: RATE_LIMIT_HEADERS,
							content: {
								"application/json": {
									schema: { $ref: "#/components/schemas/TranslateSuccess" },
									example: {
										success: true,
										recordId: "rec_01JDQ3Z6Y8N4V2K7T9R5M1HXWC",
										resultImage: "data:image/png;base64,iVBORw0KGgo...",
										remainingCredit: 990,
									},
								},
							},
						},
						"400": errorResponse(
							"The body is not JSON, not an object, or `imageBase64` is not valid base64. Not charged.",
							"imageBase64 is not valid base64",
						),
						"401": errorResponse(
							"The `Authorization` header is missing or malformed, or the key is unknown or revoked.",
							"Invalid API key",
							false,
						),
						"402": errorResponse(
							"The balance is below the 10 credits a call costs. Not charged; the Idempotency-Key is not taken.",
							"Insufficient credits: a call costs 10 advanced credits",
						),
						"403": errorResponse(
							"The account's plan does not include API access (Professional or above is required).",
							"Your plan does not include API access: Professional or above is required",
							false,
						),
						"409": {
							description:
								"This API key already used this `Idempotency-Key` (kept 24 hours). Not processed again, not charged; `recordId` is the first call's. `message` starts `Already done:` when that call finished (its image was delivered), or `Still in progress:` while it runs (try again shortly: if it fails it is refunded and the key freed).",
							headers: RATE_LIMIT_HEADERS,
							content: {
								"application/json": {
									schema: { $ref: "#/components/schemas/IdempotencyReplay" },
									example: {
										error: "idempotency_replay",
										recordId: "rec_01JDQ3Z6Y8N4V2K7T9R5M1HXWC",
										message:
											"Already done: the call with this Idempotency-Key finished and was charged once; this request was not processed again and nothing was charged.",
									},
								},
							},
						},
						"413": errorResponse(
							"The image exceeds 20 MB after base64 decoding, or 25 megapixels (less for kinds that take more memory to decode, such as a lossless WebP: 3.1; the detail states the limit). Not charged.",
							"Image is 6000x5000 (30.0 megapixels); the limit is 25 megapixels",
						),
						"422": errorResponse(
							"A field failed validation; `detail` names the first one in field order (`Idempotency-Key` for a bad header). A valid base64 string that is not a supported image fails on `imageBase64`. Not charged.",
							"Invalid field: targetLanguage",
						),
						"429": {
							description:
								"More requests in the last 60 seconds than the plan allows for this key (Professional 60, Enterprise 300). Not charged; retry after `Retry-After` seconds.",
							headers: { ...RATE_LIMIT_HEADERS, "Retry-After": { $ref: "#/components/headers/Retry-After" } },
							content: {
								"application/json": {
									schema: { $ref: "#/components/schemas/ErrorBody" },
									example: { detail: "Rate limit of 60 requests per minute exceeded" },
								},
							},
						},
						"500": errorResponse(
							"The translation failed. The 10 credits were refunded and the Idempotency-Key released, so a retry with the same key is processed anew.",
							"Translation failed",
						),
						"404": { $ref: "#/components/responses/NotFound" },
						"405": { $ref: "#/components/responses/MethodNotAllowed" },
					},
				},
			},
		},
		components: {
			securitySchemes: {
				apiKey: {
					type: "http",
					scheme: "bearer",
					description:
						"`Authorization: Bearer sk_yakusu_...`. Keys are secrets: keep them on a server, never in client code.",
				},
			},
			parameters: {
				"Idempotency-Key": {
					name: "Idempotency-Key",
					in: "header",
					required: false,
					description:
						"Makes retries safe: a second call with the same value from the same API key is not processed again and answers 409 with the first call's `recordId`. 1 to 255 printable ASCII characters; a UUIDv4 is suitable. Without it, every retry is a new, charged call.",
					schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x20-\\x7E]+$" },
					example: "5f0c2a8e-3b1d-4c7a-9e62-1d2f7b8a4c90",
				},
			},
			responses: {
				NotFound: errorResponse(
					"No such path: the base URL or the path is wrong (any path the service does not serve answers this).",
					"Not found",
					false,
				),
				MethodNotAllowed: {
					...errorResponse("Another method than POST on `/translate/image`.", "Method not allowed: use POST", false),
					headers: {
						Allow: { description: "The methods the path takes.", schema: { type: "string" }, example: "POST" },
					},
				},
			},
			headers: {
				"RateLimit-Limit": integerHeader("Requests this key may make in any 60-second window.", 60),
				"RateLimit-Remaining": integerHeader("Requests left in the current window.", 57),
				"RateLimit-Reset": integerHeader("Seconds until the window has room again.", 42),
				"Retry-After": integerHeader("Seconds to wait before retrying.", 12),
			},
			schemas: {
				TranslateRequest: requestSchema(),
				TranslateSuccess: jsonSchema(translateSuccessSchema, "output"),
				ErrorBody: jsonSchema(errorBodySchema, "output"),
				IdempotencyReplay: jsonSchema(replayBodySchema, "output"),
			},
		},
	};
}

let cached: JsonObject | undefined;

/** The document, built once per isolate: the schemas do not change while it runs. */
export function openApiDocument(): JsonObject {
	cached ??= buildDocument();
	return cached;
}

/** `GET /openapi.json` and `GET /docs`; mount with `app.route("/", openApiRoutes)`. */
export const openApiRoutes = new Hono()
	.get("/openapi.json", (c) => c.json(openApiDocument()))
	.get("/docs", (c) => c.html(renderDocsPage(openApiDocument(), c.get("secureHeadersNonce"))));
