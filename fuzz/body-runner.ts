/**
 * A small runner for the body target until it joins the fuzz harness: mutates the target's seeds and
 * crafted inputs with a seeded generator and runs each through `bodyTarget.run`. Used by a short run
 * in the tests (test/request/body-fuzz.test.ts) and a longer one from the command line
 * (node fuzz/run-body.mjs --seconds 300).
 */
import { seededRandom } from "./seeded-random";
import { bodyTarget } from "./targets/body";

/** Pieces worth splicing into a body: the reader's grammar and its edge cases. */
const TOKENS = [
	'"imageBase64":',
	'"imageBase64":"',
	"data:image/png;base64,",
	";base64,",
	"data:",
	'"mode":"manga"',
	"\\u00",
	"\\u0041",
	"\\ud83d",
	"\\/",
	"\\n",
	"=",
	"==",
	"-_",
	"+/",
	",",
	":",
	"{",
	"}",
	"[",
	"]",
	'"',
	"\\",
	" ",
	"null",
	"true",
	"-0.5e+3",
	"0",
	"\u00e9",
].map((token) => new TextEncoder().encode(token));
const RAW = [0x00, 0x1f, 0x7f, 0x80, 0xbf, 0xc0, 0xc3, 0xe2, 0xef, 0xf0, 0xf8, 0xff];

function mutate(input: Uint8Array, random: () => number): Uint8Array {
	let bytes = Array.from(input);
	const pick = (n: number) => Math.floor(random() * n);
	for (let round = 1 + pick(6); round > 0; round--) {
		const at = pick(bytes.length + 1);
		switch (pick(6)) {
			case 0:
				if (bytes.length) bytes[Math.min(at, bytes.length - 1)] = pick(256);
				break;
			case 1:
				bytes.splice(at, 0, RAW[pick(RAW.length)] as number);
				break;
			case 2:
				bytes.splice(at, 1 + pick(8));
				break;
			case 3:
				bytes.splice(at, 0, ...(TOKENS[pick(TOKENS.length)] as Uint8Array));
				break;
			case 4: {
				const from = pick(bytes.length + 1);
				bytes.splice(at, 0, ...bytes.slice(from, from + 1 + pick(24)));
				break;
			}
			default:
				bytes = bytes.slice(0, at);
		}
	}
	return Uint8Array.from(bytes);
}

export interface FuzzReport {
	runs: number;
	failures: { input: Uint8Array; message: string }[];
}

/** Runs every seed and crafted input, then mutants until `runs` or `until` (ms since epoch) is reached. */
export async function fuzzBody({
	seed,
	runs,
	until,
}: {
	seed: number;
	runs: number;
	until?: number;
}): Promise<FuzzReport> {
	const random = seededRandom(seed);
	const starts = [...bodyTarget.seeds(), ...(bodyTarget.crafted?.() ?? []).map((c) => c.bytes)];
	const report: FuzzReport = { runs: 0, failures: [] };
	const attempt = async (input: Uint8Array) => {
		report.runs++;
		try {
			await bodyTarget.run(input);
		} catch (error) {
			report.failures.push({ input, message: String(error) });
		}
	};
	for (const input of starts) await attempt(input);
	while (report.runs < runs && (until === undefined || Date.now() < until) && report.failures.length < 20) {
		await attempt(mutate(starts[Math.floor(random() * starts.length)] as Uint8Array, random));
	}
	return report;
}
