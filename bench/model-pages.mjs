/**
 * Comic pages for the models benchmark, with what a reader should find on them: `balloons`
 * speech balloons of vertical Japanese on a page with panel borders and hatched art, each with
 * its ink box and an English translation of realistic length (the output tokens a model writes
 * depend on both). Deterministic from the seed.
 *
 *   const page = await makeComicPage({ balloons: 60, width: 1400, height: 2000, seed: 3 });
 *   page.image   { width, height, data: RGBA8 }
 *   page.blocks  [{ text, translation, box: { x0, y0, x1, y1 }, vertical }]
 */
import { drawBalloon, paper, random } from "./corpus/backgrounds.mjs";
import { FAMILIES, renderCoverage } from "./corpus/text.mjs";

/** Dialogue as manga letter it (a balloon holds one or two short sentences), with an English translation. */
const LINES = [
	["ちょっと待って、まだ話は終わってない", "Wait, I'm not done talking yet."],
	["本当にありがとう。君のおかげだよ", "Thank you so much. It's all thanks to you."],
	["どこへ行くの？一人じゃ危ないよ", "Where are you going? It's dangerous alone."],
	["これは秘密だよ。誰にも言わないで", "This is a secret. Don't tell anyone."],
	["明日また会おう。約束だからね", "Let's meet again tomorrow. It's a promise."],
	["そんなこと、できるわけないだろ", "There's no way I could do something like that."],
	["お前、何をしているんだ？早く逃げろ！", "What are you doing? Run, now!"],
	["信じられない…本当に君なのか", "I can't believe it... is it really you?"],
	["もう時間がない。急いで！", "We're out of time. Hurry!"],
	["大丈夫、僕がついているから", "It's okay, I'm right here with you."],
];

export async function makeComicPage({ balloons, width, height, seed }) {
	const rnd = random(seed * 104729);
	const image = paper(width, height, rnd);
	hatching(image, rnd);
	const cols = Math.max(1, Math.round(Math.sqrt((balloons * width) / height)));
	const rows = Math.ceil(balloons / cols);
	const cellW = Math.floor(width / cols);
	const cellH = Math.floor(height / rows);
	panelBorders(image, cols, rows, cellW, cellH);
	// Glyphs as large as the cell allows, as a letterer would set them: 14 px on a dense page, 28 px on an ordinary one.
	const size = Math.max(14, Math.min(28, Math.floor(Math.min(cellW / 4.5, cellH / 13))));
	const blocks = [];
	for (let i = 0; i < balloons; i++) {
		const col = i % cols;
		const row = Math.floor(i / cols);
		const [text, translation] = LINES[(seed + i) % LINES.length];
		const columns = splitColumns(text, 3);
		const leading = Math.round(size * 1.3);
		const textW = leading * columns.length;
		const textH = Math.ceil(Math.max(...columns.map((c) => [...c].length)) * size * 1.05);
		const x = col * cellW + Math.floor((cellW - textW) / 2 + (rnd() - 0.5) * cellW * 0.1);
		const y = row * cellH + Math.floor((cellH - textH) / 2 + (rnd() - 0.5) * cellH * 0.1);
		const top = Math.max(0, y - 4);
		const band = Math.min(height - top, textH + 12);
		const ink = await renderCoverage({
			width,
			height: band,
			top,
			lines: columns,
			x,
			y,
			size,
			family: FAMILIES.ja,
			bold: false,
			vertical: true,
		});
		const box = inkBox(ink, width, band, top);
		if (!box) continue;
		drawBalloon(image, box, rnd);
		paint(image, ink, top * width);
		blocks.push({ text: columns.join("\n"), translation, box, vertical: true });
	}
	return { image, blocks };
}

/** Right-to-left columns of at most `count`, as even as the characters allow. */
function splitColumns(text, count) {
	const chars = [...text];
	const per = Math.ceil(chars.length / count);
	const columns = [];
	for (let i = 0; i < chars.length; i += per) columns.push(chars.slice(i, i + per).join(""));
	return columns;
}

/** Diagonal hatching over the page: art the density estimate must not take for lettering. */
function hatching(image, rnd) {
	const { width, height, data } = image;
	const spacing = 9 + Math.floor(rnd() * 4);
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			if ((x + y) % spacing !== 0 || (Math.floor(x / 97) + Math.floor(y / 131)) % 3 !== 0) continue;
			const i = (y * width + x) * 4;
			data[i] = data[i + 1] = data[i + 2] = 60;
		}
	}
}

function panelBorders(image, cols, rows, cellW, cellH) {
	const { width, height, data } = image;
	const dark = (x, y) => {
		const i = (y * width + x) * 4;
		data[i] = data[i + 1] = data[i + 2] = 15;
	};
	for (let c = 0; c <= cols; c++) {
		const x0 = Math.min(width - 3, c * cellW);
		for (let y = 0; y < height; y++) for (let t = 0; t < 3; t++) dark(x0 + t, y);
	}
	for (let r = 0; r <= rows; r++) {
		const y0 = Math.min(height - 3, r * cellH);
		for (let x = 0; x < width; x++) for (let t = 0; t < 3; t++) dark(x, y0 + t);
	}
}

function inkBox(ink, width, band, top) {
	let x0 = width;
	let y0 = band;
	let x1 = -1;
	let y1 = -1;
	for (let y = 0; y < band; y++) {
		for (let x = 0; x < width; x++) {
			if (ink[y * width + x] < 64) continue;
			if (x < x0) x0 = x;
			if (x > x1) x1 = x;
			if (y < y0) y0 = y;
			if (y > y1) y1 = y;
		}
	}
	return x1 < 0 ? null : { x0, y0: y0 + top, x1: x1 + 1, y1: y1 + top + 1 };
}

function paint(image, ink, offset) {
	for (let k = 0; k < ink.length; k++) {
		const a = ink[k] / 255;
		if (a === 0) continue;
		const i = (offset + k) * 4;
		for (let c = 0; c < 3; c++) image.data[i + c] = Math.round(image.data[i + c] * (1 - a) + 15 * a);
	}
}
