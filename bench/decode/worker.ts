/**
 * Bench-only Worker for bench/decode.mjs. PUT /file keeps the request's bytes (so that reading
 * them is not measured); POST /run?mode=rows|whole probes them with the service's limits and
 * decodes them, rows to a sink that keeps nothing or into one whole raster, and answers what
 * happened and how long each step took.
 */
import { decodeImage, decodeRows } from "../../src/pipeline/decode";
import { PipelineError } from "../../src/pipeline/errors";
import { ImageDataError } from "../../src/pipeline/pixels/image-error";
import { probeImage } from "../../src/pipeline/probe";
import { RequestError } from "../../src/request/errors";
import { admitImage } from "../../src/request/validate";

let file = new Uint8Array(0);

function run(mode: string): Record<string, unknown> {
	let mark = performance.now();
	let image: ReturnType<typeof probeImage>;
	try {
		image = probeImage(file, admitImage);
	} catch (error) {
		const probeMs = performance.now() - mark;
		if (error instanceof ImageDataError) return { outcome: "422 before acceptance", probeMs };
		if (error instanceof RequestError) return { outcome: `${error.status} before acceptance`, probeMs };
		throw error;
	}
	const probeMs = performance.now() - mark;
	mark = performance.now();
	try {
		if (mode === "whole") decodeImage(image);
		else decodeRows(image, { rows() {} });
	} catch (error) {
		if (error instanceof PipelineError && error.status === 422) {
			return { outcome: "422 while decoding (refunded)", probeMs, decodeMs: performance.now() - mark };
		}
		throw error;
	}
	return { outcome: "decoded", probeMs, decodeMs: performance.now() - mark, width: image.width, height: image.height };
}

export default {
	async fetch(request: Request): Promise<Response> {
		const url = new URL(request.url);
		if (url.pathname === "/ready") return new Response("ok");
		if (url.pathname === "/file" && request.method === "PUT") {
			file = new Uint8Array(await request.arrayBuffer());
			return new Response("kept");
		}
		if (url.pathname === "/run") return Response.json(run(url.searchParams.get("mode") ?? "rows"));
		return new Response("not found", { status: 404 });
	},
};
