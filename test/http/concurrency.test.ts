import { describe, expect, it } from "vitest";
import type { Pipeline } from "../../src/pipeline/run";
import { service, validBody } from "../support/service";

/** A pipeline that takes a little while, so that concurrent calls really overlap. */
const slowPipeline: Pipeline = async () => {
	await new Promise((resolve) => setTimeout(resolve, 20));
	return { png: [new Uint8Array([0x89, 0x50, 0x4e, 0x47])], overflow: [] };
};

describe("concurrency", () => {
	it("accepts exactly one of 50 concurrent calls with one Idempotency-Key; the rest get its recordId", async () => {
		const yakusu = service(slowPipeline);
		const { apiKey, accountId } = await yakusu.customer("enterprise", 1000);
		const body = await validBody();
		const answers = await Promise.all(
			Array.from({ length: 50 }, () => yakusu.translate(apiKey, body, { "Idempotency-Key": "same-call" })),
		);
		const statuses = answers.map((r) => r.status);
		expect(statuses.filter((s) => s === 200)).toHaveLength(1);
		expect(statuses.filter((s) => s === 409)).toHaveLength(49);

		const winner = answers.find((r) => r.status === 200)!;
		const { recordId } = await winner.json<{ recordId: string }>();
		for (const replay of answers.filter((r) => r.status === 409)) {
			expect(await replay.json()).toMatchObject({ error: "idempotency_replay", recordId });
		}
		expect(await yakusu.balance(accountId)).toBe(990);
	});

	it("accepts exactly 25 of 100 concurrent calls on 250 credits and never goes below zero", async () => {
		const yakusu = service(slowPipeline);
		const { apiKey, accountId } = await yakusu.customer("enterprise", 250);
		const body = await validBody();
		const balances: number[] = [];
		const watching = (async () => {
			for (let i = 0; i < 20; i++) {
				balances.push(await yakusu.balance(accountId));
				await new Promise((resolve) => setTimeout(resolve, 5));
			}
		})();
		const answers = await Promise.all(Array.from({ length: 100 }, () => yakusu.translate(apiKey, body)));
		await watching;

		const statuses = answers.map((r) => r.status);
		expect(statuses.filter((s) => s === 200)).toHaveLength(25);
		expect(statuses.filter((s) => s === 402)).toHaveLength(75);
		expect(await yakusu.balance(accountId)).toBe(0);
		expect(Math.min(...balances)).toBeGreaterThanOrEqual(0);
		const remaining = await Promise.all(
			answers
				.filter((r) => r.status === 200)
				.map(async (r) => (await r.json<{ remainingCredit: number }>()).remainingCredit),
		);
		expect(Math.min(...remaining)).toBeGreaterThanOrEqual(0);
	});
});
