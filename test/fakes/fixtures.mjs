/**
 * What the fake vendor answers, whatever the protocol: a `regions` document for a read,
 * a `translations` document for a translation. Shared by the workerd tests
 * (test/fakes/vendor.mjs) and the loopback server (scripts/fake-vendor.mjs).
 *
 * Fixtures (select with `fixture`):
 *   default          three blocks (horizontal with lines and colour, vertical, a price label)
 *   empty            no text in the image
 *   pixels           boxes in pixels of the image sent, not 0..1000
 *   fractions        boxes as 0..1 fractions
 *   swapped          corners given bottom-right first
 *   duplicates       the first block twice, boxes a little apart
 *   minimal          only text and box per block (optional fields left out)
 *   missing-ids      the translation of the last id left out
 * Every translation is "[<target>] <gloss>": an English gloss of a fixture block (so the
 * playground typesets something readable in any font), or the source text for anything
 * else; either way a test can see the target language reached the model.
 */

/** The default page, in the contract's 0..1000 units: [x0, y0, x1, y1]. */
const BLOCKS = [
	{
		text: "こんにちは、\n世界",
		box: [80, 60, 420, 200],
		vertical: false,
		lines: [
			{ text: "こんにちは、", box: [80, 60, 420, 125] },
			{ text: "世界", box: [80, 135, 250, 200] },
		],
		color: "#111111",
	},
	{ text: "縦書きの台詞", box: [600, 250, 700, 700], vertical: true, lines: null, color: null },
	{ text: "SALE 50% OFF ¥1,980", box: [150, 780, 850, 900], vertical: false, lines: null, color: "#cc0000" },
];

/** English glosses of the fixture blocks, keyed by their text with whitespace removed. */
const GLOSSES = {
	"こんにちは、世界": "Hello, world",
	縦書きの台詞: "Lines set vertically",
	"SALE50%OFF¥1,980": "SALE 50% OFF ¥1,980",
};

function translated(text, target) {
	return `[${target}] ${GLOSSES[text.replace(/\s+/g, "")] ?? text}`;
}

export const FIXTURES = ["default", "empty", "pixels", "fractions", "swapped", "duplicates", "minimal", "missing-ids"];

/**
 * @param {{ kind: "read" | "read-translate" | "translate", target?: string, items?: {id: number, text: string}[],
 *   boxField: "box" | "box_2d", sent?: { width: number, height: number } }} task
 * @param {string} fixture
 */
export function answerFor(task, fixture = "default") {
	if (!FIXTURES.includes(fixture)) throw new Error(`unknown fixture "${fixture}"`);
	const target = task.target ?? "xx";
	if (task.kind === "translate") {
		const items = task.items ?? [];
		const kept = fixture === "missing-ids" ? items.slice(0, -1) : items;
		return { translations: kept.map((item) => ({ id: item.id, text: translated(item.text, target) })) };
	}
	if (fixture === "empty") return { regions: [] };
	let blocks = BLOCKS;
	if (fixture === "duplicates") {
		const first = /** @type {typeof BLOCKS[number]} */ (BLOCKS[0]);
		blocks = [...BLOCKS, { ...first, box: [85, 62, 418, 203] }];
	}
	const unit = unitFor(fixture, task.sent);
	return {
		regions: blocks.map((block) => {
			const region = {
				text: block.text,
				[task.boxField]: boxIn(block.box, task.boxField, unit, fixture === "swapped"),
				...(fixture === "minimal"
					? {}
					: {
							vertical: block.vertical,
							lines:
								block.lines?.map((l) => ({ text: l.text, [task.boxField]: boxIn(l.box, task.boxField, unit) })) ?? null,
							color: block.color,
						}),
			};
			if (task.kind === "read-translate") region.translation = translated(block.text, target);
			return region;
		}),
	};
}

/** Multipliers from 0..1000 to the unit the fixture answers in. */
function unitFor(fixture, sent) {
	if (fixture === "pixels") return { x: (sent?.width ?? 1000) / 1000, y: (sent?.height ?? 1000) / 1000 };
	if (fixture === "fractions") return { x: 0.001, y: 0.001 };
	return { x: 1, y: 1 };
}

function boxIn([x0, y0, x1, y1], boxField, unit, swapped = false) {
	const round = (v) => (unit.x < 0.01 ? Math.round(v * 1000) / 1000 : Math.round(v));
	const [a, b, c, d] = [round(x0 * unit.x), round(y0 * unit.y), round(x1 * unit.x), round(y1 * unit.y)];
	const corners = swapped ? [c, d, a, b] : [a, b, c, d];
	// Gemini's native order: [ymin, xmin, ymax, xmax].
	return boxField === "box_2d" ? [corners[1], corners[0], corners[3], corners[2]] : corners;
}
