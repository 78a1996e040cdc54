import { describe, expect, it } from "vitest";
import { ContractError, retryAfterMs } from "../../src/models/errors";
import { jsonFromText } from "../../src/models/json-reply";

describe("jsonFromText", () => {
	it("takes the first complete object, braces and quotes inside strings included", () => {
		const text = 'Sure! {"regions": [{"text": "a } b \\" {c", "box": [1, 2, 3, 4]}]} Hope this helps {really}.';
		expect(jsonFromText(text)).toEqual({ regions: [{ text: 'a } b " {c', box: [1, 2, 3, 4] }] });
	});

	it("reads JSON inside a code fence", () => {
		expect(jsonFromText('```json\n{"translations": []}\n```')).toEqual({ translations: [] });
	});

	for (const [name, text] of [
		["blank", "   "],
		["prose only", "I cannot read this image."],
		["cut off", '{"regions": [{"text": "a"'],
		["not JSON", "{regions: [text]}"],
	]) {
		it(`rejects ${name} as a broken contract`, () => {
			expect(() => jsonFromText(text as string)).toThrow(ContractError);
		});
	}
});

describe("retryAfterMs", () => {
	it("reads seconds and HTTP dates, ignores the unreadable", () => {
		expect(retryAfterMs("3")).toBe(3000);
		expect(retryAfterMs("Sun, 22 Nov 2026 02:00:05 GMT", Date.parse("Sun, 22 Nov 2026 02:00:00 GMT"))).toBe(5000);
		expect(retryAfterMs("soon")).toBeUndefined();
		expect(retryAfterMs(null)).toBeUndefined();
	});
});
