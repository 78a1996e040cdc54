import { describe, expect, it } from "vitest";
import { canonicalLanguage, LANGUAGES } from "../../src/request/languages";
import { translateOptionsSchema } from "../../src/request/schema";

const parse = (fields: Record<string, unknown>) =>
	translateOptionsSchema.safeParse({ sourceLanguage: "en", targetLanguage: "en", ...fields });

describe("languages", () => {
	it("lists the spec's 130+ codes, each with a name", () => {
		expect(Object.keys(LANGUAGES).length).toBeGreaterThanOrEqual(130);
		for (const code of [
			"zh-cn",
			"zh-tw",
			"fil",
			"ceb",
			"ilo",
			"bho",
			"doi",
			"gom",
			"lus",
			"kri",
			"nso",
			"ckb",
			"haw",
			"hmn",
		]) {
			expect(LANGUAGES[code], code).toBeTruthy();
		}
	});

	it("accepts every listed code as source and target, in any case", () => {
		for (const code of Object.keys(LANGUAGES)) {
			expect(parse({ sourceLanguage: code.toUpperCase(), targetLanguage: code }).success, code).toBe(true);
		}
	});

	it("maps common aliases onto listed codes", () => {
		expect(canonicalLanguage("zh-Hans")).toBe("zh-cn");
		expect(canonicalLanguage("zh-Hant")).toBe("zh-tw");
		expect(canonicalLanguage("iw")).toBe("he");
		expect(canonicalLanguage("tl")).toBe("fil");
		expect(canonicalLanguage("nb")).toBe("no");
		expect(canonicalLanguage("pt-BR")).toBe("pt");
		expect(canonicalLanguage("jw")).toBe("jv");
		expect(canonicalLanguage("zh_TW")).toBe("zh-tw");
		expect(canonicalLanguage("xx")).toBeUndefined();
	});

	it("takes auto for the source only", () => {
		expect(parse({ sourceLanguage: "Auto" }).success).toBe(true);
		expect(parse({ targetLanguage: "auto" }).success).toBe(false);
	});
});
