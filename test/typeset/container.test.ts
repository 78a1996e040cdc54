import { describe, expect, it } from "vitest";
import type { Box, Container, Overlay } from "../../src/pipeline/types";
import { typesetPage } from "../../src/pipeline/typeset";
import { block, box, lines, options, planOne } from "./block";

/** A balloon's inside as layout hands it over: an ellipse with a tail below it, or a cloud of circles. */
function shapedBalloon(shape: "tail" | "cloud", at: Box): Container {
	const w = at.x1 - at.x0;
	const h = at.y1 - at.y0;
	const inside = new Uint8Array(w * h);
	const circles =
		shape === "cloud"
			? [
					[0.5, 0.5, 0.3],
					[0.3, 0.35, 0.22],
					[0.7, 0.35, 0.22],
					[0.3, 0.65, 0.22],
					[0.7, 0.65, 0.22],
				]
			: [];
	for (let y = 0; y < h; y++) {
		for (let x = 0; x < w; x++) {
			const u = (x + 0.5) / w;
			const v = (y + 0.5) / h;
			let inBalloon: boolean;
			if (shape === "tail") {
				const body = ((u - 0.5) / 0.5) ** 2 + ((v - 0.42) / 0.42) ** 2 <= 1;
				const tail = v > 0.8 && Math.abs(u - 0.3 - (v - 0.8) * 0.5) < (1 - v) * 0.4;
				inBalloon = body || tail;
			} else
				inBalloon = circles.some(
					([cx, cy, r]) =>
						((u - (cx ?? 0)) * w) ** 2 + ((v - (cy ?? 0)) * h) ** 2 <= ((r ?? 0) * Math.min(w, h)) ** 2 * 1.6,
				);
			inside[y * w + x] = inBalloon ? 1 : 0;
		}
	}
	return { kind: "balloon", box: at, inside };
}

/** Overlay pixels with visible ink (alpha over 16) that fall outside `inside(x, y)`. */
function inkOutside(overlays: Overlay[], inside: (x: number, y: number) => boolean): number {
	let outside = 0;
	for (const { x, y, raster } of overlays) {
		for (let j = 0; j < raster.height; j++) {
			for (let i = 0; i < raster.width; i++) {
				if ((raster.data[(j * raster.width + i) * 4 + 3] ?? 0) > 16 && !inside(x + i, y + j)) outside++;
			}
		}
	}
	return outside;
}

function insideOf(container: Container): (x: number, y: number) => boolean {
	const { box: b, inside } = container;
	const w = b.x1 - b.x0;
	if (inside)
		return (x, y) => x >= b.x0 && x < b.x1 && y >= b.y0 && y < b.y1 && inside[(y - b.y0) * w + (x - b.x0)] === 1;
	if (container.kind !== "balloon") return (x, y) => x >= b.x0 && x < b.x1 && y >= b.y0 && y < b.y1;
	const cx = (b.x0 + b.x1) / 2;
	const cy = (b.y0 + b.y1) / 2;
	return (x, y) => ((x + 0.5 - cx) / (w / 2)) ** 2 + ((y + 0.5 - cy) / ((b.y1 - b.y0) / 2)) ** 2 <= 1;
}

const SENTENCES: [string, string][] = [
	["en", "Where do you think you are going with my lunch, you thief?"],
	["ja", "ちょっと待って、私のお弁当をどこへ持っていくの？"],
	["ko", "잠깐만, 내 도시락 들고 어디 가는 거야?"],
	["th", "เดี๋ยวก่อน จะเอาข้าวกลางวันของฉันไปไหน"],
	["ar", "انتظر، إلى أين تذهب بغدائي أيها اللص؟"],
	["hi", "रुको, तुम मेरा खाना लेकर कहाँ जा रहे हो?"],
];

