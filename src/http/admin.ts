import { Hono } from "hono";
import { z } from "zod";
import type { Env } from "../env";
import { newApiKey, secretsEqual, sha256Hex } from "../state/credentials";
import { accountOf, isAccountId, newAccountId } from "../state/ids";
import { PLANS } from "../state/plans";
import { problem } from "./answers";

/**
 * The operator's API (DESIGN "Keys and accounts"): accounts, credits, keys, records. Enabled only
 * when the ADMIN_TOKEN secret is set; every call carries it as a Bearer token.
 */
export const admin = new Hono<{ Bindings: Env }>();

admin.use(async (c, next) => {
	const token = c.env.ADMIN_TOKEN;
	if (!token) return problem(404, "Not found");
	const presented = c.req.header("authorization")?.match(/^Bearer[ \t]+(\S+)[ \t]*$/i)?.[1] ?? "";
	if (!secretsEqual(presented, token)) return problem(401, "Invalid admin token");
	await next();
});

const newAccount = z.object({ plan: z.enum(PLANS), credits: z.number().int().min(0).default(0) });
const planChange = z.object({ plan: z.enum(PLANS) });
const creditChange = z.object({ amount: z.number().int() });

/** Parses a JSON body with a schema; a Response when it fails (400 not JSON, 422 first bad field). */
async function parse<T extends z.ZodType>(request: Request, schema: T): Promise<z.output<T> | Response> {
	let body: unknown;
	try {
		body = await request.json();
	} catch {
		return problem(400, "Body is not valid JSON");
	}
	if (typeof body !== "object" || body === null || Array.isArray(body))
		return problem(400, "Body must be a JSON object");
	const parsed = schema.safeParse(body);
	if (parsed.success) return parsed.data;
	return problem(422, `Invalid field: ${String(parsed.error.issues[0]?.path[0] ?? "body")}`);
}

function account(env: Env, accountId: string) {
	return env.ACCOUNT.get(env.ACCOUNT.idFromName(accountId));
}

admin.post("/accounts", async (c) => {
	const input = await parse(c.req.raw, newAccount);
	if (input instanceof Response) return input;
	// 40-bit ids: a collision is unlikely, and `create` refuses one, so try again.
	for (let attempt = 0; attempt < 5; attempt++) {
		const accountId = newAccountId();
		if (await account(c.env, accountId).create(accountId, input.plan, input.credits, Date.now())) {
			return c.json({ accountId, plan: input.plan, credits: input.credits }, 201);
		}
	}
	return problem(500, "Could not allocate an account id");
});

admin.get("/accounts/:accountId", async (c) => {
	const id = c.req.param("accountId");
	const view = isAccountId(id) ? await account(c.env, id).view() : null;
	return view ? c.json(view) : problem(404, "Account not found");
});

admin.patch("/accounts/:accountId", async (c) => {
	const id = c.req.param("accountId");
	if (!isAccountId(id)) return problem(404, "Account not found");
	const input = await parse(c.req.raw, planChange);
	if (input instanceof Response) return input;
	const view = await account(c.env, id).setPlan(input.plan);
	return view ? c.json(view) : problem(404, "Account not found");
});

admin.post("/accounts/:accountId/credits", async (c) => {
	const id = c.req.param("accountId");
	if (!isAccountId(id)) return problem(404, "Account not found");
	const input = await parse(c.req.raw, creditChange);
	if (input instanceof Response) return input;
	const result = await account(c.env, id).adjustCredits(input.amount);
	if (result === null) return problem(404, "Account not found");
	if (result === "would-go-negative") return problem(422, "Invalid field: amount");
	return c.json(result);
});

admin.post("/accounts/:accountId/keys", async (c) => {
	const accountId = c.req.param("accountId");
	if (!isAccountId(accountId)) return problem(404, "Account not found");
	const apiKey = newApiKey();
	const keyId = await account(c.env, accountId).addKey(await sha256Hex(apiKey), Date.now());
	if (keyId === null) return problem(404, "Account not found");
	return c.json({ keyId, apiKey }, 201);
});

admin.delete("/keys/:keyId", async (c) => {
	const keyId = c.req.param("keyId");
	const accountId = accountOf(keyId);
	const revoked = accountId ? await account(c.env, accountId).revokeKey(keyId, Date.now()) : false;
	return revoked ? c.body(null, 204) : problem(404, "Key not found");
});

admin.get("/records/:recordId", async (c) => {
	const recordId = c.req.param("recordId");
	const accountId = accountOf(recordId);
	const record = accountId ? await account(c.env, accountId).record(recordId) : null;
	return record ? c.json(record) : problem(404, "Record not found");
});
