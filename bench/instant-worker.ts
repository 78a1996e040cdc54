/**
 * The service with an instant pipeline, for bench/http.mjs: every accepted call answers at once
 * with a 1x1 PNG, so that the latency measured is the service's own (gate, body, ledger), not
 * the models'. Bench-only: nothing here ships in src/.
 */
import { createApp } from "../src/http/app";
import type { Pipeline } from "../src/pipeline/run";

export { Account } from "../src/state/account";
export { ApiKey } from "../src/state/api-key";

const ONE_PIXEL_PNG = Uint8Array.from(
	atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="),
	(character) => character.charCodeAt(0),
);

const instant: Pipeline = async () => ({ png: [ONE_PIXEL_PNG], overflow: [] });

export default createApp(instant);
