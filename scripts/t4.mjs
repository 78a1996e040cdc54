import { readFileSync } from "node:fs";
import { createWorker, OEM } from "tesseract.js";

const img = readFileSync("docs/sample-manga.png");
for (const langs of [
	["jpn", "eng"],
	["jpn", "jpn_vert"],
]) {
	console.error("create", langs);
	const w = await createWorker(langs, OEM.LSTM_ONLY, {
		langPath: "/work/wt-readers/node_modules/.cache/yakusu-tessdata",
		cacheMethod: "none",
	});
	console.error("set");
	await w.setParameters({ tessedit_pageseg_mode: "3", debug_file: "/dev/null" });
	console.error("rec");
	await w.recognize(img, {}, { blocks: true, text: false });
	console.error("done");
}
