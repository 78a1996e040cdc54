/**
 * Bench-only Worker for bench/pixels.mjs. POST /pixels runs decode -> erase -> compose -> encode
 * on the body (the image file) with the regions of the `x-regions` header, and answers per-stage
 * times and Wasm memory sizes. POST /baseline does the naive thing for comparison: the whole
 * image as a base64 <image> in one SVG with the text on top, rendered by resvg to PNG.
 */
import { initPhoton } from "@cf-wasm/photon";
import { initWasm, Resvg } from "@resvg/resvg-wasm";
import resvgModule from "@resvg/resvg-wasm/index_bg.wasm";
import font from "../../fonts/NotoSans-Regular.ttf";
import { composeOverlays } from "../../src/pipeline/compose";
import { decodeImage } from "../../src/pipeline/decode";
import { encodePng } from "../../src/pipeline/encode";
import { eraseRegions } from "../../src/pipeline/erase";
import { probeImage } from "../../src/pipeline/probe";
import type { ErasedRegion, Overlay, TranslatedRegion } from "../../src/pipeline/types";
import { admitImage } from "../../src/request/validate";

let resvgMemory: WebAssembly.Memory | undefined;
const ready = (async () => {
	// resvg keeps its instance private: catch its memory on the way in, to report its size.
	const instantiate = WebAssembly.instantiate;
	WebAssembly.instantiate = (async (...args: Parameters<typeof WebAssembly.instantiate>) => {
		const result = await instantiate(...args);
		const instance = "instance" in result ? result.instance : result;
		resvgMemory = instance.exports.memory as WebAssembly.Memory;
		return result;
	}) as typeof WebAssembly.instantiate;
	await initWasm(resvgModule);
	WebAssembly.instantiate = instantiate;
})();

async function photonMemoryBytes(): Promise<number> {
	const exports = (await initPhoton.promise) as unknown as { memory: WebAssembly.Memory };
	return exports.memory.buffer.byteLength;
}

/** Stand-ins for the typesetter's patches: one translucent text-sized block per region. */
function overlaysFor(regions: ErasedRegion[]): Overlay[] {
	return regions.map(({ textBox: b, textColor }) => {
		const width = Math.max(1, b.x1 - b.x0);
		const height = Math.max(1, b.y1 - b.y0);
		const data = new Uint8Array(width * height * 4);
		for (let i = 0; i < width * height; i++) {
			data.set(textColor, i * 4);
			data[i * 4 + 3] = (i * 37) % 256; // varied coverage, like anti-aliased glyphs
		}
		return { x: b.x0, y: b.y0, raster: { width, height, data } };
	});
}

async function pixels(request: Request): Promise<Response> {
	const regions = JSON.parse(decodeURIComponent(request.headers.get("x-regions") ?? "[]")) as TranslatedRegion[];
	const bytes = new Uint8Array(await request.arrayBuffer());
	const times: Record<string, number> = {};
	// Workers' clock only moves across I/O; Date.now() after an await of a stream is good enough
	// for whole stages, and performance.now() is the same clock.
	let mark = performance.now();
	const lap = (stage: string) => {
		const now = performance.now();
		times[stage] = now - mark;
		mark = now;
	};
	const raster = decodeImage(probeImage(bytes, admitImage));
	lap("decode");
	const erased = eraseRegions(raster, regions, "manga");
	lap("erase");
	composeOverlays(raster, overlaysFor(erased));
	lap("compose");
	const png = encodePng(raster);
	lap("encode");
	return Response.json({
		times,
		width: raster.width,
		height: raster.height,
		pngBytes: png.reduce((sum, piece) => sum + piece.length, 0),
		photonWasmBytes: await photonMemoryBytes(),
	});
}

async function baseline(request: Request): Promise<Response> {
	await ready;
	const format = new URL(request.url).searchParams.get("format") ?? "png";
	const regions = JSON.parse(decodeURIComponent(request.headers.get("x-regions") ?? "[]")) as TranslatedRegion[];
	const bytes = new Uint8Array(await request.arrayBuffer());
	const started = performance.now();
	const width = Number(request.headers.get("x-width"));
	const height = Number(request.headers.get("x-height"));
	let binary = "";
	for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
	const texts = regions.map(({ box: b, translation }) => {
		const size = Math.max(10, Math.round((b.y1 - b.y0) / 3));
		return `<rect x="${b.x0}" y="${b.y0}" width="${b.x1 - b.x0}" height="${b.y1 - b.y0}" fill="#fff"/><text x="${b.x0}" y="${b.y0 + size}" font-size="${size}" font-family="Noto Sans">${translation}</text>`;
	});
	const svg = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${width}" height="${height}"><image width="${width}" height="${height}" xlink:href="data:image/${format};base64,${btoa(binary)}"/>${texts.join("")}</svg>`;
	binary = "";
	const resvg = new Resvg(svg, { font: { fontBuffers: [new Uint8Array(font)], defaultFontFamily: "Noto Sans" } });
	const png = resvg.render().asPng();
	resvg.free();
	return Response.json({
		times: { baseline: performance.now() - started },
		pngBytes: png.length,
		resvgWasmBytes: resvgMemory?.buffer.byteLength ?? 0,
	});
}

export default {
	async fetch(request: Request): Promise<Response> {
		const { pathname } = new URL(request.url);
		if (pathname === "/ready") return new Response("ok");
		if (pathname === "/pixels") return pixels(request);
		if (pathname === "/baseline") return baseline(request);
		return new Response("not found", { status: 404 });
	},
};
