import { describe, expect, it } from "vitest";
import { fontFilesFor, LATIN } from "../../src/pipeline/typeset/fonts";
import { LANGUAGES } from "../../src/request/languages";
import { MODES } from "../../src/request/options";
import { readCmap } from "./cmap";
import { loadFont } from "./fonts";
import { SAMPLES } from "./samples";

const cmaps = new Map<string, Set<number>>();
async function cmapOf(file: string): Promise<Set<number>> {
	let cmap = cmaps.get(file);
	if (!cmap) {
		cmap = readCmap(await loadFont(file));
		cmaps.set(file, cmap);
	}
	return cmap;
}

/** Letters of the language's own script: not ASCII, not Latin or Cyrillic or Greek, not punctuation. */
const NATIVE = /[^\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Common}\p{Script=Inherited}]/u;

describe("every target language is covered by the fonts chosen for it", () => {
	it("has a sample for every language of the spec", () => {
		expect(Object.keys(SAMPLES).sort()).toEqual(Object.keys(LANGUAGES).sort());
	});

	for (const language of Object.keys(LANGUAGES)) {
		it(language, async () => {
			const sample = SAMPLES[language] ?? "";
			for (const mode of MODES) {
				const files = fontFilesFor(language, mode);
				const covered = await Promise.all(files.map(cmapOf));
				const missing = [...sample].filter(
					(c) => c.trim() !== "" && !covered.some((cmap) => cmap.has(c.codePointAt(0) ?? 0)),
				);
				expect(missing, `${mode}: ${files.join(", ")}`).toEqual([]);
				// The language's own letters come from its script's face, not from the Latin fallback.
				const ownFaces = await Promise.all(files.filter((f) => f !== LATIN).map(cmapOf));
				const native = [...sample].filter((c) => NATIVE.test(c));
				const fromFallback = native.filter((c) => !ownFaces.some((cmap) => cmap.has(c.codePointAt(0) ?? 0)));
				expect(fromFallback, mode).toEqual([]);
			}
		});
	}
});
