import type { Env as WorkerEnv } from "../src/env";

// `env` from "cloudflare:workers" in tests is the Worker's own Env.
declare global {
	namespace Cloudflare {
		interface Env extends WorkerEnv {}
	}
}
