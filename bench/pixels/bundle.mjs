/** Bundles a TypeScript entry of src/ into one ES module that node can import (bench and fuzz tooling only). */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

export async function bundleForNode(entry, name) {
	const dir = join(import.meta.dirname ?? new URL(".", import.meta.url).pathname, "../out/bundles");
	return import(`${await bundleFile(entry, join(dir, `${name}.mjs`))}?t=${Date.now()}`);
}

/** Bundles `entry` into `outfile` (its folder made if need be) and returns the path. */
export async function bundleFile(entry, outfile) {
	mkdirSync(join(outfile, ".."), { recursive: true });
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
	return outfile;
}
