// Whether a refusal sent while the client is still uploading reaches the client: Node's fetch, curl and
// a raw socket each send bodies the service refuses early (declared too large, bad JSON at byte 2, an
// image over 20 MB once decoded, an unknown key) to `wrangler dev`, a few times each.
// Usage: node bench/early-answers.mjs. Needs curl. Prints a Markdown table.

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort, provisionAccount, startDevServer } from "../scripts/dev-server.mjs";

const MB = 1024 * 1024;
const TRIES = 3;
const ADMIN_TOKEN = randomToken();

function randomToken() {
	return Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString("base64url");
}

const work = mkdtempSync(path.join(tmpdir(), "yakusu-early-"));
const server = await startDevServer({ port: await freePort(), persistTo: work, vars: { ADMIN_TOKEN } });
const { apiKey } = await provisionAccount(server.url, ADMIN_TOKEN);
const endpoint = `${server.url}/translate/image`;

const CASES = [
	{ name: "30 MB body (over the 28 MB limit): 413", key: apiKey, body: Buffer.alloc(30 * MB, 0x41) },
	{
		name: "25 MB body, bad JSON at byte 2: 400",
		key: apiKey,
		body: Buffer.concat([Buffer.from("{x"), Buffer.alloc(25 * MB, 0x41)]),
	},
	{
		name: "27.5 MB of base64, over 20 MB decoded: 413",
		key: apiKey,
		body: Buffer.concat([Buffer.from('{"imageBase64":"'), Buffer.alloc(27.5 * MB, 0x41), Buffer.from('"}')]),
	},
	{ name: "25 MB body, unknown key: 401", key: `sk_yakusu_${"Q".repeat(43)}`, body: Buffer.alloc(25 * MB, 0x41) },
];

async function viaFetch({ key, body }) {
	try {
		const res = await fetch(endpoint, { method: "POST", headers: { Authorization: `Bearer ${key}` }, body });
		await res.arrayBuffer();
		return String(res.status);
	} catch (error) {
		return error.cause?.code ?? error.message;
	}
}

function viaCurl({ key, body }) {
	const file = path.join(work, "body");
	writeFileSync(file, body);
	const run = spawnSync(
		"curl",
		[
			"-sS",
			"-o",
			"/dev/null",
			"-w",
			"%{http_code}",
			"-H",
			`Authorization: Bearer ${key}`,
			"--data-binary",
			`@${file}`,
			endpoint,
		],
		{ encoding: "utf8" },
	);
	return run.stderr.includes("Recv failure") ? "Recv failure" : run.stdout || run.stderr.trim();
}

function viaSocket({ key, body }) {
	const { hostname, port } = new URL(server.url);
	return new Promise((resolve) => {
		const socket = net.connect(Number(port), hostname);
		let answer = "";
		socket.on("data", (data) => {
			answer += data.toString("latin1");
		});
		const status = () => answer.slice(9, 12);
		socket.on("error", (/** @type {NodeJS.ErrnoException} */ error) => resolve(status() || error.code));
		socket.on("close", () => resolve(status() || "closed, no answer"));
		socket.write(
			`POST /translate/image HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${key}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
		);
		socket.end(body);
	});
}

/** "413 ×3", or each outcome with its count. */
function tally(outcomes) {
	const counts = new Map();
	for (const outcome of outcomes) counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
	return [...counts].map(([outcome, count]) => `${outcome} ×${count}`).join(", ");
}

console.log(`Each client sends each body ${TRIES} times to \`wrangler dev\` on loopback; what it receives:\n`);
console.log("| body | Node fetch | curl | raw socket |");
console.log("|---|---|---|---|");
try {
	for (const test of CASES) {
		const cells = [];
		for (const client of [viaFetch, viaCurl, viaSocket]) {
			const outcomes = [];
			for (let i = 0; i < TRIES; i++) outcomes.push(await client(test));
			cells.push(tally(outcomes));
		}
		console.log(`| ${test.name} | ${cells.join(" | ")} |`);
	}
} finally {
	await server.stop();
	rmSync(work, { recursive: true, force: true });
}
