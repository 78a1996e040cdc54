/**
 * The playground in real headless Chromium against `wrangler dev` with the fake vendor: a person pastes
 * a key, chooses an image and languages, translates, sees and downloads the result, or reads why not.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { chromium } from "playwright-core";
import { FIXTURES, pngSize, startService } from "./harness.mjs";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const IMAGE = path.join(FIXTURES, "hello-ja.png");

describe("playground", { timeout: 240_000 }, () => {
	let service;
	let context;
	let profile;

	before(async () => {
		if (!existsSync(CHROMIUM)) {
			throw new Error(`No Chromium at ${CHROMIUM}: apt-get install chromium, or set CHROMIUM_PATH`);
		}
		service = await startService();
		profile = await mkdtemp(path.join(tmpdir(), "yakusu-chromium-"));
		context = await chromium.launchPersistentContext(profile, {
			executablePath: CHROMIUM,
			headless: true,
			acceptDownloads: true,
			args: [
				"--no-sandbox",
				"--disable-gpu",
				"--disable-quic",
				"--no-first-run",
				"--disable-background-networking",
				"--disable-component-update",
				"--disable-sync",
			],
		});
	});

	after(async () => {
		await context?.close();
		await service?.stop();
		if (profile) await rm(profile, { recursive: true, force: true });
	});

	async function openPlayground(viewport = { width: 1100, height: 900 }) {
		const page = await context.newPage();
		await page.setViewportSize(viewport);
		await recordPolicyViolations(page);
		await page.goto(`${service.url}/`);
		// The pickers are filled from /openapi.json: wait until they are.
		await page.waitForFunction(() => document.querySelectorAll("#target-language option").length > 100);
		return page;
	}

	/** Content-Security-Policy violations the page reports, kept in `window.violations`. */
	async function recordPolicyViolations(page) {
		await page.addInitScript(() => {
			window.violations = [];
			document.addEventListener("securitypolicyviolation", (event) => {
				window.violations.push(`${event.violatedDirective} ${event.blockedURI}`);
			});
		});
	}

	async function fillForm(page, apiKey) {
		await page.fill("#api-key", apiKey);
		await page.setInputFiles("#image-input", IMAGE);
		await page.fill('[data-field="sourceLanguage"] .language-search', "japan");
		await page.fill('[data-field="targetLanguage"] .language-search', "engl");
	}

	it("translates an uploaded image, shows it beside the original, and downloads it", async () => {
		const page = await openPlayground();
		await fillForm(page, service.apiKey);
		assert.equal(await page.inputValue("#source-language"), "ja");
		assert.equal(await page.inputValue("#target-language"), "en");
		await page.click("#translate-button");

		await page.waitForSelector("#result:not([hidden]), #error:not([hidden])", { timeout: 180_000 });
		const error = await page.locator("#error").textContent();
		assert.equal(await page.isVisible("#result"), true, `no result; error shown: ${error}\n${service.log()}`);
		assert.match(await page.textContent("#record-id"), /^rec_/);
		assert.equal(await page.textContent("#remaining-credit"), "990");
		assert.equal(await service.credits(), 990);
		// Both halves of the comparison are loaded images.
		const loaded = await page.$$eval("#original-image, #result-image", (images) =>
			images.map((img) => img.complete && img.naturalWidth > 0),
		);
		assert.deepEqual(loaded, [true, true]);

		const [download] = await Promise.all([page.waitForEvent("download"), page.click("#download")]);
		assert.equal(download.suggestedFilename(), "hello-ja.en.png");
		const saved = await readFile(await download.path());
		const original = await readFile(IMAGE);
		assert.deepEqual(pngSize(saved), pngSize(original), "the translation keeps the image's size");
		assert.notDeepEqual(saved, original, "the downloaded image is the translation, not the upload");

		// The key stays in this tab's session storage, and nowhere that outlives it.
		const storage = await page.evaluate(() => ({ session: { ...sessionStorage }, local: { ...localStorage } }));
		assert.equal(Object.values(storage.session).includes(service.apiKey), true);
		assert.deepEqual(storage.local, {});
		await page.close();
	});

	it("says clearly that a bad key was refused, and charges nothing", async () => {
		const page = await openPlayground();
		await fillForm(page, "sk_yakusu_this-key-does-not-exist-aaaaaaaaaaaaaaaaaaaaaa");
		await page.click("#translate-button");
		await page.waitForSelector("#error:not([hidden])", { timeout: 60_000 });
		const message = await page.textContent("#error");
		assert.match(message, /API key was not accepted/);
		assert.match(message, /401/);
		assert.equal(await page.isVisible("#result"), false);
		assert.equal(await service.credits(), 990);
		await page.close();
	});

	for (const { why, account, image, expected } of [
		{ why: "no credit left", account: { plan: "professional", credits: 5 }, expected: /Not enough credit.*\(402/ },
		{
			why: "a plan without API access",
			account: { plan: "starter", credits: 100 },
			expected: /plan does not include API access.*\(403/,
		},
		{ why: "a file that is not an image", image: "not-an-image.png", expected: /not a supported image.*\(422/ },
	]) {
		it(`explains a refusal for ${why}`, async () => {
			const page = await openPlayground();
			const apiKey = account ? await service.keyFor(account) : service.apiKey;
			await fillForm(page, apiKey);
			if (image) {
				await page.setInputFiles("#image-input", {
					name: image,
					mimeType: "image/png",
					buffer: Buffer.from("plain text with a .png name"),
				});
			}
			await page.click("#translate-button");
			await page.waitForSelector("#error:not([hidden])", { timeout: 60_000 });
			assert.match(await page.textContent("#error"), expected);
			assert.equal(await page.isVisible("#result"), false);
			await page.close();
		});
	}

	it("picks a language with Enter in its search box, without sending a paid request", async () => {
		const page = await openPlayground();
		let requests = 0;
		page.on("request", (request) => {
			if (request.url().endsWith("/translate/image")) requests += 1;
		});
		await fillForm(page, service.apiKey);
		await page.fill('[data-field="targetLanguage"] .language-search', "kore");
		await page.press('[data-field="targetLanguage"] .language-search', "Enter");
		assert.equal(await page.inputValue("#target-language"), "ko");
		assert.equal(await page.textContent("#status"), "");
		assert.equal(requests, 0);
		await page.close();
	});

	it("fits a phone-sized screen without sideways scrolling, with Translate on screen, and so does /docs", async () => {
		const page = await openPlayground({ width: 375, height: 740 });
		const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
		assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
		const button = await page.locator("#translate-button").boundingBox();
		assert.ok(button && button.x >= 0 && button.x + button.width <= 375, "the Translate button is on screen");
		assert.ok(
			button.y + button.height <= 740,
			`the Translate button is ${Math.round(button.y)}px down, below the screen`,
		);
		// The API reference too: long codes and patterns wrap, code samples scroll inside their box.
		await page.goto(`${service.url}/docs`);
		const docsOverflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
		assert.ok(docsOverflow <= 0, `/docs is ${docsOverflow}px wider than the screen`);
		await page.close();
	});

	it("clears an earlier result when a later call fails", async () => {
		const page = await openPlayground();
		await fillForm(page, service.apiKey);
		await page.click("#translate-button");
		await page.waitForSelector("#result:not([hidden])", { timeout: 180_000 });
		await page.fill("#api-key", "sk_yakusu_this-key-does-not-exist-aaaaaaaaaaaaaaaaaaaaaa");
		await page.click("#translate-button");
		await page.waitForSelector("#error:not([hidden])", { timeout: 60_000 });
		assert.equal(await page.isVisible("#result"), false, "the earlier translation still shows under the error");
		assert.match(await page.textContent("#error"), /API key was not accepted.*Nothing was charged/);
		await page.close();
	});

	it("keeps the chosen language when a search matches nothing, and brings the list back when it is cleared", async () => {
		const page = await openPlayground();
		const search = '[data-field="sourceLanguage"] .language-search';
		await page.fill(search, "japan");
		assert.equal(await page.inputValue("#source-language"), "ja");
		await page.fill(search, "japanx");
		assert.equal(await page.inputValue("#source-language"), "ja", "the choice survives a search with no match");
		assert.match(await page.textContent('[data-field="sourceLanguage"] .search-note'), /No language matches “japanx”/);
		await page.fill(search, "");
		assert.equal(await page.inputValue("#source-language"), "ja");
		assert.ok((await page.locator("#source-language option").count()) > 100, "the whole list is back");
		await page.close();
	});

	it("refuses a file over 20 MB at once, without sending it, and shows small sizes in KB", async () => {
		const page = await openPlayground();
		let requests = 0;
		page.on("request", (request) => {
			if (request.url().endsWith("/translate/image")) requests += 1;
		});
		await page.setInputFiles("#image-input", IMAGE);
		assert.match(await page.textContent("#drop-text"), /hello-ja\.png \(5 KB\)/);
		await page.setInputFiles("#image-input", {
			name: "huge.png",
			mimeType: "image/png",
			buffer: Buffer.alloc(21 * 1024 * 1024),
		});
		assert.match(await page.textContent("#error"), /huge\.png is 21\.0 MB; the limit is 20 MB\. Nothing was sent/);
		assert.equal(requests, 0);
		await page.close();
	});

	it("shows a handle on the comparison slider that a finger can find", async () => {
		const page = await openPlayground();
		await fillForm(page, service.apiKey);
		await page.click("#translate-button");
		await page.waitForSelector("#result:not([hidden])", { timeout: 180_000 });
		const handle = await page.locator("#compare .handle").boundingBox();
		const image = await page.locator("#original-image").boundingBox();
		assert.ok(handle && handle.width >= 32 && handle.height >= 32, "a handle at least 32 px across");
		const centre = handle.x + handle.width / 2;
		assert.ok(Math.abs(centre - (image.x + image.width / 2)) <= 2, "the handle sits on the split, mid-image");
		await page.close();
	});

	it("sends security headers on / and /docs, and neither page breaks its Content-Security-Policy", async () => {
		for (const path of ["/", "/docs"]) {
			const res = await fetch(`${service.url}${path}`);
			const csp = res.headers.get("content-security-policy") ?? "";
			assert.match(csp, /default-src 'none'/, path);
			assert.match(csp, /frame-ancestors 'none'/, path);
			assert.equal(res.headers.get("x-content-type-options"), "nosniff", path);
			assert.equal(res.headers.get("referrer-policy"), "no-referrer", path);
		}
		const page = await openPlayground();
		assert.deepEqual(await page.evaluate(() => window.violations), [], "/ violates its policy");
		await page.goto(`${service.url}/docs`);
		const styled = await page.evaluate(() => getComputedStyle(document.body).maxWidth);
		assert.equal(styled, "960px", "/docs kept its own style");
		assert.deepEqual(await page.evaluate(() => window.violations), [], "/docs violates its policy");
		await page.close();
	});
});
