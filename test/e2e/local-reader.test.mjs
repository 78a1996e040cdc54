/**
 * The offline start as a new user meets it: no vendor key, the local reader (tesseract.js) reads the
 * image, so the service erases the text where it really is and sets the stand-in translation there,
 * and leaves the rest of the image alone.
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { PhotonImage } from "@cf-wasm/photon";
import { renderSvg } from "../../bench/corpus/text.mjs";
import { localReader } from "../../scripts/local-reader/index.mjs";
import { closeEngines, readLines } from "../../scripts/local-reader/ocr.mjs";
import { REPO, startService } from "./harness.mjs";

const SAMPLE = path.join(REPO, "docs", "sample-manga.png");

function pixels(bytes) {
	const image = PhotonImage.new_from_byteslice(bytes);
	try {
		return { width: image.get_width(), height: image.get_height(), data: image.get_raw_pixels() };
	} finally {
		image.free();
	}
}

/** Share of the pixels of a box that differ (any channel by more than 24 levels) between two images. */
function changed(a, b, { x0, y0, x1, y1 }) {
	let n = 0;
	for (let y = y0; y < y1; y++)
		for (let x = x0; x < x1; x++) {
			const i = (y * a.width + x) * 4;
			if ([0, 1, 2].some((c) => Math.abs(a.data[i + c] - b.data[i + c]) > 24)) n++;
		}
	return n / ((x1 - x0) * (y1 - y0));
}

describe("the local reader", { timeout: 300_000 }, () => {
	after(closeEngines);

	it("answers with blocks where the text of a web page is, one region per paragraph", async () => {
		const page = await renderSvg(`<svg xmlns="http://www.w3.org/2000/svg" width="900" height="600">
<rect width="900" height="600" fill="#fff"/><rect width="900" height="70" fill="#24292f"/>
<text x="40" y="46" font-size="26" font-weight="700" fill="#fff">Acme Tools</text>
<text x="40" y="160" font-size="40" font-weight="700" fill="#111">Build faster with Acme</text>
<g font-size="22" fill="#333"><text x="40" y="230">Our hammers and saws are made to last.</text>
<text x="40" y="262">Every order ships within two days,</text><text x="40" y="294">and returns are always free.</text></g>
<text x="40" y="400" font-size="18" fill="#57606a">© 2026 Acme Tools Ltd.</text></svg>`);
		const png = new PhotonImage(page.data, page.width, page.height);
		const bytes = png.get_bytes();
		png.free();
		const reader = localReader();
		const answer = await reader(
			{ kind: "read-translate", source: "en", target: "ja", boxField: "box", sent: { width: 900, height: 600 } },
			{ mime: "image/png", base64: Buffer.from(bytes).toString("base64") },
		);
		const texts = answer.regions.map((r) => r.text.replace(/\s+/g, " "));
		assert.ok(texts.includes("Build faster with Acme"), texts.join(" | "));
		const paragraph = answer.regions.find((r) => r.text.startsWith("Our hammers"));
		assert.ok(paragraph, texts.join(" | "));
		assert.equal(paragraph.lines.length, 3, "the paragraph's three lines are one region");
		// 0..1000 of the 900 x 600 image: the paragraph spans x 40..~450, y ~212..~300.
		const [x0, y0, x1, y1] = paragraph.box;
		assert.ok(
			x0 >= 30 && x0 <= 60 && y0 >= 335 && y0 <= 365 && x1 >= 420 && y1 >= 490 && y1 <= 520,
			`${paragraph.box}`,
		);
		for (const region of answer.regions) assert.match(region.translation, /^〜.+〜$/, "a marked pseudo-translation");
	});

	describe("behind the service, as npm start runs it without keys", () => {
		let service;
		before(async () => {
			service = await startService({ reader: "ocr" });
		});
		after(async () => {
			await service?.stop();
		});

		it("erases the sample's lettering where it is, sets the phrasebook's English there, and leaves the rest", async () => {
			const source = await readFile(SAMPLE);
			const res = await fetch(`${service.url}/translate/image`, {
				method: "POST",
				headers: { Authorization: `Bearer ${service.apiKey}`, "Content-Type": "application/json" },
				body: JSON.stringify({
					sourceLanguage: "ja",
					targetLanguage: "en",
					mode: "manga",
					imageBase64: source.toString("base64"),
				}),
			});
			assert.equal(res.status, 200, await res.clone().text());
			const result = Buffer.from((await res.json()).resultImage.split(",")[1], "base64");
			const [before, after_] = [pixels(source), pixels(result)];
			// Where the three blocks are (a vertical balloon, a label, another vertical balloon): redrawn.
			for (const box of [
				{ x0: 364, y0: 34, x1: 424, y1: 144 },
				{ x0: 121, y0: 220, x1: 197, y1: 279 },
				{ x0: 232, y0: 396, x1: 295, y1: 511 },
			])
				assert.ok(changed(before, after_, box) > 0.1, `text at ${JSON.stringify(box)} was not replaced`);
			// Where there is no text (the old canned boxes painted here): untouched.
			for (const box of [
				{ x0: 58, y0: 32, x1: 302, y1: 108 },
				{ x0: 108, y0: 421, x1: 195, y1: 486 },
				{ x0: 480, y0: 250, x1: 700, y1: 520 },
			])
				assert.equal(changed(before, after_, box), 0, `empty paper at ${JSON.stringify(box)} was painted`);
			// The translations are there to read: the phrasebook's English for this sample.
			const read = (await readLines(result, "en"))
				.map((l) => l.text)
				.join(" ")
				.toLowerCase();
			for (const word of ["thank", "where", "secret"]) assert.ok(read.includes(word), `"${word}" not in: ${read}`);
		});
	});
});
