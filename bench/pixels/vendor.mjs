/**
 * The model vendor for bench/pixels.mjs: an OpenAI-compatible endpoint (grok's protocol, checked
 * as strictly as the tests' fake: test/fakes/protocols.mjs) that reads every image as the bench
 * case's regions, each with its translation, in one call. Reads can be held until the bench lets
 * them go, so that memory is measured while calls wait for their model.
 */
import { createServer } from "node:http";
import { checkOpenAiChat, replyOpenAiChat } from "../../test/fakes/protocols.mjs";

/** A few English lines of dialogue and labels, of the lengths real balloons carry. */
const LINES = [
	"Wait a moment!",
	"Where do you think you're going?",
	"Thank you so much.",
	"This is our secret, okay?",
	"See you tomorrow",
	"Fresh bread every morning",
	"I told you so!",
	"Free shipping today only",
];

export async function startVendor() {
	/** The image's regions in its pixels, and its size: what every read answers. */
	let page = { width: 1, height: 1, regions: [] };
	let holding = false;
	const held = [];
	const arrivals = [];
	let received = 0;
	/** Per read, in order: when it arrived and was answered (performance.now()), the size of the image sent. */
	const visits = [];

	const server = createServer(async (req, res) => {
		const chunks = [];
		for await (const chunk of req) chunks.push(chunk);
		const body = Buffer.concat(chunks).toString("utf8");
		const request = new Request(`http://vendor${req.url}`, { method: req.method, headers: req.headers, body });
		const checked = checkOpenAiChat(request, JSON.parse(body), { vendor: "grok" });
		const reply = checked.error ?? replyOpenAiChat(JSON.stringify(answer(page)));
		const visit = {
			arrived: performance.now(),
			answered: 0,
			imageBytes: (checked.asked?.image?.base64.length ?? 0) * 0.75,
		};
		visits.push(visit);
		received++;
		for (const resolve of arrivals.splice(0)) resolve();
		if (holding) await new Promise((resolve) => held.push(resolve));
		const text = await reply.text();
		visit.answered = performance.now();
		res.writeHead(reply.status, { "content-type": "application/json" });
		res.end(text);
	});
	await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
	const url = `http://127.0.0.1:${server.address().port}`;
	return {
		/** Worker vars that send grok (the default translator, which reads and translates in one call) here. */
		vars: { XAI_BASE_URL: `${url}/grok/v1`, XAI_API_KEY: "bench-vendor-key", READER: "grok" },
		setPage(next) {
			page = next;
		},
		/** From now on, reads wait for release(). */
		hold() {
			holding = true;
		},
		release() {
			holding = false;
			for (const resolve of held.splice(0)) resolve();
		},
		/** Resolves once `count` reads have arrived since the vendor started. */
		async arrived(count) {
			while (received < count) await new Promise((resolve) => arrivals.push(resolve));
		},
		received: () => received,
		visits,
		stop: () => new Promise((resolve) => server.close(resolve)),
	};
}

/** The regions in the contract's 0..1000 units of the image sent, each with its translation. */
function answer({ width, height, regions }) {
	const unit = (v, size) => Math.max(0, Math.min(1000, Math.round((v * 1000) / size)));
	return {
		regions: regions.map((r, i) => ({
			text: r.text,
			box: [unit(r.box.x0, width), unit(r.box.y0, height), unit(r.box.x1, width), unit(r.box.y1, height)],
			vertical: r.vertical,
			translation: LINES[i % LINES.length],
		})),
	};
}
