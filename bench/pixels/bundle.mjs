/** Bundles a TypeScript entry of src/ into one ES module that node can import (bench tooling only). */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

export async function bundleForNode(entry, name) {
	const dir = join(import.meta.dirname ?? new URL(".", import.meta.url).pathname, "../out/bundles");
	mkdirSync(dir, { recursive: true });
	const outfile = join(dir, `${name}.mjs`);
	// photon loads its .wasm relative to its own files: left as a package import, node resolves it.
	await build({
		entryPoints: [entry],
		bundle: true,
		format: "esm",
		platform: "node",
		outfile,
		external: ["@cf-wasm/photon"],
		logLevel: "warning",
	});
	return import(`${outfile}?t=${Date.now()}`);
}
