import { DurableObject } from "cloudflare:workers";
export class ApiKey extends DurableObject {
	ping() {
		return "key";
	}
}
export class Account extends DurableObject {
	ping() {
		return "acct";
	}
}
export default {
	async fetch(req: Request, env: any) {
		const url = new URL(req.url);
		if (url.pathname === "/x") return new Response(await env.API_KEY.get(env.API_KEY.idFromName("a")).ping());
		return env.ASSETS.fetch(req);
	},
};
