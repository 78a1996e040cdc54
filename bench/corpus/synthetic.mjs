#!/usr/bin/env node
/**
 * Deterministic synthetic corpus for erase and typesetting benchmarks: images with known text in
 * six scripts over flat balloons and labels, gradients, photo-like textures and periodic patterns
 * (screentone, line tones, a weave), each with its
 * clean plate (the same image without text), the text coverage mask and the region boxes.
 *
 *   import { corpus, makeSample } from "./bench/corpus/synthetic.mjs";
 *   for (const spec of corpus()) { const s = await makeSample(spec); ... }
 *
 * A sample is { name, kind, fit, script, tesseract, width, height,
 *   image, plate: { width, height, data: RGBA8 }, coverage: Uint8Array (0..255 text alpha per pixel),
 *   regions: [{ id, text, box, exactBox, vertical, color, bold }] }
 * where `box` is a reader-like approximate box (a few pixels off) and `exactBox` the true ink box;
 * `fit` is set on the samples whose balloons are fitted to the text (FITS), undefined elsewhere.
 *
 *   node bench/corpus/synthetic.mjs [outDir]   writes <name>.png, .plate.png, .mask.png, .json
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { drawBalloon, drawBoxBalloon, drawLabel, gradient, paper, periodic, random, texture } from "./backgrounds.mjs";
import { writePng } from "./png.mjs";
import { FAMILIES, renderCoverage } from "./text.mjs";

export const SCRIPTS = ["ja", "zh", "ko", "latin", "cyrillic", "arabic"];
/**
 * flat: balloons and labels on paper; manga: balloons on grey art; gradient; texture (photo-like);
 * periodic: lettering straight on screentone, line tone or a weave (narration and effects in manga).
 */
export const KINDS = ["flat", "manga", "gradient", "texture", "periodic"];
/** The kinds of the first samples, whose seeds the later ones must not shift. */
const FIRST_KINDS = ["flat", "manga", "gradient", "texture"];
/**
 * Balloons fitted to the text, on paper or art (kind flat or manga, the sample's `fit`): the outline
 * runs over one edge of the text (touching) or over all four (tight), so glyph strokes meet it.
 */
export const FITS = ["touching", "tight"];

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
	for (const kind of FIRST_KINDS)
		for (const script of SCRIPTS) specs.push({ name: `${kind}-${script}`, kind, script, seed: seed++, width, height });
	// Appended, so the samples above keep their seeds; each script gets each fit, once on paper, once on art.
	for (const [f, fit] of FITS.entries()) {
		for (const [s, script] of SCRIPTS.entries()) {
			const kind = (f + s) % 2 === 0 ? "flat" : "manga";
			specs.push({ name: `${kind}-${fit}-${script}`, kind, fit, script, seed: seed++, width, height });
		}
	}
	// Each script on another pattern (backgrounds.mjs, periodic: the variant is the script's index).
	for (const script of SCRIPTS)
		specs.push({ name: `periodic-${script}`, kind: "periodic", script, seed: seed++, width, height });
	return specs;
}

