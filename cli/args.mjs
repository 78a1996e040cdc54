/** Command-line arguments: `yakusu translate <files or folders> --to en [...]`, read with node's own parseArgs. */
import { parseArgs } from "node:util";

/** Where `npm start` runs the service. */
export const DEFAULT_BASE_URL = "http://127.0.0.1:8787";

export const USAGE = `Usage: yakusu translate <files or folders...> --to <lang> [options]

Translates the text in images through the yakusu API and writes <name>.<lang>.png.

Options:
  --to <code>            target language (required), e.g. en
  --from <code>          source language, default auto
  --mode <mode>          general (default), manga, e-commerce, light-novel
  --translator <name>    grok (default), gemini, deepseek, kimi, chatgpt, claude
  --prompt <text>        extra instructions for the translator (at most 1000 characters)
  --out <dir>            write results here (default: beside each image)
  --concurrency <n>      requests in flight at most, default 4 (fewer when the rate limit is near)
  --retries <n>          retries per file on 429, 5xx and network errors, default 4
  --overwrite            translate even when the output file exists
  --again                pay again for files already translated with the same options
  -h, --help             show this help

Environment:
  YAKUSU_API_KEY         your API key (required)
  YAKUSU_BASE_URL        the service, default ${DEFAULT_BASE_URL}

Folders are searched recursively for .png, .jpg, .jpeg, .webp and .gif files.
Re-running the same command is safe: finished files are skipped, and a file the service
already charged for with the same options is not charged again (Idempotency-Key).`;

export class UsageError extends Error {}

function positiveInteger(name, value, fallback) {
	if (value === undefined) return fallback;
	const n = Number(value);
	if (!Number.isInteger(n) || n < 0) throw new UsageError(`--${name} must be a whole number, got "${value}"`);
	return n;
}

/**
 * The parsed command, or a UsageError saying what is wrong.
 * @returns {{ command: "help" } | { command: "translate", paths: string[], options: Record<string, string>, outDir: string | undefined, concurrency: number, retries: number, overwrite: boolean, again: boolean }}
 */
export function parseCommand(argv) {
	const { values, positionals } = parseArgs({
		args: argv,
		allowPositionals: true,
		options: {
			to: { type: "string" },
			from: { type: "string" },
			mode: { type: "string" },
			translator: { type: "string" },
			prompt: { type: "string" },
			out: { type: "string" },
			concurrency: { type: "string" },
			retries: { type: "string" },
			overwrite: { type: "boolean", default: false },
			again: { type: "boolean", default: false },
			help: { type: "boolean", short: "h", default: false },
		},
	});
	if (values.help || positionals.length === 0) return { command: "help" };
	const [command, ...paths] = positionals;
	if (command !== "translate") throw new UsageError(`Unknown command "${command}"`);
	if (paths.length === 0) throw new UsageError("Give at least one file or folder to translate");
	if (!values.to) throw new UsageError("--to <language> is required, e.g. --to en");
	const concurrency = positiveInteger("concurrency", values.concurrency, 4);
	if (concurrency < 1) throw new UsageError("--concurrency must be at least 1");
	return {
		command,
		paths,
		// Only what the user chose is sent: the service applies its own defaults to the rest.
		options: {
			sourceLanguage: values.from ?? "auto",
			targetLanguage: values.to,
			...(values.mode ? { mode: values.mode } : {}),
			...(values.translator ? { translator: values.translator } : {}),
			...(values.prompt ? { customPrompt: values.prompt } : {}),
		},
		outDir: values.out,
		concurrency,
		retries: positiveInteger("retries", values.retries, 4),
		overwrite: values.overwrite,
		again: values.again,
	};
}
