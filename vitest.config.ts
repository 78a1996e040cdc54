import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

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