describe("text is set in its container", () => {
	it("fills the container, not the reader's box", async () => {
		const balloon = { kind: "balloon", box: box(100, 100, 360, 260) } as const;
		// The reader saw only a thin strip of the lettering.
		const textBox = box(250, 200, 60, 40);
		const drawn = await planOne(
			block("Where do you think you are going?", balloon, { textBox, role: "dialogue" }),
			"en",
			"manga",
		);
		const ink = drawn?.ink;
		if (!ink) throw new Error("nothing drawn");
		expect(ink.x1 - ink.x0).toBeGreaterThan(3 * (textBox.x1 - textBox.x0));
		expect(drawn?.size).toBeGreaterThan(20);
	});

	it("gives an English translation of a one-column box in a wide balloon its normal size, words whole", async () => {
		const balloon = { kind: "balloon", box: box(100, 100, 340, 300) } as const;
		const column = box(255, 140, 30, 220);
		const drawn = await planOne(
			block("See you tomorrow at the station, okay?", balloon, {
				textBox: column,
				vertical: true,
				sourceSize: 26,
				role: "dialogue",
			}),
			"en",
			"manga",
		);
		expect(drawn?.size).toBeGreaterThan(24);
		expect(drawn?.vertical).toBe(false);
		expect(drawn?.glyphs.length).toBe("Seeyoutomorrowatthestation,okay?".length);
	});

	it("follows a balloon's curve: lines are longer across its middle than at its top and bottom", async () => {
		const balloon = { kind: "balloon", box: box(0, 0, 300, 300) } as const;
		const text =
			"I never thought I would see this town again, after all these years away from home and everyone I knew";
		const drawn = await planOne(block(text, balloon, { role: "dialogue", sourceSize: 40 }), "en", "manga");
		const rows = lines(drawn?.glyphs ?? []);
		expect(rows.length).toBeGreaterThanOrEqual(4);
		const width = (row: (typeof rows)[number]) =>
			Math.max(...row.map((g) => g.matrix[4])) - Math.min(...row.map((g) => g.matrix[4]));
		const middle = Math.max(...rows.slice(1, -1).map(width));
		expect(width(rows[0] ?? [])).toBeLessThan(middle * 0.8);
		expect(width(rows[rows.length - 1] ?? [])).toBeLessThan(middle * 0.8);
	});

	it("never hyphenates inside a word shorter than eight letters, however narrow the balloon", async () => {
		for (const width of [70, 90, 110, 140, 180]) {
			const balloon = { kind: "balloon", box: box(0, 0, width, 260) } as const;
			const drawn = await planOne(
				block("See you tomorrow, okay? Thanks again!", balloon, { role: "dialogue" }),
				"en",
				"manga",
			);
			// Every glyph is a letter or punctuation of the text: no hyphen was added.
			expect(drawn?.glyphs.length, `${width} px`).toBe("Seeyoutomorrow,okay?Thanksagain!".length);
		}
	});

	it("keeps a short translation in a large balloon at the dialogue's size, not one giant word", async () => {
		const drawn = await planOne(
			block("OK.", { kind: "balloon", box: box(0, 0, 500, 400) }, { role: "dialogue", sourceSize: 28 }),
			"en",
			"manga",
		);
		expect(drawn?.size).toBeLessThanOrEqual(28 * 1.1 + 1e-9);
	});

	it("keeps every ink pixel inside its container, for every shape and script", async () => {
		const containers: Container[] = [
			{ kind: "balloon", box: box(40, 40, 260, 200) },
			shapedBalloon("tail", box(360, 40, 280, 260)),
			shapedBalloon("cloud", box(40, 320, 300, 260)),
			{ kind: "panel", box: box(380, 360, 260, 120) },
		];
		for (const [language, text] of SENTENCES) {
			for (const mode of ["manga", "general"] as const) {
				const blocks = containers.map((container, id) =>
					block(text, container, {
						id,
						regionIds: [id],
						role: "dialogue",
						sourceSize: 30,
						vertical: language === "ja",
					}),
				);
				const { overlays, overflow } = await typesetPage(blocks, options(language, mode, { width: 700, height: 620 }));
				expect(overflow, `${language} ${mode}`).toEqual([]);
				expect(overlays.length).toBe(4);
				for (const [k, container] of containers.entries()) {
					expect(
						inkOutside([overlays[k] as Overlay], insideOf(container)),
						`${language} ${mode} ${container.kind} ${k}`,
					).toBe(0);
				}
			}
		}
	});
});

describe("direction by convention", () => {
	const column = { kind: "balloon", box: box(0, 0, 200, 320) } as const;
	const isVertical = (glyphs: { matrix: number[] }[]) =>
		new Set(glyphs.map((g) => Math.round((g.matrix[4] ?? 0) / 8))).size < glyphs.length / 2;

	it("sets Japanese and Chinese from a vertical source in columns, in every mode", async () => {
		for (const [language, text] of [
			["ja", "本当にありがとう、また明日ね。"],
			["zh", "谢谢你，我们明天见吧。"],
		] as const) {
			for (const mode of ["manga", "general", "light-novel"] as const) {
				const drawn = await planOne(block(text, column, { vertical: true }), language, mode);
				expect(drawn?.vertical, `${language} ${mode}`).toBe(true);
				expect(isVertical(drawn?.glyphs ?? [])).toBe(true);
			}
		}
	});

	it("sets Korean horizontally, as Korean editions letter manga", async () => {
		const drawn = await planOne(block("정말 고마워요, 내일 또 만나요.", column, { vertical: true }), "ko", "manga");
		expect(drawn?.vertical).toBe(false);
		for (const g of drawn?.glyphs ?? []) expect(g.matrix[1]).toBe(0);
		expect(lines(drawn?.glyphs ?? []).length).toBeGreaterThan(1);
	});

	it("sets Japanese from a horizontal source horizontally", async () => {
		const drawn = await planOne(block("本当にありがとう", box(0, 0, 300, 80)), "ja", "manga");
		expect(drawn?.vertical).toBe(false);
	});
});
