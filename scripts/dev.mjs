/**
 * `npm start`: the service on http://127.0.0.1:8787 with local Durable Object storage, an admin
 * token in .dev.vars, and a professional dev account with 1000 credits whose API key it prints.
 * With no vendor key in .dev.vars, the models are the local fake vendor (canned translations), so
 * the whole pipeline runs offline; put real keys in .dev.vars to translate for real.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { SAMPLE, translateSample } from "./dev-sample.mjs";
import { provisionAccount, startDevServer, startFakeVendor } from "./dev-server.mjs";

const PORT = 8787;
const FAKE_VENDOR_PORT = 8788;
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

async function main() {
	const vars = ensureAdminToken();
	const children = [];
	const overrides = {};

	if (!VENDOR_KEYS.some((name) => vars[name])) {
		const fake = await startFakeVendor({ port: FAKE_VENDOR_PORT, quiet: false, reader: "ocr" });
		children.push(fake);
		Object.assign(overrides, fake.vars);
		console.log(
			`No vendor key in ${DEV_VARS}: a local OCR (tesseract.js) reads the text, and translations are stand-ins:\n` +
				"a phrasebook for the bundled samples, otherwise a pseudo-translation marked ~like this~.\n" +
				`Put a key in ${DEV_VARS} (see .dev.vars.example, e.g. GEMINI_API_KEY) to translate for real.`,
		);
	}

	const server = await startDevServer({
		port: PORT,
		vars: overrides,
		onLog: (line) => {
			if (/\[wrangler:(info|warn|error)\]|ERROR|✘/.test(line)) console.log(line);
		},
	});
	children.push(server);

	let stopping = false;
	const shutdown = async () => {
		if (stopping) return;
		stopping = true;
		console.log("\nStopping…");
		await Promise.all(children.map((child) => child.stop()));
		process.exit(0);
	};
	process.on("SIGINT", shutdown);
	process.on("SIGTERM", shutdown);

	const account = await devAccount(server.url, vars.ADMIN_TOKEN);
	console.log(`
yakusu is running on ${server.url}  (playground: ${server.url}/, API reference: ${server.url}/docs)

Dev account ${account.accountId} (professional, ${account.credits} credits)
API key: ${account.apiKey}

Try it:
  (printf '{"sourceLanguage":"ja","targetLanguage":"en","mode":"manga","imageBase64":"'; base64 -w0 docs/sample-manga.png; printf '"}') \\
    | curl -s ${server.url}/translate/image -H "Authorization: Bearer ${account.apiKey}" \\
        -H "Content-Type: application/json" --data-binary @- > result.json

Ctrl-C stops the service.`);

	try {
		const made = await translateSample(server.url, account.apiKey);
		console.log(`\nTranslated ${SAMPLE.file} (${SAMPLE.sourceLanguage} -> ${SAMPLE.targetLanguage}): ${made}`);
	} catch (error) {
		console.log(`\nThe sample translation failed: ${error.message}`);
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
