#!/usr/bin/env node
/**
 * Deterministic synthetic corpus for erase and typesetting benchmarks: images with known text in
 * six scripts over flat balloons and labels, gradients and photo-like textures, each with its
 * clean plate (the same image without text), the text coverage mask and the region boxes.
 *
 *   import { corpus, makeSample } from "./bench/corpus/synthetic.mjs";
 *   for (const spec of corpus()) { const s = await makeSample(spec); ... }
 *
 * A sample is { name, kind, script, tesseract, width, height,
 *   image, plate: { width, height, data: RGBA8 }, coverage: Uint8Array (0..255 text alpha per pixel),
 *   regions: [{ id, text, box, exactBox, vertical, color, bold }] }
 * where `box` is a reader-like approximate box (a few pixels off) and `exactBox` the true ink box.
 *
 *   node bench/corpus/synthetic.mjs [outDir]   writes <name>.png, .plate.png, .mask.png, .json
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { drawBalloon, drawLabel, gradient, paper, random, texture } from "./backgrounds.mjs";
import { writePng } from "./png.mjs";
import { FAMILIES, renderCoverage } from "./text.mjs";

export const SCRIPTS = ["ja", "zh", "ko", "latin", "cyrillic", "arabic"];
export const KINDS = ["flat", "gradient", "texture"];

/** tesseract language per script. */
const TESSERACT = { ja: "jpn", zh: "chi_sim", ko: "kor", latin: "eng", cyrillic: "rus", arabic: "ara" };

const PHRASES = {
	ja: ["ちょっと待って", "本当にありがとう", "どこへ行くの", "これは秘密だよ", "明日また会おう"],
	zh: ["我们走吧", "你在说什么", "今天天气很好", "这是我的朋友", "快点过来"],
	ko: ["잠깐만 기다려", "정말 고마워요", "어디 가는 거야", "이건 비밀이야", "내일 또 만나"],
	latin: ["Wait a moment!", "Thank you so much", "Where are you going?", "Fresh bread daily", "Free shipping today"],
	cyrillic: ["Подожди минутку", "Большое спасибо", "Куда ты идёшь?", "Свежий хлеб", "Скидка сегодня"],
	arabic: ["انتظر لحظة", "شكرا جزيلا", "إلى أين تذهب", "خبز طازج", "شحن مجاني اليوم"],
};

/** The fixed list of samples: every script on every kind of background. */
export function corpus({ width = 720, height = 540 } = {}) {
	const specs = [];
	let seed = 1;
	for (const kind of KINDS)
		for (const script of SCRIPTS) specs.push({ name: `${kind}-${script}`, kind, script, seed: seed++, width, height });
	return specs;
}

export async function makeSample({ name, kind, script, seed, width, height, regionCount = 3 }) {
	const rnd = random(seed * 7919);
	const plate =
		kind === "gradient"
			? gradient(width, height, rnd)
			: kind === "texture"
				? texture(width, height, rnd)
				: paper(width, height, rnd);
	const image = { width, height, data: plate.data.slice() };
	const coverage = new Uint8Array(width * height);
	const regions = [];
	const band = Math.floor(height / regionCount);
	for (let id = 0; id < regionCount; id++) {
		const cjk = script === "ja" || script === "zh" || script === "ko";
		const vertical = kind === "flat" && (script === "ja" || script === "zh") && id % 2 === 0;
		const phrases = PHRASES[script];
		const text = phrases[(seed + id) % phrases.length];
		const lines = splitLines(text, vertical ? 2 : 1 + (id % 2), cjk);
		const size = vertical ? 24 + Math.floor(rnd() * 5) : 22 + Math.floor(rnd() * 12);
		const bold = rnd() < 0.3;
		const rtl = script === "arabic";
		const x = vertical
			? 120 + Math.floor(rnd() * 300)
			: rtl
				? width - 60 - Math.floor(rnd() * 80)
				: 60 + Math.floor(rnd() * 80);
		const y = id * band + 30 + Math.floor(rnd() * 12);
		const ink = await renderCoverage({
			width,
			height,
			lines,
			x,
			y,
			size,
			family: FAMILIES[script],
			bold,
			vertical,
			rtl,
		});
		const exactBox = inkBox(ink, width, height);
		if (!exactBox) continue;

		const label = kind === "flat" && id % 2 === 1 && !vertical;
		if (kind === "flat" && !label) drawBalloon(plate, exactBox, rnd);
		const labelColour = [Math.floor(rnd() * 120) + 100, Math.floor(rnd() * 80), Math.floor(rnd() * 120)];
		if (label) drawLabel(plate, exactBox, labelColour);
		image.data.set(plate.data);
		const color = label ? [255, 255, 255] : kind === "flat" ? [15, 15, 15] : contrastingInk(plate, exactBox, rnd);
		for (let i = 0; i < ink.length; i++) if (ink[i] > coverage[i]) coverage[i] = ink[i];
		regions.push({
			id,
			text,
			lines,
			box: readerBox(exactBox, width, height, rnd),
			exactBox,
			vertical,
			color,
			bold,
			_ink: ink,
		});
	}
	// Text goes on after every balloon and label is drawn, each in its own colour.
	for (const region of regions) {
		paint(image, region._ink, region.color);
		delete region._ink;
	}
	return { name, kind, script, tesseract: TESSERACT[script], width, height, image, plate, coverage, regions };
}

