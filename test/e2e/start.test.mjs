/**
 * `npm start` refuses clearly, before starting anything, when it cannot run: a port that is not a port,
 * a port another program holds, or another yakusu already answering there.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createServer as createHttpServer } from "node:http";
import { createServer } from "node:net";
import path from "node:path";
import { describe, it } from "node:test";
import { freePort } from "../../scripts/dev-server.mjs";
import { REPO } from "./harness.mjs";

function npmStart(args, env = {}) {
	return new Promise((resolve) => {
		const started = Date.now();
		execFile(
			process.execPath,
			[path.join(REPO, "scripts", "dev.mjs"), ...args],
			{ cwd: REPO, env: { ...process.env, ...env }, timeout: 30_000 },
			(error, stdout, stderr) =>
				resolve({ code: error ? (error.code ?? 1) : 0, stdout, stderr, seconds: (Date.now() - started) / 1000 }),
		);
	});
}

function listening(server) {
	return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server.address().port)));
}

describe("npm start", { timeout: 60_000 }, () => {
	it("refuses a port that is not one", async () => {
		const run = await npmStart(["--port", "eighty"]);
		assert.equal(run.code, 1);
		assert.match(run.stderr, /--port must be a port number \(1-65535\), got "eighty"/);
		const same = await npmStart([], { PORT: "9000", FAKE_VENDOR_PORT: "9000" });
		assert.match(same.stderr, /cannot share port 9000/);
	});

	it("says which port is taken, and how to choose another, before starting anything", async () => {
		const holder = createServer();
		const port = await listening(holder);
		try {
			const run = await npmStart([], { PORT: String(port), FAKE_VENDOR_PORT: String(await freePort()) });
			assert.equal(run.code, 1);
			assert.match(run.stderr, new RegExp(`Port ${port} \\(the service\\) is taken by another program`));
			assert.match(run.stderr, /npm start -- --port <port>/);
			assert.doesNotMatch(run.stdout, /fake vendor on port/, "nothing was started");
		} finally {
			holder.close();
		}
	});

	it("says so when another yakusu already answers on the port", async () => {
		const other = createHttpServer((_, res) =>
			res
				.writeHead(200, { "Content-Type": "application/json" })
				.end('{"info":{"title":"yakusu image translation API"}}'),
		);
		const port = await listening(other);
		try {
			const run = await npmStart(["--port", String(port), "--vendor-port", String(await freePort())]);
			assert.equal(run.code, 1);
			assert.match(run.stderr, new RegExp(`Another yakusu is already running on http://127.0.0.1:${port}`));
		} finally {
			other.close();
		}
	});
});
