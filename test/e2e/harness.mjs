/**
 * The service as a user meets it: `wrangler dev` with every model vendor pointed at the loopback fake
 * (scripts/fake-vendor.mjs), fresh Durable Object storage, and one provisioned account and key.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, provisionAccount, startDevServer, startFakeVendor } from "../../scripts/dev-server.mjs";

export const REPO = fileURLToPath(new URL("../../", import.meta.url));
export const FIXTURES = fileURLToPath(new URL("./fixtures/", import.meta.url));
const ADMIN_TOKEN = "e2e-admin-token";

/**
 * @param {object} [options]
 * @param {number} [options.modelLatencyMs]  every model call takes this long (the fake vendor's latency switch)
 * @param {Record<string, string>} [options.vendorSwitches]  a fake vendor switch per base URL variable, e.g. { XAI_BASE_URL: "fail=500" }
 * @param {string} [options.reader]  "ocr" reads images with the local OCR reader (as `npm start` without keys
 *   does) instead of the fake vendor's fixtures
 * @returns {Promise<{ url: string, apiKey: string, accountId: string, credits: () => Promise<number>, stop: () => Promise<void> }>}
 */
export async function startService({
	credits = 1000,
	plan = "professional",
	modelLatencyMs,
	vendorSwitches = {},
	reader,
} = {}) {
	const persistTo = await mkdtemp(path.join(tmpdir(), "yakusu-e2e-"));
	const vendor = await startFakeVendor({ reader });
	for (const [name, value] of Object.entries(vendor.vars)) {
		if (!name.endsWith("_BASE_URL")) continue;
		const switches = [modelLatencyMs === undefined ? "" : `latency=${modelLatencyMs}`, vendorSwitches[name] ?? ""];
		const prefix = switches.filter(Boolean).join("/");
		if (prefix) vendor.vars[name] = value.replace(vendor.url, `${vendor.url}/${prefix}`);
	}
	const log = [];
	let server;
	try {
		server = await startDevServer({
			port: await freePort(),
			persistTo,
			vars: { ADMIN_TOKEN, ...vendor.vars },
			onLog: (line) => log.push(line),
		});
	} catch (error) {
		await vendor.stop();
		throw error;
	}
	const account = await provisionAccount(server.url, ADMIN_TOKEN, { plan, credits });
	return {
		url: server.url,
		apiKey: account.apiKey,
		accountId: account.accountId,
		/** The account's balance as the admin API reports it: what the user was really charged. */
		async credits() {
			const res = await fetch(`${server.url}/admin/accounts/${account.accountId}`, {
				headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
			});
			return (await res.json()).credits;
		},
		/** Another account's API key, for the plan and credit cases (403, 402). */
		async keyFor({ plan, credits }) {
			return (await provisionAccount(server.url, ADMIN_TOKEN, { plan, credits })).apiKey;
		},
		/** wrangler's output so far, for a failing test's message. */
		log: () => log.slice(-60).join("\n"),
		async stop() {
			await server.stop();
			await vendor.stop();
			await rm(persistTo, { recursive: true, force: true });
		},
	};
}

/** Width and height from a PNG's IHDR, or undefined if the bytes are not a PNG. */
export function pngSize(bytes) {
	const signature = "89504e470d0a1a0a";
	if (bytes.subarray(0, 8).toString("hex") !== signature) return undefined;
	return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}
