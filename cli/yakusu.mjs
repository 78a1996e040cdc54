#!/usr/bin/env node
/** `yakusu translate <files or folders> --to en`: translates a batch of images through the yakusu API. */
import { createClient } from "./api.mjs";
import { DEFAULT_BASE_URL, parseCommand, USAGE, UsageError } from "./args.mjs";
import { formatSummary, runBatch } from "./batch.mjs";
import { collectJobs } from "./inputs.mjs";
import { createProgress } from "./progress.mjs";

async function main(argv, env) {
	let command;
	try {
		command = parseCommand(argv);
	} catch (error) {
		if (!(error instanceof UsageError) && error.code?.startsWith("ERR_PARSE_ARGS") !== true) throw error;
		console.error(`${error.message}\nRun "yakusu --help" for the options.`);
		return 2;
	}
	if (command.command === "help") {
		console.log(USAGE);
		return 0;
	}
	const apiKey = env.YAKUSU_API_KEY?.trim();
	if (!apiKey) {
		console.error("Set YAKUSU_API_KEY to your API key (sk_yakusu_...).");
		return 2;
	}
	const client = createClient({ baseUrl: env.YAKUSU_BASE_URL || DEFAULT_BASE_URL, apiKey });

	const jobs = await collectJobs(command.paths, {
		targetLanguage: command.options.targetLanguage,
		outDir: command.outDir,
		knownLanguages: await client.languageCodes(),
	});
	if (jobs.length === 0) {
		console.error("No images found (.png, .jpg, .jpeg, .webp, .gif).");
		return 1;
	}
	console.error(`Translating ${jobs.length} image${jobs.length === 1 ? "" : "s"} with ${client.endpoint}`);
	const summary = await runBatch({ ...command, jobs, client, progress: createProgress(jobs.length) });
	console.log(formatSummary(summary));
	return summary.failed > 0 || summary.notStarted > 0 ? 1 : 0;
}

main(process.argv.slice(2), process.env).then(
	(code) => {
		process.exitCode = code;
	},
	(error) => {
		console.error(`yakusu: ${error.message}`);
		process.exitCode = 1;
	},
);
