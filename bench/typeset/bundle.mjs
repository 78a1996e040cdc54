/**
 * Bundles src/pipeline/typeset (and compose, erase) for node, for the typesetting benchmark. In the Worker,
 * wrangler turns `.wasm` imports into compiled modules; this plugin does the same from the file.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

const wasmAsModule = {
	name: "wasm-as-module",
	setup(b) {
		b.onResolve({ filter: /\.wasm$/ }, async (args) => {
			if (args.pluginData?.inner) return undefined;
			const found = await b.resolve(args.path, {
				kind: args.kind,
				resolveDir: args.resolveDir,
				pluginData: { inner: true },
			});
			return { path: found.path, namespace: "wasm-module" };
		});
		b.onLoad({ filter: /.*/, namespace: "wasm-module" }, (args) => ({
			contents: `export default new WebAssembly.Module(new Uint8Array(${JSON.stringify([...readFileSync(args.path)])}));`,
			loader: "js",
		}));
	},
};

export async function bundleTypeset() {
	return bundleWithWasm(
		[
			`export * from "./src/pipeline/typeset/index.ts";`,
			`export { drawOverlay } from "./src/pipeline/compose.ts";`,
			`export { layOut } from "./test/support/lay-out.ts";`,
		].join("\n"),
		join(import.meta.dirname, "../.."),
		"typeset",
	);
}

/** Bundles the module `contents` (TypeScript, imports relative to `resolveDir`) for node as `name`. */
export async function bundleWithWasm(contents, resolveDir, name) {
	const dir = join(import.meta.dirname, "../out/bundles");
	mkdirSync(dir, { recursive: true });
	const outfile = join(dir, `${name}.mjs`);
	await build({
		stdin: { contents, resolveDir, loader: "ts" },
		bundle: true,
		format: "esm",
		platform: "node",
		outfile,
		logLevel: "warning",
		plugins: [wasmAsModule],
	});
	return import(`${outfile}?t=${Date.now()}`);
}

/** Reads fonts from fonts/, as the Worker's static assets would serve them. */
export const loadFontFromDisk = async (file) =>
	new Uint8Array(readFileSync(join(import.meta.dirname, "../../fonts", file)));
