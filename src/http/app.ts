import { Hono } from "hono";
import { NONCE, secureHeaders } from "hono/secure-headers";
import type { Env } from "../env";
import type { Pipeline } from "../pipeline/run";
import { admin } from "./admin";
import { problem } from "./answers";
import { openApiRoutes } from "./openapi";
import { translateHandler } from "./translate";

/** The Worker's HTTP surface. The pipeline is a parameter so that tests can run the service around a double. */
export function createApp(pipeline: Pipeline): Hono<{ Bindings: Env }> {
	const app = new Hono<{ Bindings: Env }>();

	// The playground holds an API key: nothing but this site's own files may run, load or frame it.
	app.use(
		secureHeaders({
			contentSecurityPolicy: {
				defaultSrc: ["'none'"],
				scriptSrc: ["'self'"],
				// /docs carries its style inline, under this nonce.
				styleSrc: ["'self'", NONCE],
				// The translation arrives as a data URL and is shown through a blob URL.
				imgSrc: ["'self'", "data:", "blob:"],
				connectSrc: ["'self'", "data:"],
				fontSrc: ["'self'"],
				baseUri: ["'none'"],
				formAction: ["'self'"],
				frameAncestors: ["'none'"],
			},
			xFrameOptions: "DENY",
		}),
	);

	app.post("/translate/image", translateHandler(pipeline));
	app.all("/translate/image", () => problem(405, "Method not allowed: use POST", { Allow: "POST" }));
	app.route("/admin", admin);
	app.route("/", openApiRoutes);

	// Everything else is the playground and the fonts, or nothing.
	app.notFound(async (c) => {
		if (c.req.method === "GET" || c.req.method === "HEAD") {
			const asset = await c.env.ASSETS.fetch(c.req.raw);
			// A copy with headers of its own, so that the security headers can be added to it.
			if (asset.status !== 404) return new Response(asset.body, asset);
		}
		return problem(404, "Not found");
	});

	app.onError((error) => {
		console.error(JSON.stringify({ event: "unhandled", error: String(error) }));
		return problem(500, "Internal error");
	});

	return app;
}
