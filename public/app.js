/** The playground: wires the form to the API. The API key lives in this tab's session storage only. */
import { describeFailure, translateImage } from "./js/api-client.js";
import { setUpCompare } from "./js/compare.js";
import { fillSelect, loadRequestSchema, makeLanguagePicker } from "./js/pickers.js";

const KEY_STORAGE = "yakusu.apiKey";
/** The service's limit on a decoded image: larger files are refused here, before a byte is sent. */
const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
const $ = (id) => document.getElementById(id);

const state = { file: null, originalUrl: null, resultUrl: null, downloadName: "" };

// npm start without vendor keys translates with stand-ins; on this machine, say what they are.
if (["127.0.0.1", "localhost", "[::1]"].includes(location.hostname)) $("local-notice").hidden = false;

function showError(message) {
	$("error").textContent = message;
	$("error").hidden = !message;
}

function setStatus(message) {
	$("status").textContent = message;
}

function setUpApiKey() {
	const input = $("api-key");
	input.value = sessionStorage.getItem(KEY_STORAGE) ?? "";
	input.addEventListener("input", () => sessionStorage.setItem(KEY_STORAGE, input.value.trim()));
	$("forget-key").addEventListener("click", () => {
		sessionStorage.removeItem(KEY_STORAGE);
		input.value = "";
		input.focus();
	});
}

/** 5 KB, 840 KB, 3.4 MB: a size a person reads at a glance. */
function fileSize(bytes) {
	if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
	return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function chooseFile(file) {
	if (!file) return;
	if (!file.type.startsWith("image/")) {
		showError(`${file.name} is not an image. Use a PNG, JPEG, WebP or GIF.`);
		return;
	}
	if (file.size > MAX_IMAGE_BYTES) {
		showError(
			`${file.name} is ${fileSize(file.size)}; the limit is 20 MB. Nothing was sent or charged: scale it down first.`,
		);
		return;
	}
	showError("");
	state.file = file;
	if (state.originalUrl) URL.revokeObjectURL(state.originalUrl);
	state.originalUrl = URL.createObjectURL(file);
	$("preview-image").src = state.originalUrl;
	$("preview").hidden = false;
	$("result").hidden = true;
	$("drop-text").textContent = `${file.name} (${fileSize(file.size)}). Drop or choose another to replace it.`;
}

function setUpDropZone() {
	const zone = $("drop-zone");
	const input = $("image-input");
	input.addEventListener("change", () => chooseFile(input.files?.[0]));
	zone.addEventListener("dragover", (event) => {
		event.preventDefault();
		zone.classList.add("dragging");
	});
	zone.addEventListener("dragleave", () => zone.classList.remove("dragging"));
	zone.addEventListener("drop", (event) => {
		event.preventDefault();
		zone.classList.remove("dragging");
		chooseFile(event.dataTransfer?.files?.[0]);
	});
	// A screenshot in the clipboard is the quickest way to try a page: paste it anywhere but a text field.
	document.addEventListener("paste", (event) => {
		const file = event.clipboardData?.files?.[0];
		if (file && !(event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement))
			chooseFile(file);
	});
}

function readAsDataUrl(file) {
	return new Promise((resolve, reject) => {
		const reader = new FileReader();
		reader.onload = () => resolve(reader.result);
		reader.onerror = () => reject(reader.error);
		reader.readAsDataURL(file);
	});
}

/** `page.jpg` translated to English downloads as `page.en.png`, the name the CLI writes too. */
function downloadName(fileName, target) {
	const stem = fileName.replace(/\.[^.]+$/, "") || "image";
	return `${stem}.${target}.png`;
}

async function showResult(body, target) {
	if (state.resultUrl) URL.revokeObjectURL(state.resultUrl);
	// A blob URL keeps a multi-megabyte data URL out of the DOM and makes the download a plain file.
	state.resultUrl = URL.createObjectURL(await (await fetch(body.resultImage)).blob());
	$("original-image").src = state.originalUrl;
	$("result-image").src = state.resultUrl;
	$("remaining-credit").textContent = String(body.remainingCredit);
	$("record-id").textContent = body.recordId;
	state.downloadName = downloadName(state.file.name, target);
	$("preview").hidden = true;
	$("result").hidden = false;
	$("result").scrollIntoView({ behavior: "smooth", block: "nearest" });
}

function download() {
	const link = document.createElement("a");
	link.href = state.resultUrl;
	link.download = state.downloadName;
	link.click();
}

/**
 * 128 random bits as hex. Not crypto.randomUUID: browsers offer it only on https and localhost, and the
 * playground is also opened over plain http on a LAN address to try it on a phone.
 */
function newIdempotencyKey() {
	const bytes = crypto.getRandomValues(new Uint8Array(16));
	return `pg-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

function formBody() {
	const body = {
		sourceLanguage: $("source-language").value,
		targetLanguage: $("target-language").value,
		mode: $("mode").value,
		translator: $("translator").value,
	};
	const prompt = $("custom-prompt").value.trim();
	if (prompt) body.customPrompt = prompt;
	return body;
}

/** What is missing before a call is worth making, checked here so nobody pays a round trip to learn it. */
function missingInput(apiKey, body) {
	if (!apiKey) return "Paste your API key first.";
	if (!state.file) return "Choose an image first.";
	if (!body.sourceLanguage) return "Pick the language to translate from.";
	if (!body.targetLanguage) return "Pick the language to translate into.";
	return "";
}

async function submit(event) {
	event.preventDefault();
	const apiKey = $("api-key").value.trim();
	const body = formBody();
	const missing = missingInput(apiKey, body);
	showError(missing);
	if (missing) return;

	// A result from an earlier call must not stand under this call's outcome.
	$("result").hidden = true;
	$("preview").hidden = false;
	const button = $("translate-button");
	button.disabled = true;
	const started = Date.now();
	const tick = setInterval(() => setStatus(`Translating… ${Math.round((Date.now() - started) / 1000)} s`), 1000);
	setStatus("Translating…");
	try {
		body.imageBase64 = await readAsDataUrl(state.file);
		// One key per click: if the connection drops after the server accepted the call, it is not charged twice.
		const answer = await translateImage({ apiKey, body, idempotencyKey: newIdempotencyKey() });
		if (answer.status === 200 && !answer.cut) {
			await showResult(answer.body, body.targetLanguage);
			setStatus(`Done in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
		} else {
			showError(describeFailure(answer));
			setStatus("");
		}
	} catch (error) {
		showError(`Could not reach the service: ${error.message}. Check your connection and try again.`);
		setStatus("");
	} finally {
		clearInterval(tick);
		button.disabled = false;
	}
}

async function setUpOptions() {
	const fields = await loadRequestSchema();
	makeLanguagePicker(document.querySelector('[data-field="sourceLanguage"]'), fields.sourceLanguage, "auto");
	makeLanguagePicker(document.querySelector('[data-field="targetLanguage"]'), fields.targetLanguage, "en");
	fillSelect($("mode"), fields.mode);
	fillSelect($("translator"), fields.translator);
	const prompt = $("custom-prompt");
	prompt.maxLength = fields.customPrompt.maxLength;
	$("prompt-max").textContent = String(fields.customPrompt.maxLength);
	prompt.addEventListener("input", () => {
		$("prompt-count").textContent = String(prompt.value.length);
	});
}

setUpApiKey();
setUpDropZone();
setUpCompare($("compare"), $("slider"));
$("translate-form").addEventListener("submit", submit);
$("download").addEventListener("click", download);
setUpOptions().catch((error) => showError(`${error.message}. Reload the page to try again.`));