function splitLines(text, count, cjk) {
	if (count === 1) return [text];
	if (cjk) {
		const chars = [...text];
		const half = Math.ceil(chars.length / 2);
		return [chars.slice(0, half).join(""), chars.slice(half).join("")];
	}
	const words = text.split(" ");
	if (words.length < 2) return [text];
	const half = Math.ceil(words.length / 2);
	return [words.slice(0, half).join(" "), words.slice(half).join(" ")];
}

function inkBox(ink, width, height) {
	let x0 = width;
	let y0 = height;
	let x1 = 0;
	let y1 = 0;
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			if (!ink[y * width + x]) continue;
			x0 = Math.min(x0, x);
			y0 = Math.min(y0, y);
			x1 = Math.max(x1, x + 1);
			y1 = Math.max(y1, y + 1);
		}
	}
	return x1 > x0 ? { x0, y0, x1, y1 } : undefined;
}

/** Like a reader's box: each side a few pixels out, now and then a pixel or two too tight. */
function readerBox(box, width, height, rnd) {
	const side = () => (rnd() < 0.2 ? -1 - Math.floor(rnd() * 2) : 2 + Math.floor(rnd() * 7));
	return {
		x0: Math.max(0, box.x0 - side()),
		y0: Math.max(0, box.y0 - side()),
		x1: Math.min(width, box.x1 + side()),
		y1: Math.min(height, box.y1 + side()),
	};
}

/** Black or white against the plate's mean under the text, or now and then a saturated colour. */
function contrastingInk(plate, box, rnd) {
	let sum = 0;
	let n = 0;
	for (let y = box.y0; y < box.y1; y++) {
		for (let x = box.x0; x < box.x1; x++) {
			const i = (y * plate.width + x) * 4;
			sum += 0.299 * plate.data[i] + 0.587 * plate.data[i + 1] + 0.114 * plate.data[i + 2];
			n++;
		}
	}
	const light = sum / n > 128;
	if (rnd() < 0.25) return light ? [150, 0, 20] : [255, 230, 40];
	return light ? [10, 10, 10] : [250, 250, 250];
}

function paint(image, ink, colour) {
	for (let i = 0; i < ink.length; i++) {
		const a = ink[i] / 255;
		if (a === 0) continue;
		for (let c = 0; c < 3; c++) image.data[i * 4 + c] = Math.round(image.data[i * 4 + c] * (1 - a) + colour[c] * a);
	}
}

export function coverageMaskImage({ width, height, coverage }) {
	const data = new Uint8Array(width * height * 4);
	for (let i = 0; i < coverage.length; i++) {
		data[i * 4] = data[i * 4 + 1] = data[i * 4 + 2] = coverage[i];
		data[i * 4 + 3] = 255;
	}
	return { width, height, data };
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const out = process.argv[2] ?? "bench/out/corpus";
	mkdirSync(out, { recursive: true });
	for (const spec of corpus()) {
		const s = await makeSample(spec);
		writeFileSync(join(out, `${s.name}.png`), writePng(s.image));
		writeFileSync(join(out, `${s.name}.plate.png`), writePng(s.plate));
		writeFileSync(join(out, `${s.name}.mask.png`), writePng(coverageMaskImage(s)));
		writeFileSync(
			join(out, `${s.name}.json`),
			JSON.stringify({ name: s.name, kind: s.kind, script: s.script, regions: s.regions }, null, 1),
		);
		console.log(s.name, s.regions.length, "regions");
	}
}