export async function makeSample({ name, kind, script, seed, width, height, fit, regionCount = 3 }) {
	const rnd = random(seed * 7919);
	const plate = background(kind, width, height, rnd, SCRIPTS.indexOf(script));
	const image = { width, height, data: new Uint8Array(plate.data.length) };
	const coverage = new Uint8Array(width * height);
	const regions = [];
	const band = Math.floor(height / regionCount);
	for (let id = 0; id < regionCount; id++) {
		const cjk = script === "ja" || script === "zh" || script === "ko";
		const balloons = kind === "flat" || kind === "manga";
		const vertical = balloons && (script === "ja" || script === "zh") && id % 2 === 0;
		const phrases = PHRASES[script];
		const text = phrases[(seed + id) % phrases.length];
		const lines = splitLines(text, vertical ? 2 : 1 + (id % 2), cjk);
		const size = vertical ? 24 + Math.floor(rnd() * 5) : 22 + Math.floor(rnd() * 12);
		const bold = rnd() < 0.3;
		const rtl = script === "arabic";
		const x = vertical
			? 120 + Math.floor(rnd() * (width - 420))
			: rtl
				? width - 60 - Math.floor(rnd() * 80)
				: 60 + Math.floor(rnd() * 80);
		// Each region owns a band of rows; text is rendered for that band only (fast at 25 MP).
		const top = id * band;
		const y = top + 30 + Math.floor(rnd() * 12);
		const family = FAMILIES[script];
		const glyph = { width, height: band, top, lines, x, y, size, family, bold, vertical, rtl };
		const ink = await renderCoverage(glyph);
		// On texture and patterns the last region is lettered with an outline, like captions and sound effects.
		const outlined = (kind === "texture" || kind === "periodic") && id === regionCount - 1;
		const rim = outlined ? await renderCoverage({ ...glyph, outline: Math.max(2, Math.round(size / 12)) }) : undefined;
		const inBand = inkBox(rim ?? ink, width, band);
		if (!inBand) continue;
		const exactBox = { ...inBand, y0: inBand.y0 + top, y1: inBand.y1 + top };

		const label = kind === "flat" && id % 2 === 1 && !vertical && !fit;
		if (fit) drawBoxBalloon(plate, exactBox, fittedMargins(fit, rnd), fittedShape(fit, rnd));
		else if (balloons && !label) drawBalloon(plate, exactBox, rnd);
		const labelColour = [Math.floor(rnd() * 120) + 100, Math.floor(rnd() * 80), Math.floor(rnd() * 120)];
		if (label) drawLabel(plate, exactBox, labelColour);
		const color = label ? [255, 255, 255] : balloons ? [15, 15, 15] : contrastingInk(plate, exactBox, rnd);
		const offset = top * width;
		const covered = rim ?? ink;
		for (let i = 0; i < covered.length; i++) if (covered[i] > coverage[offset + i]) coverage[offset + i] = covered[i];
		const box = readerBox(exactBox, width, height, rnd);
		const outline = rim && { colour: color[0] > 128 ? [20, 20, 20] : [250, 250, 250], coverage: rim };
		regions.push({ id, text, lines, box, exactBox, vertical, color, bold, outlined, ink, offset, outline });
	}
	// Text goes on after every balloon and label is drawn, each in its own colour.
	image.data.set(plate.data);
	for (const { ink, offset, color, outline } of regions) {
		if (outline) paint(image, outline.coverage, offset, outline.colour);
		paint(image, ink, offset, color);
	}
	return {
		name,
		kind,
		fit,
		script,
		tesseract: TESSERACT[script],
		width,
		height,
		image,
		plate,
		coverage,
		regions: regions.map(({ ink, offset, outline, ...region }) => region),
	};
}

/**
 * How far outside the text box a fitted balloon's outline starts on each side: 0 to 2 px inside
 * it where the outline meets the text (one side for touching, all four for tight), a margin elsewhere.
 */
function fittedMargins(fit, rnd) {
	const meets = () => -Math.floor(rnd() * 3);
	if (fit === "tight") return { left: meets(), top: meets(), right: meets(), bottom: meets() };
	const side = ["left", "top", "right", "bottom"][Math.floor(rnd() * 4)];
	const margins = { left: 0, top: 0, right: 0, bottom: 0 };
	for (const key of Object.keys(margins)) margins[key] = key === side ? meets() : 8 + Math.floor(rnd() * 10);
	return margins;
}

function fittedShape(fit, rnd) {
	return { outline: 2.5 + rnd(), radius: fit === "tight" ? 3 : 8 };
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

function paint(image, ink, offset, colour) {
	for (let k = 0; k < ink.length; k++) {
		const a = ink[k] / 255;
		if (a === 0) continue;
		const i = offset + k;
		for (let c = 0; c < 3; c++) image.data[i * 4 + c] = Math.round(image.data[i * 4 + c] * (1 - a) + colour[c] * a);
	}
}

function background(kind, width, height, rnd, variant) {
	if (kind === "periodic") return periodic(width, height, Math.max(0, variant));
	if (kind === "gradient") return gradient(width, height, rnd);
	if (kind === "texture") return texture(width, height, rnd);
	if (kind === "manga") return greyArt(texture(width, height, rnd));
	return paper(width, height, rnd);
}

/** Grey, contrasty art from a texture: stands in for a manga panel's drawing and screentone. */
function greyArt(img) {
	for (let i = 0; i < img.width * img.height; i++) {
		const luma = 0.3 * img.data[i * 4] + 0.59 * img.data[i * 4 + 1] + 0.11 * img.data[i * 4 + 2];
		const v = Math.max(0, Math.min(255, Math.round((luma - 128) * 1.6 + 128)));
		img.data[i * 4] = img.data[i * 4 + 1] = img.data[i * 4 + 2] = v;
	}
	return img;
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
