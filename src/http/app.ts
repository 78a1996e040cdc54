import { Hono } from "hono";
import type { Env } from "../env";
import type { Pipeline } from "../pipeline/run";
import { admin } from "./admin";
import { problem } from "./answers";
import { openApiRoutes } from "./openapi";
import { translateHandler } from "./translate";

/** The Worker's HTTP surface. The pipeline is a parameter so that tests can run the service around a double. */
export function createApp(pipeline: Pipeline): Hono<{ Bindings: Env }> {
	const app = new Hono<{ Bindings: Env }>();

	app.post("/translate/image", translateHandler(pipeline));
	app.all("/translate/image", () => problem(405, "Method not allowed: use POST", { Allow: "POST" }));
	app.route("/admin", admin);
	app.route("/", openApiRoutes);

	// Everything else is the playground and the fonts, or nothing.
	app.notFound(async (c) => {
		if (c.req.method === "GET" || c.req.method === "HEAD") {
			const asset = await c.env.ASSETS.fetch(c.req.raw);
			if (asset.status !== 404) return asset;
		}
		return problem(404, "Not found");
	});

	app.onError((error) => {
		console.error(JSON.stringify({ event: "unhandled", error: String(error) }));
		return problem(500, "Internal error");
	});

	return app;
}
