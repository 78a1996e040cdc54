/**
 * `npm start`: the service on http://127.0.0.1:8787 with local Durable Object storage, an admin
 * token in .dev.vars, and a professional dev account with 1000 credits whose API key it prints.
 * With no vendor key in .dev.vars, the models are the local fake vendor (canned translations), so
 * the whole pipeline runs offline; put real keys in .dev.vars to translate for real.
 *
 *   npm start                              port 8787, fake vendor on 8788
 *   PORT=9000 npm start                    or: npm start -- --port 9000
 *   FAKE_VENDOR_PORT=9001 npm start        or: npm start -- --vendor-port 9001
 *
 * Both ports are checked before anything starts; every child is stopped on every way out.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { parseArgs } from "node:util";
import { SAMPLE, translateSample } from "./dev-sample.mjs";
import { provisionAccount, startDevServer, startFakeVendor } from "./dev-server.mjs";

const DEV_VARS = ".dev.vars";
const DEV_ACCOUNT = ".wrangler/dev-account.json";
const VENDOR_KEYS = [
	"XAI_API_KEY",
	"GEMINI_API_KEY",
	"DEEPSEEK_API_KEY",
	"MOONSHOT_API_KEY",
	"OPENAI_API_KEY",
	"ANTHROPIC_API_KEY",
];

/** A refusal to start, said plainly; nothing is running when it is thrown. */
class StartError extends Error {}

function readDevVars() {
	if (!existsSync(DEV_VARS)) return {};
	const vars = {};
	for (const line of readFileSync(DEV_VARS, "utf8").split("\n")) {
		const match = line.match(/^\s*([A-Z0-9_]+)\s*=\s*"?(.*?)"?\s*$/);
		if (match) vars[match[1]] = match[2];
	}
	return vars;
}

/** Makes sure .dev.vars holds an ADMIN_TOKEN, creating the file when there is none. */
function ensureAdminToken() {
	const vars = readDevVars();
	if (vars.ADMIN_TOKEN) return vars;
	const token = randomBytes(24).toString("base64url");
	const prefix = existsSync(DEV_VARS) ? `${readFileSync(DEV_VARS, "utf8").trimEnd()}\n` : "";
	writeFileSync(DEV_VARS, `${prefix}ADMIN_TOKEN="${token}"\n`, { mode: 0o600 });
	console.log(`Created ${DEV_VARS} with a random ADMIN_TOKEN (see .dev.vars.example for every variable).`);
	return { ...vars, ADMIN_TOKEN: token };
}

/** The ports asked for: flags over environment over defaults. */
function chosenPorts(argv, env) {
	const { values } = parseArgs({
		args: argv,
		options: { port: { type: "string" }, "vendor-port": { type: "string" } },
	});
	const port = (value, name) => {
		const n = Number(value);
		if (!Number.isInteger(n) || n < 1 || n > 65535)
			throw new StartError(`${name} must be a port number (1-65535), got "${value}"`);
		return n;
	};
	const service = port(values.port ?? env.PORT ?? "8787", values.port ? "--port" : "PORT");
	const vendor = port(
		values["vendor-port"] ?? env.FAKE_VENDOR_PORT ?? String(service + 1),
		values["vendor-port"] ? "--vendor-port" : "FAKE_VENDOR_PORT",
	);
	if (vendor === service) throw new StartError(`The service and the fake vendor cannot share port ${service}`);
	return { service, vendor };
}

function canListen(port) {
	return new Promise((resolve) => {
		const probe = createServer();
		probe.once("error", () => resolve(false));
		probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
	});
}

/** Whether a yakusu answers on the port (its /openapi.json names it), to say so instead of "port taken". */
async function yakusuAnswers(port) {
	try {
		const res = await fetch(`http://127.0.0.1:${port}/openapi.json`, { signal: AbortSignal.timeout(2000) });
		return /yakusu/i.test((await res.json()).info?.title ?? "");
	} catch {
		return false;
	}
}

async function checkPort(port, what, flag) {
	if (await canListen(port)) return;
	if (await yakusuAnswers(port)) {
		throw new StartError(
			`Another yakusu is already running on http://127.0.0.1:${port} (open it, or stop it with Ctrl-C where it runs).\nTo run a second one: npm start -- ${flag} <another port>`,
		);
	}
	throw new StartError(
		`Port ${port} (${what}) is taken by another program.\nChoose another: npm start -- ${flag} <port>`,
	);
}

