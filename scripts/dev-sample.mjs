/**
 * The first run's proof: `npm start` translates a bundled sample with the dev key as soon as the
 * service answers, and prints where the result is, so a new user sees the pipeline on a real page
 * before writing a line. The call is an ordinary API call (it costs the dev account 10 credits).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";

export const SAMPLE = { file: "docs/sample-manga.png", sourceLanguage: "ja", targetLanguage: "en", mode: "manga" };
const OUT = ".wrangler/samples";

/** Translates the sample through the API; resolves with the path of the PNG it wrote. */
export async function translateSample(url, apiKey, sample = SAMPLE) {
	const { file, ...options } = sample;
	const res = await fetch(`${url}/translate/image`, {
		method: "POST",
		headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
		body: JSON.stringify({ ...options, imageBase64: readFileSync(file).toString("base64") }),
	});
	const body = await res.json();
	if (!res.ok) throw new Error(`${res.status} ${body.detail ?? JSON.stringify(body)}`);
	mkdirSync(OUT, { recursive: true });
	const out = join(OUT, basename(file).replace(/\.png$/, `.${options.targetLanguage}.png`));
	writeFileSync(out, Buffer.from(body.resultImage.split(",")[1], "base64"));
	return out;
}
