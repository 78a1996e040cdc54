import { env } from "cloudflare:workers";
import type { Env } from "../../src/env";

/** The font loader the Worker uses: the static assets binding. */
export async function loadFont(file: string): Promise<Uint8Array> {
	const response = await (env as unknown as Env).ASSETS.fetch(`https://assets.local/fonts/${file}`);
	if (!response.ok) throw new Error(`font ${file}: ${response.status}`);
	return new Uint8Array(await response.arrayBuffer());
}
