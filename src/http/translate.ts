import type { Context } from "hono";
import type { Env } from "../env";
import { PipelineError } from "../pipeline/errors";
import type { Pipeline, PipelineResult } from "../pipeline/run";
import type { StageTimings } from "../pipeline/types";
import { readTranslateBody } from "../request/body";
import { RequestError } from "../request/errors";
import { idempotencyKey, toJob } from "../request/validate";
import { CallSettlement } from "../state/settlement";
import { problem, rateLimitHeaders, replay } from "./answers";
import { afterDraining } from "./drain";
import { admit } from "./gate";
import { primed, successBody } from "./success-body";

const CLIENT_LEFT = "The client disconnected before the translation was delivered";

/**
 * POST /translate/image, in DESIGN's order: gate, body, idempotency and credits, pipeline, then
 * settlement. Until the commit every failure refunds and is answered; the commit comes before the
 * image streams, and a stream that fails or loses its client is refunded afterwards (success-body.ts).
 */
export function translateHandler(pipeline: Pipeline) {
	return async (c: Context<{ Bindings: Env }>): Promise<Response> => {
		const started = Date.now();
		const admitted = await admit(c.env, c.req.header("authorization"), started);
		if (admitted instanceof Response) return afterDraining(c.req.raw, admitted);
		const headers = rateLimitHeaders(admitted.rate);

		let job: ReturnType<typeof toJob>;
		let idempotency: string | null;
		try {
			const length = c.req.header("content-length");
			const body = await readTranslateBody(c.req.raw.body, length === undefined ? null : Number(length));
			job = toJob(body);
			idempotency = idempotencyKey(c.req.header("idempotency-key"));
		} catch (error) {
			if (error instanceof RequestError) {
				return afterDraining(c.req.raw, problem(error.status, error.detail, headers));
			}
			throw error;
		}

		const accepted = await admitted.key.accept(
			idempotency,
			{
				translator: job.translator,
				mode: job.mode,
				sourceLanguage: job.sourceLanguage,
				targetLanguage: job.targetLanguage,
			},
			Date.now(),
		);
		if (accepted.kind === "replay") return replay(accepted.recordId, accepted.replay, headers);
		if (accepted.kind === "insufficient") {
			return problem(402, "Insufficient credits: a call costs 10 advanced credits", headers);
		}

		const { recordId } = accepted;
		const settlement = new CallSettlement(c.env, admitted.accountId, admitted.key, recordId, idempotency);
		const signal = c.req.raw.signal;
		const timings: StageTimings = {};
		const spent = () => ({ ...timings, total: Date.now() - started });
		/** Refunds, logs and answers a failure before anything was streamed. */
		const fail = async (error: unknown): Promise<Response> => {
			const status = error instanceof PipelineError ? error.status : 500;
			const detail = error instanceof PipelineError ? error.detail : "Translation failed";
			const refunded = await settlement.refund({ timings: spent(), error: detail }).catch((cause) => {
				// The account's alarm refunds it at the reservation timeout.
				log({ recordId, event: "refund-failed", cause: String(cause) });
				return false;
			});
			log({
				recordId,
				status,
				timings,
				error: detail,
				refunded,
				cause: error instanceof PipelineError ? undefined : String(error),
			});
			return problem(status, detail, headers);
		};

		let result: PipelineResult;
		let png: Awaited<ReturnType<typeof primed>>;
		try {
			result = await pipeline(job, { env: c.env, signal, timings });
			png = await primed(result.png);
		} catch (error) {
			return fail(error);
		}
		try {
			if (signal.aborted) throw new PipelineError(CLIENT_LEFT);
			const balance = await settlement.commit({ timings: spent(), overflow: result.overflow });
			log({ recordId, status: 200, timings, overflow: result.overflow.length });
			const body = successBody(recordId, balance, png, {
				delivered: () => inBackground(c, settlement.delivered()),
				undelivered: (reason) =>
					inBackground(
						c,
						settlement.refund({ timings: spent(), error: reason }).then((refunded) => {
							log({ recordId, event: "undelivered", error: reason, refunded });
						}),
					),
			});
			return new Response(body, { status: 200, headers: { ...headers, "Content-Type": "application/json" } });
		} catch (error) {
			// Also a commit whose answer was lost: the refund undoes it, since nothing was delivered.
			await png.close().catch(() => {});
			return fail(error);
		}
	};
}

/** Settlement after the response: the Worker keeps running until it is written to its object. */
function inBackground(c: Context<{ Bindings: Env }>, work: Promise<unknown>): void {
	c.executionCtx.waitUntil(
		work.catch((cause) => console.error(JSON.stringify({ event: "settlement-failed", cause: String(cause) }))),
	);
}

/** One line per accepted call: ids, outcome and timings, never a key or an image. */
function log(entry: Record<string, unknown>): void {
	console.log(JSON.stringify({ event: "translate", ...entry }));
}
