import { describe, expect, it } from "vitest";
import { joinTexts, sameReading, sameText, splitByShares } from "../../src/pipeline/layout/split-text";

/** The texts of a block: regions joined, a merged region shared out, unchanged text told apart. */

describe("joining the regions of one block", () => {
	it("joins with a space, or with nothing between scripts written without spaces", () => {
		expect(joinTexts(["Hello there,", "my friend."])).toBe("Hello there, my friend.");
		expect(joinTexts(["ちょっと", "待って"])).toBe("ちょっと待って");
		expect(joinTexts(["잠깐만", "기다려"])).toBe("잠깐만 기다려");
		expect(joinTexts(["", "  only  ", ""])).toBe("only");
	});
});

describe("sharing a merged region's text out between its containers", () => {
	it("cuts at the sentence end nearest the share", () => {
		expect(splitByShares("Hello there, my friend. No.", [3, 1])).toEqual(["Hello there, my friend.", "No."]);
		expect(splitByShares("Wait! I'm coming. Hurry up!", [1, 1])).toEqual(["Wait! I'm coming.", "Hurry up!"]);
	});

	it("keeps a run of stops whole: no part starts with one", () => {
		expect(splitByShares("AT THE OLD MILL... WHO GOES THERE?", [16, 18])).toEqual([
			"AT THE OLD MILL...",
			"WHO GOES THERE?",
		]);
		expect(splitByShares("誰だ？！そこにいるのは", [1, 3])).toEqual(["誰だ？！", "そこにいるのは"]);
	});

	it("cuts at a clause mark, or a space, when no sentence ends near the share", () => {
		expect(splitByShares("Well then, see you later", [1, 1])).toEqual(["Well then,", "see you later"]);
		expect(splitByShares("alpha beta gamma delta", [1, 1])).toEqual(["alpha beta", "gamma delta"]);
	});

	it("cuts text written without spaces between words", () => {
		expect(splitByShares("鳥だ飛行機だ", [1, 1])).toEqual(["鳥だ", "飛行機だ"]);
		expect(splitByShares("鳥だ！飛行機だ！", [1, 1])).toEqual(["鳥だ！", "飛行機だ！"]);
	});

	it("cuts one word written without spaces between characters, no part starting with a small kana", () => {
		expect(splitByShares("ありがとう", [1, 1])).toEqual(["あり", "がとう"]);
		expect(splitByShares("ちょっと", [1, 1])).toEqual(["ちょっ", "と"]);
	});

	it("gives the whole text to one part when there is only one, or nothing to share", () => {
		expect(splitByShares("All of it.", [5])).toEqual(["All of it."]);
		expect(splitByShares("", [1, 1])).toEqual(["", ""]);
	});
});

describe("telling unchanged text and repeated readings", () => {
	it("takes a translation equal to its text but for case, width and spaces as unchanged", () => {
		expect(sameText("SONY", "Sony")).toBe(true);
		expect(sameText("５０％ＯＦＦ", "50% off")).toBe(true);
		expect(sameText("Ｗｉ-Ｆｉ", "Wi - Fi")).toBe(true);
		expect(sameText("Sale", "Soldes")).toBe(false);
		expect(sameText("", "")).toBe(false);
	});

	it("takes a reading holding another, or sharing most character pairs, for the same lettering", () => {
		expect(sameReading("また明日ね！", "また明日")).toBe(true);
		expect(sameReading("WAIT FOR ME!", "WAIT FOR ME")).toBe(true);
		expect(sameReading("今日はいい天気だね", "今日はいい天気たね")).toBe(true);
		expect(sameReading("はい", "いいえ")).toBe(false);
	});
});
