/**
 * /openapi.json as generators and validators take it, as it is: it validates as OpenAPI 3.1; a client
 * generated from it with openapi-typescript and openapi-fetch type-checks and calls the running service;
 * and every answer the service gives, success and each error, matches the document's schema for it.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import createClient from "openapi-fetch";
import openapiTS, { astToString } from "openapi-typescript";
import { FIXTURES, REPO, startService } from "./harness.mjs";

const run = promisify(execFile);

describe("the OpenAPI document, used as is", { timeout: 300_000 }, () => {
	let service;
	let doc;
	let work;
	let image;

	before(async () => {
		// grok fails at its vendor, so that a 500 can be asked for: translator "grok".
		service = await startService({ vendorSwitches: { XAI_BASE_URL: "fail=500" } });
		doc = await (await fetch(`${service.url}/openapi.json`)).json();
		// Inside the clone, so that the generated client resolves openapi-fetch from node_modules.
		const cache = path.join(REPO, "node_modules", ".cache");
		await mkdir(cache, { recursive: true });
		work = await mkdtemp(path.join(cache, "yakusu-openapi-"));
		image = (await readFile(path.join(FIXTURES, "hello-ja.png"))).toString("base64");
	});

	after(async () => {
		await service?.stop();
		if (work) await rm(work, { recursive: true, force: true });
	});

	it("validates as OpenAPI 3.1", async () => {
		const result = await new Validator().validate(doc);
		assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
	});

	it("generates a typed client that compiles, with defaulted fields optional and any case admitted", async () => {
		const types = astToString(await openapiTS(doc));
		await writeFile(path.join(work, "yakusu.d.ts"), types);
		await writeFile(
			path.join(work, "use.ts"),
			`import createClient from "openapi-fetch";
import type { paths } from "./yakusu";
const client = createClient<paths>({ baseUrl: "http://127.0.0.1:8787" });
export const call = () =>
	client.POST("/translate/image", {
		body: { imageBase64: "iVBORw0KGgo", sourceLanguage: "JA", targetLanguage: "en" },
		params: { header: { "Idempotency-Key": "k" } },
	});
`,
		);
		const tsc = path.join(REPO, "node_modules", "typescript", "bin", "tsc");
		const args = ["--noEmit", "--strict", "--module", "esnext", "--moduleResolution", "bundler", "--target", "es2022"];
		const compiled = await run(process.execPath, [tsc, ...args, "--typeRoots", "[]", path.join(work, "use.ts")], {
			cwd: REPO,
		}).catch((error) => error);
		assert.equal(compiled.code ?? 0, 0, `${compiled.stdout}${compiled.stderr}`);
	});

	it("answers every documented status with a body the document describes", async () => {
		const ajv = new Ajv2020({ strict: false });
		ajv.addSchema(doc, "openapi.json");
		const operation = doc.paths["/translate/image"].post;
		const bodySchema = (status) => {
			const ref = operation.responses[status].$ref;
			const response = ref ? doc.components.responses[ref.split("/").pop()] : operation.responses[status];
			return response.content["application/json"].schema.$ref;
		};
		/** `answer`: a fetch Response, or what openapi-fetch resolves with (its body already parsed). */
		const check = async (status, answer) => {
			const response = answer.response ?? answer;
			const body = answer.response ? (answer.data ?? answer.error) : await response.json();
			assert.equal(
				response.status,
				Number(status),
				`${JSON.stringify(body).slice(0, 300)}\n${service.log().slice(-3000)}`,
			);
			const validate = ajv.getSchema(`openapi.json${bodySchema(status)}`);
			assert.ok(validate(body), `${status}: ${JSON.stringify(body)} ${JSON.stringify(validate.errors)}`);
			return body;
		};

		const client = createClient({ baseUrl: service.url });
		const auth = (key) => ({ Authorization: `Bearer ${key}` });
		const translate = (body, headers = {}, key = service.apiKey) =>
			client.POST("/translate/image", { body, headers: { ...auth(key), ...headers } });
		const valid = { imageBase64: image, sourceLanguage: "JA", targetLanguage: "EN", translator: "Gemini" };

		const ok = await check("200", await translate(valid, { "Idempotency-Key": "openapi-1" }));
		assert.match(ok.resultImage, /^data:image\/png;base64,/);
		await check("409", await translate(valid, { "Idempotency-Key": "openapi-1" }));
		await check(
			"400",
			await fetch(`${service.url}/translate/image`, { method: "POST", headers: auth(service.apiKey), body: "{" }),
		);
		await check("401", await translate(valid, {}, `sk_yakusu_${"Q".repeat(43)}`));
		await check("402", await translate(valid, {}, await service.keyFor({ plan: "professional", credits: 5 })));
		await check("403", await translate(valid, {}, await service.keyFor({ plan: "starter", credits: 100 })));
		await check("413", await translate({ ...valid, imageBase64: "A".repeat(29 * 1024 * 1024) }));
		await check("422", await translate({ ...valid, targetLanguage: "xx" }));
		await check("500", await translate({ ...valid, translator: "grok" }));
		await check("404", await fetch(`${service.url}/translate/video`, { method: "POST" }));
		await check("405", await fetch(`${service.url}/translate/image`));
		// A key allows 60 calls a minute; the 61st is refused.
		const limited = await service.keyFor({ plan: "professional", credits: 0 });
		let last;
		for (let i = 0; i < 61; i++) last = await translate({}, {}, limited);
		await check("429", last);
	});
});
