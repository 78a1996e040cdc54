import { beforeAll, describe, expect, it } from "vitest";
import { decodeRows } from "../../src/pipeline/decode";
import type { Pipeline } from "../../src/pipeline/run";
import type { TranslateJob } from "../../src/pipeline/types";
import { HOSTILE_FILES } from "../pipeline/hostile/files";
import { toBase64 } from "../support/png";
import { service } from "../support/service";

/**
 * The crafted files of issue 11 and the broken containers of issue 13 through the whole HTTP path,
 * with a pipeline that decodes the image as every pass will: what the probe refuses is answered
 * before acceptance (nothing reserved, the pipeline never runs); what fails while decoding is
 * refunded; only an image that came back is charged.
 */
const decoded: TranslateJob[] = [];
const decodingPipeline: Pipeline = async (job) => {
	decoded.push(job);
	decodeRows(job.image, { rows() {} });
	return { png: [new Uint8Array([0x89, 0x50, 0x4e, 0x47])], overflow: [] };
};
const yakusu = service(decodingPipeline);
let customer: Awaited<ReturnType<typeof yakusu.customer>>;

beforeAll(async () => {
	customer = await yakusu.customer("enterprise", 1000);
});

const STATUS = { refused: 422, "too-large": 413, fails: 422, decodes: 200 } as const;

describe("hostile files, end to end", () => {
	for (const hostile of HOSTILE_FILES) {
		it(`${hostile.name}: ${STATUS[hostile.verdict]}${hostile.verdict === "decodes" ? ", charged" : ", nothing charged"}`, async () => {
			const before = await yakusu.balance(customer.accountId);
			const jobsBefore = decoded.length;
			const res = await yakusu.translate(customer.apiKey, {
				imageBase64: toBase64(hostile.bytes()),
				sourceLanguage: "ja",
				targetLanguage: "en",
			});
			expect(res.status).toBe(STATUS[hostile.verdict]);
			const body = await res.json<{ detail?: string }>();
			if (hostile.verdict === "refused" || hostile.verdict === "fails")
				expect(body.detail).toBe("Invalid field: imageBase64");
			const accepted = hostile.verdict === "fails" || hostile.verdict === "decodes";
			expect(decoded.length - jobsBefore).toBe(accepted ? 1 : 0);
			expect(await yakusu.balance(customer.accountId)).toBe(before - (hostile.verdict === "decodes" ? 10 : 0));
		});
	}
});
