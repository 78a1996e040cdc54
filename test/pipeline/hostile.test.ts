import { describe, expect, it } from "vitest";
import { decodeRows } from "../../src/pipeline/decode";
import { PipelineError } from "../../src/pipeline/errors";
import { ImageDataError } from "../../src/pipeline/pixels/image-error";
import { type ProbedImage, probeImage } from "../../src/pipeline/probe";
import { RequestError } from "../../src/request/errors";
import { admitImage } from "../../src/request/validate";
import { HOSTILE_FILES, type Verdict } from "./hostile/files";

/** What the service does with a file: the probe's refusal, or the decoder's outcome. */
function verdictOf(file: Uint8Array): { verdict: Verdict | string; rows?: number; image?: ProbedImage } {
	let image: ProbedImage;
	try {
		image = probeImage(file, admitImage);
	} catch (error) {
		if (error instanceof ImageDataError) return { verdict: "refused" };
		if (error instanceof RequestError && error.status === 413) return { verdict: "too-large" };
		return { verdict: `probe threw ${error}` };
	}
	let rows = 0;
	try {
		decodeRows(image, {
			rows(y, count) {
				if (y !== rows) throw new Error(`row ${y} came when ${rows} was due`);
				rows += count;
			},
		});
	} catch (error) {
		if (error instanceof PipelineError && error.status === 422) return { verdict: "fails", image };
		return { verdict: `decode threw ${error}`, image };
	}
	return { verdict: "decodes", rows, image };
}

describe("crafted files of issue 11 and broken containers of issue 13", () => {
	for (const hostile of HOSTILE_FILES) {
		it(`${hostile.name}: ${hostile.verdict}`, () => {
			const outcome = verdictOf(hostile.bytes());
			expect(outcome.verdict).toBe(hostile.verdict);
			if (outcome.verdict === "decodes") expect(outcome.rows).toBe(outcome.image!.height);
		});
	}
});
