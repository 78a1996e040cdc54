import type { Box, ErasedRegion } from "../../src/pipeline/types";
import { drawRegion, FontSession, type RegionDrawing } from "../../src/pipeline/typeset";
import type { Mode } from "../../src/request/options";
import { loadFont } from "./fonts";

export function region(translation: string, box: Box, extra: Partial<ErasedRegion> = {}): ErasedRegion {
	return {
		id: 1,
		text: "source text here",
		box,
		vertical: false,
		translation,
		textBox: box,
		erasedBox: box,
		textColor: [20, 20, 20],
		backgroundColor: [255, 255, 255],
		bold: false,
		align: "center",
		...extra,
	};
}

export async function draw(
	r: ErasedRegion,
	targetLanguage: string,
	mode: Mode = "general",
	image = { width: 1000, height: 1000 },
): Promise<RegionDrawing> {
	const session = new FontSession(loadFont);
	try {
		return await drawRegion(
			r,
			{ mode, targetLanguage, sourceLanguage: "ja", imageWidth: image.width, imageHeight: image.height, loadFont },
			session,
		);
	} finally {
		session.release();
	}
}
