/**
 * The model contract (DESIGN.md): the `regions` document a reader answers and the
 * `translations` document a translator answers, as JSON schemas we send and as
 * parsers for what models really send back.
 *
 * The schemas are written so that OpenAI's strict structured output accepts them
 * (every property required, optional ones nullable, no extra properties); the other
 * vendors accept the same schema as is.
 */
import { z } from "zod";
import { ContractError } from "./errors";

/** How a reader is asked to write boxes: the contract's [x0, y0, x1, y1], or Gemini's native `box_2d`. */
export type BoxField = "box" | "box_2d";

const corners = (description: string) => ({
	type: "array",
	items: { type: "integer" },
	minItems: 4,
	maxItems: 4,
	description,
});

const BOX_DESCRIPTION: Record<BoxField, string> = {
	box: "[x0, y0, x1, y1]: left, top, right, bottom, integers 0..1000 relative to the image width and height",
	box_2d: "[ymin, xmin, ymax, xmax], integers 0..1000 relative to the image height and width",
};

/**
 * The `regions` schema as asked: text, box and orientation always; lines and colour only with
 * `withDetail` (they cost output tokens, and output tokens are what the client waits for).
 */
export function regionsSchema(options: { boxField: BoxField; withTranslation: boolean; withDetail: boolean }): object {
	const box = corners(BOX_DESCRIPTION[options.boxField]);
	const properties: Record<string, object> = {
		text: { type: "string", description: "The whole block's text, lines joined with newlines" },
		[options.boxField]: box,
		vertical: { type: "boolean", description: "true when the text runs in vertical columns" },
	};
	if (options.withDetail) {
		const line = {
			type: "object",
			additionalProperties: false,
			required: ["text", options.boxField],
			properties: { text: { type: "string" }, [options.boxField]: box },
		};
		properties.lines = {
			type: ["array", "null"],
			items: line,
			description: "Each line (or column) of the block, when known",
		};
		properties.color = { type: ["string", "null"], description: "Lettering colour as #rrggbb, when clear" };
	}
	if (options.withTranslation) {
		properties.translation = { type: "string", description: "The block translated into the target language" };
	}
	return {
		type: "object",
		additionalProperties: false,
		required: ["regions"],
		properties: {
			regions: {
				type: "array",
				description: "Every block of text, in reading order",
				items: { type: "object", additionalProperties: false, required: Object.keys(properties), properties },
			},
		},
	};
}

export const TRANSLATIONS_SCHEMA: object = {
	type: "object",
	additionalProperties: false,
	required: ["translations"],
	properties: {
		translations: {
			type: "array",
			items: {
				type: "object",
				additionalProperties: false,
				required: ["id", "text"],
				properties: { id: { type: "integer" }, text: { type: "string" } },
			},
		},
	},
};

/** A region as read, its box as fractions (0..1) of the image the model was sent. */
export interface ReadRegion {
	text: string;
	box: UnitBox;
	vertical: boolean;
	lines?: { text: string; box: UnitBox }[];
	color?: RgbColor;
	translation?: string;
}

/** Red, green, blue, 0..255. */
export type RgbColor = readonly [number, number, number];

/** [x0, y0, x1, y1] as fractions of the sent image's width and height. */
export type UnitBox = readonly [number, number, number, number];

const numbers4 = z.array(z.number()).length(4);
const lineShape = z.object({ text: z.string(), box: numbers4.nullish(), box_2d: numbers4.nullish() });
const regionShape = z.object({
	text: z.string(),
	box: numbers4.nullish(),
	box_2d: numbers4.nullish(),
	vertical: z.boolean().nullish(),
	lines: z.array(lineShape).nullish(),
	color: z.string().nullish(),
	translation: z.string().nullish(),
});
const regionsShape = z.object({ regions: z.array(regionShape) });
const translationsShape = z.object({
	translations: z.array(z.object({ id: z.union([z.number(), z.string()]), text: z.string().nullish() })),
});

