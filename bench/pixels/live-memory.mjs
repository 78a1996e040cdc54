#!/usr/bin/env node
/**
 * Live memory of the pixel stages, measured in node (same V8 as workerd) with a full collection
 * at every stage boundary: what the pipeline really holds, as opposed to the RSS high-water in
 * workerd, which also counts garbage not yet collected and malloc's free lists.
 * Usage: node --expose-gc bench/pixels/live-memory.mjs (bench/pixels.mjs runs it).
 */
import { initPhoton } from "@cf-wasm/photon";
import { bundleForNode } from "./bundle.mjs";
import { CASES, input } from "./inputs.mjs";

const MB = 1024 * 1024;
const { decodeImage, eraseRegions, composeOverlays, encodePng, probeImage, admitImage } = await bundleForNode(
	"bench/pixels/stages.ts",
	"stages",
);
const wasm = await initPhoton.promise;

/** Heap and ArrayBuffers after a full collection (ArrayBuffer memory is released a moment later). */
async function live() {
	globalThis.gc();
	await new Promise((resolve) => setTimeout(resolve, 20));
	globalThis.gc();
	const { heapUsed, arrayBuffers } = process.memoryUsage();
	return heapUsed + arrayBuffers;
}

console.log("| case | after decode | after erase | after encode | PNG | Wasm (photon) |");
console.log("|---|---|---|---|---|---|");
// One function call per case, so that nothing of a case outlives it (a top-level loop keeps its
// previous iteration's values reachable for a while).
for (const spec of CASES) await measure(spec);

async function measure(spec) {
	const sample = await input(spec);
	let bytes = new Uint8Array(sample.bytes);
	sample.bytes = undefined;
	const base = (await live()) - bytes.length; // the request's bytes count as the pipeline's
	const raster = decodeImage(probeImage(bytes, admitImage));
	const afterDecode = (await live()) - base;
	eraseRegions(raster, sample.regions, "manga");
	const afterErase = (await live()) - base;
	composeOverlays(raster, []);
	bytes = undefined; // as the pipeline drops the request's file after decoding
	const png = encodePng(raster);
	const afterEncode = (await live()) - base;
	const mb = (v) => `${(v / MB).toFixed(0)} MB`;
	console.log(
		`| ${spec.name} | ${mb(afterDecode)} | ${mb(afterErase)} | ${mb(afterEncode)} | ${(png.reduce((sum, piece) => sum + piece.length, 0) / MB).toFixed(1)} MB | ${mb(wasm.memory.buffer.byteLength)} |`,
	);
}
