// wrangler bundles these imports as compiled WebAssembly.Module objects.
declare module "harfbuzzjs/dist/harfbuzz.wasm" {
	const module: WebAssembly.Module;
	export default module;
}
declare module "*/draw-callbacks.wasm" {
	const module: WebAssembly.Module;
	export default module;
}
declare module "@resvg/resvg-wasm/index_bg.wasm" {
	const module: WebAssembly.Module;
	export default module;
}