/**
 * Parses a reader's `regions` document. Boxes may come as asked (0..1000), as pixels of
 * the sent image, or as 0..1 fractions; Gemini's `box_2d` is [ymin, xmin, ymax, xmax].
 * Throws ContractError when the shape is wrong, so the call is retried.
 */
export function parseRegions(
	document: unknown,
	options: { withTranslation: boolean; sentWidth: number; sentHeight: number },
): ReadRegion[] {
	const parsed = regionsShape.safeParse(document);
	if (!parsed.success) throw new ContractError("the regions document does not have the contract's shape");
	const raw = parsed.data.regions;
	const corners = raw.flatMap((r) => [cornersOf(r), ...(r.lines ?? []).map(cornersOf)]).filter((c) => c !== null);
	const scale = boxScale(corners, options.sentWidth, options.sentHeight);
	const regions: ReadRegion[] = [];
	for (const r of raw) {
		const box = cornersOf(r);
		if (!box) throw new ContractError("a region has no box");
		if (options.withTranslation && typeof r.translation !== "string") {
			throw new ContractError("a region has no translation");
		}
		const lines = (r.lines ?? []).flatMap((line) => {
			const c = cornersOf(line);
			return c ? [{ text: line.text, box: scale(c) }] : [];
		});
		regions.push({
			text: r.text,
			box: scale(box),
			vertical: r.vertical === true,
			...(lines.length > 0 ? { lines } : {}),
			...(parseColor(r.color) ? { color: parseColor(r.color) } : {}),
			...(typeof r.translation === "string" ? { translation: r.translation } : {}),
		});
	}
	return regions;
}

/** Corners as [x0, y0, x1, y1] in whatever unit the model used, whichever field it filled. */
function cornersOf(item: { box?: number[] | null; box_2d?: number[] | null }): number[] | null {
	if (item.box) return item.box;
	if (item.box_2d) {
		const [ymin, xmin, ymax, xmax] = item.box_2d as [number, number, number, number];
		return [xmin, ymin, xmax, ymax];
	}
	return null;
}

/**
 * Decides, once per reply, the unit the model wrote its boxes in. A value beyond 1000
 * can only be pixels; all values within 0..1 with fractions can only be 0..1 fractions.
 */
function boxScale(all: number[][], sentWidth: number, sentHeight: number): (c: number[]) => UnitBox {
	const values = all.flat();
	const max = values.reduce((m, v) => Math.max(m, v), 0);
	let sx = 1000;
	let sy = 1000;
	if (max > 1000) {
		sx = sentWidth;
		sy = sentHeight;
	} else if (max <= 1 && values.some((v) => !Number.isInteger(v))) {
		sx = 1;
		sy = 1;
	}
	return (c) => {
		const [a, b, p, q] = c as [number, number, number, number];
		// Some models swap corners; a box is the same box either way round.
		return [Math.min(a, p) / sx, Math.min(b, q) / sy, Math.max(a, p) / sx, Math.max(b, q) / sy];
	};
}

function parseColor(color: string | null | undefined): RgbColor | undefined {
	const m = color ? /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color.trim()) : null;
	return m
		? [Number.parseInt(m[1] ?? "", 16), Number.parseInt(m[2] ?? "", 16), Number.parseInt(m[3] ?? "", 16)]
		: undefined;
}

/**
 * Parses a `translations` document. Every id asked for must come back (a missing id is
 * a broken contract: the call is retried); ids nobody asked for are ignored.
 */
export function parseTranslations(document: unknown, ids: readonly number[]): Map<number, string> {
	const parsed = translationsShape.safeParse(document);
	if (!parsed.success) throw new ContractError("the translations document does not have the contract's shape");
	const byId = new Map<number, string>();
	for (const t of parsed.data.translations) byId.set(Number(t.id), t.text ?? "");
	const missing = ids.filter((id) => !byId.has(id));
	if (missing.length > 0) throw new ContractError(`translations missing for ids ${missing.join(", ")}`);
	return byId;
}
