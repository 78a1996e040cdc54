import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { Env } from "../../src/env";
import { createApp } from "../../src/http/app";
import type { Pipeline } from "../../src/pipeline/run";
import { solidPng, toBase64 } from "./png";

export const ADMIN_TOKEN = "test-admin-token";

/** A running service: the real app, Durable Objects and admin API, around the given pipeline. */
export function service(pipeline: Pipeline, vars: Partial<Record<keyof Env, unknown>> = {}) {
	const app = createApp(pipeline);
	const workerEnv = { ...env, ...vars };
	/** Execution contexts of calls made: settlement after a response runs in their waitUntil. */
	const contexts: ExecutionContext[] = [];
	const context = () => {
		const ctx = createExecutionContext();
		contexts.push(ctx);
		return ctx;
	};
	const call = (path: string, init?: RequestInit) =>
		app.fetch(new Request(`https://yakusu.test${path}`, init), workerEnv, context());
	/** Waits for the settlement work of every call so far (a body read to its end, or cancelled). */
	const settled = async () => {
		await Promise.all(contexts.splice(0).map((ctx) => waitOnExecutionContext(ctx)));
	};

	const adminCall = async (method: string, path: string, body?: unknown) =>
		call(`/admin${path}`, {
			method,
			headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, "Content-Type": "application/json" },
			body: body === undefined ? undefined : JSON.stringify(body),
		});

	/** A new account with one key. */
	const customer = async (plan = "professional", credits = 1000) => {
		const account = await (await adminCall("POST", "/accounts", { plan, credits })).json<{ accountId: string }>();
		const key = await (await adminCall("POST", `/accounts/${account.accountId}/keys`)).json<{
			keyId: string;
			apiKey: string;
		}>();
		return { accountId: account.accountId, keyId: key.keyId, apiKey: key.apiKey };
	};

	const balance = async (accountId: string) => {
		await settled();
		return (await (await adminCall("GET", `/accounts/${accountId}`)).json<{ credits: number }>()).credits;
	};

	const translate = (apiKey: string, body: unknown, headers: Record<string, string> = {}) =>
		call("/translate/image", {
			method: "POST",
			headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json", ...headers },
			body: typeof body === "string" ? body : JSON.stringify(body),
		});

	/** The call's record as the admin API shows it, once settlement after the response is done. */
	const record = async (recordId: string) => {
		await settled();
		return (await adminCall("GET", `/records/${recordId}`)).json<Record<string, unknown>>();
	};

	return { app, env: workerEnv, context, call, adminCall, customer, balance, record, settled, translate };
}

let cachedImage: string | undefined;

/** A valid request body: a small real PNG, Japanese to English. */
export async function validBody(overrides: Record<string, unknown> = {}) {
	cachedImage ??= toBase64(await solidPng(8, 6));
	return { imageBase64: cachedImage, sourceLanguage: "ja", targetLanguage: "en", ...overrides };
}

/** A pipeline double that answers at once with fixed bytes and remembers the jobs it saw. */
export function instantPipeline(png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3])) {
	const jobs: Parameters<Pipeline>[0][] = [];
	const pipeline: Pipeline = async (job) => {
		jobs.push(job);
		return { png: [png], overflow: [] };
	};
	return { pipeline, jobs, png };
}
