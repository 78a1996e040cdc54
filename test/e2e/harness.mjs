/**
 * The service as a user meets it: `wrangler dev` with every model vendor pointed at the loopback fake
 * (scripts/fake-vendor.mjs), fresh Durable Object storage, and one provisioned account and key.
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { provisionAccount, startDevServer } from "../../scripts/dev-server.mjs";

export const REPO = fileURLToPath(new URL("../../", import.meta.url));
export const FIXTURES = fileURLToPath(new URL("./fixtures/", import.meta.url));
const ADMIN_TOKEN = "e2e-admin-token";

/** A port nobody listens on right now, so parallel runs and a developer's own `wrangler dev` do not collide. */
export function freePort() {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once("error", reject);
		server.listen(0, "127.0.0.1", () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
	});
}

/** Every translator's base URL and key, aimed at the fake. */
async function startVendor() {
	const modulePath = path.join(REPO, "scripts", "fake-vendor.mjs");
	if (!existsSync(modulePath)) return { vars: {}, stop: async () => {} };
	const { startFakeVendor } = await import(modulePath);
	const vendor = await startFakeVendor({ port: await freePort() });
	return { vars: vendor.vars, stop: () => vendor.stop() };
}

/**
 * @returns {Promise<{ url: string, apiKey: string, accountId: string, credits: () => Promise<number>, stop: () => Promise<void> }>}
 */
export async function startService({ credits = 1000, plan = "professional" } = {}) {
	const persistTo = await mkdtemp(path.join(tmpdir(), "yakusu-e2e-"));
	const vendor = await startVendor();
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
