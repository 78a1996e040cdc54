import type { Env } from "../env";
import { PipelineError } from "./errors";
import type { StageTimings, TranslateJob } from "./types";

export interface PipelineContext {
	env: Env;
	/** Aborted when the client goes away: outstanding model calls stop. */
	signal: AbortSignal;
	/** Filled in by the pipeline, stage by stage, for the record log. */
	timings: StageTimings;
}

export interface PipelineResult {
	png: Uint8Array;
	/** Ids of regions whose text did not fit its box at the minimum size. */
	overflow: number[];
}

/** Turns a validated request into the translated PNG. The one seam between HTTP and pixels. */
export type Pipeline = (job: TranslateJob, ctx: PipelineContext) => Promise<PipelineResult>;

export const runPipeline: Pipeline = async () => {
	throw new PipelineError("Translation is not available: the image pipeline is not installed yet");
};
