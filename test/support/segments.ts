import { resumableRows } from "../../src/pipeline/decode";
import type { ProbedImage } from "../../src/pipeline/probe";
import { EnoughRows } from "../../src/pipeline/rows";

/**
 * The image's rows as the last pass gets them when it stops its decode for the response: decodes
 * from `decode` (`resumableRows` unless given), each stopped at the end of the call that brings its rows to the next of
 * `stops`, and taken up from the first row not written. Also where each later decode started.
 */
export function decodeInSegments(
	image: ProbedImage,
	stops: number[],
	decode = resumableRows(image),
): { data: Uint8Array; starts: number[] } {
	const { width, height } = image;
	const data = new Uint8Array(width * height * 4);
	const starts: number[] = [];
	let next = 0;
	for (const stop of [...stops, height]) {
		const from = next;
		let first = -1;
		try {
			decode(
				{
					rows(y, count, rgba) {
						if (first < 0) first = y;
						const skip = Math.max(0, next - y);
						if (skip < count) data.set(rgba.subarray(skip * width * 4, count * width * 4), (y + skip) * width * 4);
						if (y + count <= next) return; // rows written before: no new row, no reason to stop
						next = y + count;
						if (next >= stop && next < height) throw new EnoughRows();
					},
				},
				from,
			);
		} catch (error) {
			if (!(error instanceof EnoughRows)) throw error;
		}
		if (next === from && from < height) throw new Error(`a decode taken up at row ${from} gave no new row`);
		starts.push(first);
	}
	if (next !== height) throw new Error(`the decodes ended at row ${next} of ${height}`);
	return { data, starts: starts.slice(1) };
}
