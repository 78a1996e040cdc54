/**
 * From what went wrong with a model (src/models speaks in ModelError) to what the client reads:
 * a PipelineError, which the HTTP layer answers with 500 and refunds. Details name the vendor
 * and say what happened, never what the vendor's reply said.
 */
import { ModelError } from "../models/errors";
import type { Endpoint } from "../models/vendors";
import { PipelineError } from "./errors";

/** `endpoint` is who was asked; undefined when the failure came before choosing one (configuration). */
export function pipelineFailure(error: unknown, endpoint: Endpoint | undefined): PipelineError {
	if (error instanceof PipelineError) return error;
	const options = { cause: error };
	const who = endpoint?.spec.name ?? "the model";
	if (!(error instanceof ModelError)) {
		return new PipelineError(`Translation failed: ${who} could not be reached`, 500, options);
	}
	const status = error.details.status;
	switch (error.kind) {
		case "not-configured":
			return new PipelineError(error.message, 500, options);
		case "auth":
			return new PipelineError("translator authentication failed", 500, options);
		case "declined":
			return new PipelineError(`Translation failed: ${who}'s model declined to process this image`, 500, options);
		case "unknown-model":
			return new PipelineError(
				`Translation failed: ${who} does not know the model "${endpoint?.model}" (it may be retired); set ${endpoint?.spec.modelVar} to a current one`,
				500,
				options,
			);
		case "truncated":
			return new PipelineError(`Translation failed: ${who}'s reply was cut off at its output limit`, 500, options);
		case "timeout":
			return new PipelineError(
				`Translation failed: ${who} did not answer within ${(error.details.limitMs ?? 0) / 1000} s`,
				500,
				options,
			);
		case "contract":
			return new PipelineError(`Translation failed: ${who}'s reply did not follow the output format`, 500, options);
		case "cancelled":
			return new PipelineError("Translation cancelled: the client disconnected", 500, options);
		case "rejected":
			return new PipelineError(
				`Translation failed: ${who} rejected the request${status ? ` (HTTP ${status})` : ""}`,
				500,
				options,
			);
		case "transient":
			if (status === 429)
				return new PipelineError(`Translation failed: ${who} is rate limited (HTTP 429)`, 500, options);
			if (status) return new PipelineError(`Translation failed: ${who} answered HTTP ${status}`, 500, options);
			return new PipelineError(`Translation failed: ${who} could not be reached`, 500, options);
	}
}
