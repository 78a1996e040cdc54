#!/usr/bin/env node
/** `yakusu translate <files or folders> --to en`: translates a batch of images through the yakusu API. */
import { createClient } from "./api.mjs";
import { DEFAULT_BASE_URL, parseCommand, USAGE, UsageError } from "./args.mjs";
import { formatSummary, runBatch } from "./batch.mjs";
import { collectJobs } from "./inputs.mjs";
import { createProgress } from "./progress.mjs";

/** Exit statuses of an interrupted batch, as shells report a process killed by the signal. */
const EXIT_ON = { SIGINT: 130, SIGTERM: 143 };

/**
 * Interruptions: Ctrl-C (SIGINT), SIGTERM, and the process that started us going away. Under `npx` a
 * signal sent to npx reaches its shell, not us: the shell dies and we are left orphaned, so a change of
 * parent counts as an interruption too. The first one stops the batch (requests in flight are
 * cancelled, so the service refunds them); a second one exits at once.
 */
function interruptions() {
	const controller = new AbortController();
	let exitCode = 0;
	const interrupt = (signal) => {
		if (controller.signal.aborted) process.exit(exitCode);
		exitCode = EXIT_ON[signal] ?? EXIT_ON.SIGINT;
		console.error(`\nInterrupted (${signal}): stopping; requests in flight are cancelled and not charged.`);
		controller.abort(new Error(`interrupted by ${signal}`));
	};
	process.on("SIGINT", () => interrupt("SIGINT"));
	process.on("SIGTERM", () => interrupt("SIGTERM"));
	const parent = process.ppid;
	setInterval(() => {
		if (process.ppid !== parent) interrupt("SIGHUP: the process that started yakusu is gone");
	}, 250).unref();
	return { signal: controller.signal, exitCode: () => exitCode };
}

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
	const interrupted = interruptions();
	const { signal } = interrupted;

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
	const summary = await runBatch({ ...command, jobs, client, progress: createProgress(jobs.length), signal });
	console.log(formatSummary(summary));
	if (signal.aborted) return interrupted.exitCode();
	return summary.failed > 0 || summary.notStarted > 0 ? 1 : 0;
}

main(process.argv.slice(2), process.env).then(
	// Exits now: an interrupted batch may leave aborted sockets closing in the background.
	(code) => process.exit(code),
	(error) => {
		console.error(`yakusu: ${error.message}`);
		process.exitCode = 1;
	},
);
