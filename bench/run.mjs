/**
 * `npm run bench`: runs every benchmark and writes their figures, with date and machine, into
 * docs/benchmarks.md. Each benchmark prints Markdown on stdout; its section is replaced in place.
 *   npm run bench                  all of them
 *   npm run bench -- http pixels   only those whose name contains a given word
 * System tools they use (wrk, tesseract and its language packs, Noto fonts for the corpus) are
 * installed from Debian's packages when missing and we are root.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, release, totalmem } from "node:os";

const BENCHES = [
	{ name: "http", title: "Request handling: latency of answers", script: "bench/http.mjs" },
	{ name: "body", title: "Request handling: memory of reading a 20 MB image", script: "bench/body-memory.mjs" },
	{
		name: "early-answers",
		title: "Request handling: early answers reach the client",
		script: "bench/early-answers.mjs",
	},
	{
		name: "models",
		title: "Read and translate: wall time at a vendor's pace, output tokens, bytes, our own time",
		script: "bench/models.mjs",
	},
	{ name: "pixels", title: "The whole call: speed and memory in workerd", script: "bench/pixels.mjs" },
	{ name: "decode", title: "Decoding: speed per format, and hostile files, in workerd", script: "bench/decode.mjs" },
	{ name: "erase-quality", title: "Erase quality on the synthetic corpus", script: "bench/quality-erase.mjs" },
	{ name: "typeset", title: "Typesetting quality and speed", script: "bench/typeset.mjs" },
	{ name: "pages", title: "Real-looking pages: exact and rough boxes", script: "bench/pages.mjs" },
	{ name: "layout", title: "Layout: before and after, exact and rough boxes", script: "bench/layout.mjs" },
	{
		name: "readers",
		title: "Local reader: tesseract.js against PaddleOCR (Guten OCR), recall, CER, time, memory, install",
		script: "bench/readers.mjs",
	},
];

const DEBIAN_PACKAGES = {
	wrk: ["wrk"],
	curl: ["curl"],
	tesseract: [
		"tesseract-ocr",
		"tesseract-ocr-jpn",
		"tesseract-ocr-jpn-vert",
		"tesseract-ocr-chi-sim-vert",
		"tesseract-ocr-kor-vert",
		"tesseract-ocr-chi-sim",
		"tesseract-ocr-chi-tra",
		"tesseract-ocr-kor",
		"tesseract-ocr-rus",
		"tesseract-ocr-ara",
		"tesseract-ocr-hin",
		"tesseract-ocr-tha",
		"tesseract-ocr-spa",
	],
	"fc-list": ["fonts-noto-core", "fonts-noto-cjk"],
	convert: ["imagemagick"],
};

const DOC = "docs/benchmarks.md";

function has(command) {
	try {
		execFileSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" });
		return true;
	} catch {
		return false;
	}
}

function installTools() {
	const missing = Object.entries(DEBIAN_PACKAGES)
		.filter(([command]) => !has(command))
		.flatMap(([, packages]) => packages);
	if (!existsSync("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")) missing.push("fonts-noto-cjk");
	if (missing.length === 0) return;
	if (process.getuid?.() !== 0) {
		console.error(`Missing tools; install them first: apt-get install -y ${missing.join(" ")}`);
		process.exit(1);
	}
	console.error(`Installing ${missing.join(", ")}…`);
	execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
	execFileSync("apt-get", ["install", "-y", "-qq", ...new Set(missing)], {
		stdio: "inherit",
		env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
	});
}

function run(script) {
	return new Promise((resolve) => {
		const child = spawn(process.execPath, ["--expose-gc", script], { stdio: ["ignore", "pipe", "inherit"] });
		let out = "";
		child.stdout.setEncoding("utf8");
		child.stdout.on("data", (text) => {
			out += text;
			process.stdout.write(text);
		});
		child.on("exit", (code) => resolve({ code, out: out.trim() }));
	});
}

function machine() {
	const cpu = cpus();
	const gib = (totalmem() / 2 ** 30).toFixed(0);
	return `${cpu[0]?.model ?? "unknown CPU"}, ${cpu.length} cores, ${gib} GiB, Linux ${release()}, Node ${process.versions.node}`;
}

function section(name, title, body) {
	return `<!-- bench:${name} -->\n## ${title}\n\n${body}\n<!-- /bench:${name} -->`;
}

async function main() {
	const words = process.argv.slice(2);
	const chosen = words.length ? BENCHES.filter((b) => words.some((w) => b.name.includes(w))) : BENCHES;
	installTools();

	let doc = existsSync(DOC)
		? readFileSync(DOC, "utf8")
		: "# Benchmarks\n\nFigures from `npm run bench`; each section says when and where it was measured.\n";
	let failed = 0;
	for (const bench of chosen) {
		console.error(`\n== ${bench.name}: node ${bench.script}`);
		const started = new Date().toISOString().slice(0, 10);
		const { code, out } = await run(bench.script);
		if (code !== 0) {
			failed++;
			console.error(`${bench.script} exited with ${code}; its section is left as it was.`);
			continue;
		}
		const body = `Measured ${started} on ${machine()}.\n\n${out}\n`;
		const pattern = new RegExp(`<!-- bench:${bench.name} -->[\\s\\S]*?<!-- /bench:${bench.name} -->`);
		const fresh = section(bench.name, bench.title, body);
		doc = pattern.test(doc) ? doc.replace(pattern, fresh) : `${doc.trimEnd()}\n\n${fresh}\n`;
		writeFileSync(DOC, doc);
	}
	process.exit(failed ? 1 : 0);
}

main();
