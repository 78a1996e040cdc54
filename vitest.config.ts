import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// wrangler reads wrangler.toml once per test file and warns each time that the AI binding is remote-only
// (tests replace it with a fake): 45 copies of one warning hid the test output. Errors still show.
process.env.WRANGLER_LOG ??= "error";

export default defineConfig({
	plugins: [
		cloudflareTest({
			wrangler: { configPath: "./wrangler.toml" },
			// Workers AI is remote-only; tests replace the AI binding with a fake.
			remoteBindings: false,
			miniflare: {
				bindings: { ADMIN_TOKEN: "test-admin-token" },
			},
		}),
	],
	test: {
		include: ["test/**/*.test.ts"],
		// The service logs one JSON line per call; show logs only for tests that fail.
		silent: "passed-only",
		// Some tests drive a hundred calls through the real Durable Objects; a loaded machine is slow, not wrong.
		testTimeout: 30_000,
	},
});