/** Reuses the dev account while it exists and its key works; makes a new one otherwise. */
async function devAccount(url, adminToken) {
	if (existsSync(DEV_ACCOUNT)) {
		const saved = JSON.parse(readFileSync(DEV_ACCOUNT, "utf8"));
		const res = await fetch(`${url}/admin/accounts/${saved.accountId}`, {
			headers: { Authorization: `Bearer ${adminToken}` },
		});
		if (res.ok) {
			const account = await res.json();
			const key = account.keys.find((k) => k.keyId === saved.keyId);
			if (key && !key.revokedAt) return { ...saved, credits: account.credits };
		}
	}
	const made = await provisionAccount(url, adminToken, { plan: "professional", credits: 1000 });
	mkdirSync(".wrangler", { recursive: true });
	writeFileSync(DEV_ACCOUNT, JSON.stringify(made, null, 2), { mode: 0o600 });
	return { ...made, credits: 1000 };
}

/** The README's "Calling the API" command, for this service: it writes only under /tmp. */
function sampleCommand(url) {
	return `export YAKUSU_API_KEY=<the key above>
(printf '{"sourceLanguage":"ja","targetLanguage":"en","mode":"manga","imageBase64":"'; base64 -w0 docs/sample-manga.png; printf '"}') \\
  | curl -s ${url}/translate/image \\
      -H "Authorization: Bearer $YAKUSU_API_KEY" -H "Content-Type: application/json" \\
      -H "Idempotency-Key: $(node -p 'crypto.randomUUID()')" --data-binary @- > /tmp/yakusu-result.json
node -e 'const r=require("/tmp/yakusu-result.json"); require("fs").writeFileSync("/tmp/sample-manga.en.png", Buffer.from(r.resultImage.split(",")[1], "base64")); console.log(r.recordId, r.remainingCredit)'`;
}

/** Children started so far; stopped on every way out of this process. */
const children = [];
let stopping;
function stopAll(code) {
	stopping ??= Promise.allSettled(children.map((child) => child.stop())).then(() => process.exit(code));
	return stopping;
}

async function main() {
	const ports = chosenPorts(process.argv.slice(2), process.env);
	const fakeVendor = !VENDOR_KEYS.some((name) => readDevVars()[name]);
	await checkPort(ports.service, "the service", "--port");
	if (fakeVendor) await checkPort(ports.vendor, "the fake vendor", "--vendor-port");
	const vars = ensureAdminToken();

	for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
		process.on(signal, () => {
			console.log("\nStopping…");
			stopAll(0);
		});
	}

	/** @type {Record<string, string>} */
	const overrides = {};
	if (fakeVendor) {
		const fake = await startFakeVendor({ port: ports.vendor, quiet: false, reader: "ocr" });
		children.push(fake);
		Object.assign(overrides, fake.vars);
		console.log(
			`No vendor key in ${DEV_VARS}: a local OCR (tesseract.js) reads the text, and translations are stand-ins:\n` +
				"a phrasebook for the bundled samples, otherwise a pseudo-translation marked ~like this~.\n" +
				`Put a key in ${DEV_VARS} (see .dev.vars.example, e.g. GEMINI_API_KEY) to translate for real.`,
		);
	}

	const server = await startDevServer({
		port: ports.service,
		vars: overrides,
		onLog: (line) => {
			if (/\[wrangler:(info|warn|error)\]|ERROR|✘/.test(line)) console.log(line);
		},
		onExit: () => {
			if (stopping) return;
			console.error("wrangler dev stopped unexpectedly; stopping the rest.");
			stopAll(1);
		},
	});
	children.push(server);

	const account = await devAccount(server.url, vars.ADMIN_TOKEN);
	console.log(`
yakusu is running on ${server.url}  (playground: ${server.url}/, API reference: ${server.url}/docs)

Dev account ${account.accountId} (professional, ${account.credits} credits)
API key: ${account.apiKey}

Try it (the README's command):
${sampleCommand(server.url).replace("<the key above>", account.apiKey)}

Ctrl-C stops the service.`);

	try {
		const made = await translateSample(server.url, account.apiKey);
		console.log(`\nTranslated ${SAMPLE.file} (${SAMPLE.sourceLanguage} -> ${SAMPLE.targetLanguage}): ${made}`);
	} catch (error) {
		console.log(`\nThe sample translation failed: ${error.message}`);
	}
}

main().catch((error) => {
	console.error(error instanceof StartError ? error.message : error);
	stopAll(1);
});
