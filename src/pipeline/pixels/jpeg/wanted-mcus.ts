import type { Box } from "../../types";
import type { McuGrid } from "./container";

/**
 * The MCUs a decode turns into pixels when only some areas of the image are wanted (the crops of
 * pass 2): those holding an area's pixels, one more column either side and the MCU row above (the
 * chroma upsampling reads them). The others are entropy-decoded only, since the data must be read
 * through, and skip the IDCT, upsampling and colour conversion: most of a decode's time.
 */
export class WantedMcus {
	/** Per MCU row, the runs of MCU columns to turn into pixels: [start, end) pairs, sorted, apart. */
	private readonly runsByRow: number[][];
	/** The first MCU row with a run, and one past the last. */
	readonly firstRow: number;
	readonly endRow: number;
	private readonly mask: Uint8Array;

	constructor(grid: McuGrid, areas: readonly Box[]) {
		const w = 8 * grid.hmax;
		const h = 8 * grid.vmax;
		const spans: [number, number][][] = Array.from({ length: grid.mcusY }, () => []);
		let firstRow = grid.mcusY;
		let endRow = 0;
		for (const area of areas) {
			if (area.x1 <= area.x0 || area.y1 <= area.y0) continue;
			const x0 = Math.max(0, Math.floor(area.x0 / w) - 1);
			const x1 = Math.min(grid.mcusX, Math.ceil(area.x1 / w) + 1);
			const y0 = Math.max(0, Math.floor(area.y0 / h) - 1);
			const y1 = Math.min(grid.mcusY, Math.ceil(area.y1 / h));
			for (let my = y0; my < y1; my++) spans[my]!.push([x0, x1]);
			firstRow = Math.min(firstRow, y0);
			endRow = Math.max(endRow, y1);
		}
		this.runsByRow = spans.map(merged);
		this.firstRow = Math.min(firstRow, endRow);
		this.endRow = endRow;
		this.mask = new Uint8Array(grid.mcusX);
	}

	/** MCU row `my`'s runs of columns, as [start, end) pairs. */
	runs(my: number): readonly number[] {
		return this.runsByRow[my] ?? [];
	}

	/** MCU row `my` as one byte per MCU column, 1 where it is wanted (the array is reused). */
	row(my: number): Uint8Array {
		const { mask } = this;
		mask.fill(0);
		const runs = this.runs(my);
		for (let i = 0; i < runs.length; i += 2) mask.fill(1, runs[i], runs[i + 1]);
		return mask;
	}
}

/** Overlapping or touching spans joined, as a flat list of [start, end) pairs. */
function merged(spans: [number, number][]): number[] {
	spans.sort((a, b) => a[0] - b[0]);
	const runs: number[] = [];
	for (const [start, end] of spans) {
		const last = runs.length - 1;
		if (last > 0 && start <= runs[last]!) runs[last] = Math.max(runs[last]!, end);
		else runs.push(start, end);
	}
	return runs;
}
