/**
 * The local reader: a stand-in for a vision model that really reads the image it is sent, for
 * `npm start` without vendor keys and the end-to-end tests. It plugs into the fake vendor as its
 * `reader` (test/fakes/vendor.mjs), so it answers through every vendor's wire protocol with regions
 * in the model contract: blocks (not words or lines), boxes 0..1000 of the image sent, per-line boxes,
 * and, when asked, the stand-in translation (stand-in.mjs: a phrasebook or a marked pseudo-translation).
 *
 *   createFakeVendor({ reader: localReader() })      node scripts/fake-vendor.mjs --reader ocr
 */
import { groupLines } from "./blocks.mjs";
import { readLines } from "./ocr.mjs";
import { standIn } from "./stand-in.mjs";

/** @returns {import("../../test/fakes/vendor.mjs").FakeReader} */
export function localReader() {
	return async (task, image) => {
		if (task.kind === "translate")
			return { translations: (task.items ?? []).map(({ id, text }) => ({ id, text: standIn(text, task.target) })) };
		const { width, height } = task.sent ?? { width: 1000, height: 1000 };
		// Without a stated source (a read for another translator, or "auto"), Japanese data also reads English.
		const source = task.source && task.source !== "auto" ? task.source : "ja";
		const blocks = groupLines(await readLines(Buffer.from(image.base64, "base64"), source));
		const toUnits = (box) => {
			const [x0, y0, x1, y1] = [box.x0 / width, box.y0 / height, box.x1 / width, box.y1 / height].map((v) =>
				Math.max(0, Math.min(1000, Math.round(v * 1000))),
			);
			return task.boxField === "box_2d" ? [y0, x0, y1, x1] : [x0, y0, x1, y1];
		};
		return {
			regions: blocks.map((block) => ({
				text: block.text,
				[task.boxField]: toUnits(block.box),
				vertical: block.vertical,
				lines: block.lines.map((line) => ({ text: line.text, [task.boxField]: toUnits(line.box) })),
				...(task.kind === "read-translate" ? { translation: standIn(block.text, task.target) } : {}),
			})),
		};
	};
}
