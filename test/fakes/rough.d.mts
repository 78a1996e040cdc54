/** Types for rough.mjs, so TypeScript tests can make boxes rough. */
import type { RoughOptions } from "./vendor.mjs";

export interface RoughBox {
	x0: number;
	y0: number;
	x1: number;
	y1: number;
}

export const ROUGH_DEFAULTS: Required<Omit<RoughOptions, "seed">>;

export function roughen<
	R extends {
		text: string;
		box: RoughBox;
		vertical?: boolean;
		lines?: { text: string; box: RoughBox }[];
		translation?: string;
	},
>(regions: R[], options?: RoughOptions & { width?: number; height?: number }): R[];

export function roughDocument(
	document: { regions: object[] },
	setting: { field: "box" | "box_2d"; bound: { width: number; height: number }; options: RoughOptions },
): { regions: object[] };
