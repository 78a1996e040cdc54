import type { Context } from "hono";
import type { Env } from "../env";
import { PipelineError } from "../pipeline/errors";
import type { Pipeline } from "../pipeline/run";
import type { StageTimings } from "../pipeline/types";
import { readTranslateBody } from "../request/body";
import { RequestError } from "../request/errors";
import { idempotencyKey, toJob } from "../request/validate";
import { problem, rateLimitHeaders, replay } from "./answers";
import { admit } from "./gate";
import { successBody } from "./success-body";

/** POST /translate/image, in DESIGN's order: gate, body, idempotency and credits, pipeline, settle. */
export function translateHandler(pipeline: Pipeline) {
	return async (c: Context<{ Bindings: Env }>): Promise<Response> => {
		const started = Date.now();
		const admitted = await admit(c.env, c.req.header("authorization"), started);
		if (admitted instanceof Response) return admitted;
		const headers = rateLimitHeaders(admitted.rate);

		let job: ReturnType<typeof toJob>;
		let idempotency: string | null;
		try {
			const length = c.req.header("content-length");
			const body = await readTranslateBody(c.req.raw.body, length === undefined ? null : Number(length));
			job = toJob(body);
			idempotency = idempotencyKey(c.req.header("idempotency-key"));
		} catch (error) {
			if (error instanceof RequestError) return problem(error.status, error.detail, headers);
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
		if (accepted.kind === "replay") return replay(accepted.recordId, headers);
		if (accepted.kind === "insufficient") {
			return problem(402, "Insufficient credits: a call costs 10 advanced credits", headers);
		}

		const { recordId } = accepted;
		const timings: StageTimings = {};
		try {
			const result = await pipeline(job, { env: c.env, signal: c.req.raw.signal, timings });
			const { balance } = await admitted.key.settle(
				recordId,
				idempotency,
				{ timings: { ...timings, total: Date.now() - started }, overflow: result.overflow },
				Date.now(),
			);
			log({ recordId, status: 200, timings, overflow: result.overflow.length });
			return new Response(successBody(recordId, result.png, balance), {
				status: 200,
				headers: { ...headers, "Content-Type": "application/json" },
			});
		} catch (error) {
			const status = error instanceof PipelineError ? error.status : 500;
			const detail = error instanceof PipelineError ? error.detail : "Translation failed";
			await admitted.key.settle(recordId, idempotency, { timings, error: detail }, Date.now());
			log({
				recordId,
				status,
				timings,
				error: detail,
				cause: error instanceof PipelineError ? undefined : String(error),
			});
			return problem(status, detail, headers);
		}
	};
}

/** One line per accepted call: ids, outcome and timings, never a key or an image. */
function log(entry: Record<string, unknown>): void {
	console.log(JSON.stringify({ event: "translate", ...entry }));
}
