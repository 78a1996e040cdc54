/**
 * SVG to straight RGBA with resvg-wasm, initialised once per isolate from the bundled module.
 * resvg renders premultiplied alpha; overlays are straight alpha (types.ts), so edges are divided back.
 */
import { initWasm, Resvg } from "@resvg/resvg-wasm";
import resvgModule from "@resvg/resvg-wasm/index_bg.wasm";
import type { Raster } from "../types";

let ready: Promise<void> | undefined;
let loaded = false;

/** Loads resvg once per isolate; after it, `rasterizeLoaded` draws without waiting. */
export function loadRasterizer(): Promise<void> {
	ready ??= initWasm(resvgModule).then(
		() => {
			loaded = true;
		},
		(error: unknown) => {
			// A second initWasm in the same isolate throws; a failed first one must be retried.
			if (String(error).includes("Already initialized")) {
				loaded = true;
				return;
			}
			ready = undefined;
			throw error;
		},
	);
	return ready;
}

export async function rasterize(svg: string): Promise<Raster> {
	await loadRasterizer();
	return rasterizeLoaded(svg);
}

/** Draws at once, for code that cannot wait (the last pass draws inside the decoder's row callback). */
export function rasterizeLoaded(svg: string): Raster {
	if (!loaded) throw new Error("resvg is not loaded: await loadRasterizer() first");
	const renderer = new Resvg(svg, { font: { loadSystemFonts: false } });
	try {
		const image = renderer.render();
		const data = new Uint8Array(image.pixels);
		const raster = { width: image.width, height: image.height, data };
		image.free();
		unpremultiply(data);
		return raster;
	} finally {
		renderer.free();
	}
}

function unpremultiply(data: Uint8Array): void {
	for (let i = 0; i < data.length; i += 4) {
		const a = data[i + 3] as number;
		if (a === 0 || a === 255) continue;
		data[i] = Math.min(255, Math.round(((data[i] as number) * 255) / a));
		data[i + 1] = Math.min(255, Math.round(((data[i + 1] as number) * 255) / a));
		data[i + 2] = Math.min(255, Math.round(((data[i + 2] as number) * 255) / a));
	}
}
