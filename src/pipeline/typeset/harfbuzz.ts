/**
 * A thin binding to HarfBuzz (the harfbuzzjs project's wasm build): load a face, shape a run of
 * text, draw a glyph's outline as SVG path data. We call the C API directly instead of the
 * harfbuzzjs wrapper because the wrapper instantiates its wasm at import time by URL and builds
 * callback trampolines with run-time wasm compilation, and workerd allows neither; the drawing
 * callbacks come from the precompiled draw-callbacks.wasm instead.
 *
 * All lengths are font units (the font's scale is its units per em), y pointing up.
 */
import hbModule from "harfbuzzjs/dist/harfbuzz.wasm";
import callbacksModule from "./draw-callbacks.wasm";

interface HbExports {
	memory: WebAssembly.Memory;
	__indirect_function_table: WebAssembly.Table;
	__wasm_call_ctors(): void;
	malloc(size: number): number;
	free(ptr: number): void;
	hb_blob_create(data: number, length: number, mode: number, userData: number, destroy: number): number;
	hb_blob_destroy(blob: number): void;
	hb_face_create(blob: number, index: number): number;
	hb_face_destroy(face: number): void;
	hb_face_get_upem(face: number): number;
	hb_font_create(face: number): number;
	hb_font_destroy(font: number): void;
	hb_font_get_nominal_glyph(font: number, unicode: number, glyphOut: number): number;
	hb_font_draw_glyph(font: number, glyph: number, drawFuncs: number, drawData: number): void;
	hb_font_get_glyph_extents(font: number, glyph: number, extentsOut: number): number;
	hb_draw_funcs_create(): number;
	hb_draw_funcs_set_move_to_func(funcs: number, fn: number, userData: number, destroy: number): void;
	hb_draw_funcs_set_line_to_func(funcs: number, fn: number, userData: number, destroy: number): void;
	hb_draw_funcs_set_quadratic_to_func(funcs: number, fn: number, userData: number, destroy: number): void;
	hb_draw_funcs_set_cubic_to_func(funcs: number, fn: number, userData: number, destroy: number): void;
	hb_draw_funcs_set_close_path_func(funcs: number, fn: number, userData: number, destroy: number): void;
	hb_buffer_create(): number;
	hb_buffer_clear_contents(buffer: number): void;
	hb_buffer_add_utf16(buffer: number, text: number, length: number, offset: number, itemLength: number): void;
	hb_buffer_set_direction(buffer: number, direction: number): void;
	hb_buffer_set_language(buffer: number, language: number): void;
	hb_buffer_guess_segment_properties(buffer: number): void;
	hb_buffer_get_glyph_infos(buffer: number, lengthOut: number): number;
	hb_buffer_get_glyph_positions(buffer: number, lengthOut: number): number;
	hb_language_from_string(text: number, length: number): number;
	hb_shape(font: number, buffer: number, features: number, featureCount: number): void;
}

export type Direction = "ltr" | "rtl" | "ttb";
const DIRECTION_CODE: Record<Direction, number> = { ltr: 4, rtl: 5, ttb: 6 };
const MEMORY_MODE_READONLY = 1;
const PATH_CACHE_LIMIT = 4000;

/** A glyph's ink box, font units, y up. */
export interface InkBox {
	xMin: number;
	yMin: number;
	xMax: number;
	yMax: number;
}

export interface ShapedGlyph {
	glyph: number;
	/** UTF-16 index of the first character this glyph belongs to, in the shaped string. */
	cluster: number;
	xAdvance: number;
	yAdvance: number;
	xOffset: number;
	yOffset: number;
}

interface Runtime {
	hb: HbExports;
	drawFuncs: number;
	buffer: number;
	/** Scratch word for out-parameters. */
	scratch: number;
}

let runtime: Runtime | undefined;
let pathOut: string[] = [];

const n = (v: number) => Math.round(v);
const drawCallbacks = {
	moveTo: (_f: number, _d: number, _s: number, x: number, y: number) => pathOut.push(`M${n(x)} ${n(y)}`),
	lineTo: (_f: number, _d: number, _s: number, x: number, y: number) => pathOut.push(`L${n(x)} ${n(y)}`),
	quadraticTo: (_f: number, _d: number, _s: number, cx: number, cy: number, x: number, y: number) =>
		pathOut.push(`Q${n(cx)} ${n(cy)} ${n(x)} ${n(y)}`),
	cubicTo: (
		_f: number,
		_d: number,
		_s: number,
		c1x: number,
		c1y: number,
		c2x: number,
		c2y: number,
		x: number,
		y: number,
	) => pathOut.push(`C${n(c1x)} ${n(c1y)} ${n(c2x)} ${n(c2y)} ${n(x)} ${n(y)}`),
	closePath: () => pathOut.push("Z"),
};

function start(): Runtime {
	if (runtime) return runtime;
	let hb: HbExports | undefined;
	const abort = () => {
		throw new Error("harfbuzz aborted");
	};
	const env = {
		_abort_js: abort,
		_emscripten_runtime_keepalive_clear: () => {},
		_setitimer_js: () => 0,
		emscripten_resize_heap: (requested: number) => {
			if (!hb) return 0;
			const memory = hb.memory;
			const pages = Math.ceil((requested - memory.buffer.byteLength) / 65536);
			try {
				memory.grow(Math.max(pages, 16));
				return 1;
			} catch {
				return 0;
			}
		},
		proc_exit: abort,
	};
	const instance = new WebAssembly.Instance(hbModule, { env, wasi_snapshot_preview1: env });
	hb = instance.exports as unknown as HbExports;
	hb.__wasm_call_ctors();

	const callbacks = new WebAssembly.Instance(callbacksModule, { js: drawCallbacks }).exports;
	const table = hb.__indirect_function_table;
	const first = table.grow(5);
	const names = ["moveTo", "lineTo", "quadraticTo", "cubicTo", "closePath"] as const;
	names.forEach((name, i) => {
		table.set(first + i, callbacks[name] as (...args: never[]) => unknown);
	});
	const drawFuncs = hb.hb_draw_funcs_create();
	hb.hb_draw_funcs_set_move_to_func(drawFuncs, first, 0, 0);
	hb.hb_draw_funcs_set_line_to_func(drawFuncs, first + 1, 0, 0);
	hb.hb_draw_funcs_set_quadratic_to_func(drawFuncs, first + 2, 0, 0);
	hb.hb_draw_funcs_set_cubic_to_func(drawFuncs, first + 3, 0, 0);
	hb.hb_draw_funcs_set_close_path_func(drawFuncs, first + 4, 0, 0);

	runtime = { hb, drawFuncs, buffer: hb.hb_buffer_create(), scratch: hb.malloc(16) };
	return runtime;
}

/** One face held in HarfBuzz's memory; the font file's bytes live there and nowhere else. */
export class HbFont {
	readonly upem: number;
	private readonly paths = new Map<number, string>();
	private readonly inks = new Map<number, InkBox>();
	private constructor(
		private readonly data: number,
		private readonly blob: number,
		private readonly face: number,
		private readonly font: number,
		readonly byteLength: number,
	) {
		this.upem = start().hb.hb_face_get_upem(face);
	}

	static load(bytes: Uint8Array): HbFont {
		const { hb } = start();
		const data = hb.malloc(bytes.byteLength);
		if (!data) throw new Error("out of memory loading a font");
		new Uint8Array(hb.memory.buffer, data, bytes.byteLength).set(bytes);
		const blob = hb.hb_blob_create(data, bytes.byteLength, MEMORY_MODE_READONLY, 0, 0);
		const face = hb.hb_face_create(blob, 0);
		return new HbFont(data, blob, face, hb.hb_font_create(face), bytes.byteLength);
	}

	/**
	 * Where HarfBuzz puts a glyph's origin below the pen in vertical text, font units. This build
	 * does not read VORG and falls back to the ascender; we correct to the ideographic em box top.
	 */
	get verticalOrigin(): number {
		this.vOrigin ??= -(this.shape("\u3000", "ttb", "und")[0]?.yOffset ?? -this.upem * 0.88);
		return this.vOrigin;
	}
	private vOrigin: number | undefined;

	/** Whether the face maps this code point to a glyph of its own. */
	has(codePoint: number): boolean {
		const { hb, scratch } = start();
		return hb.hb_font_get_nominal_glyph(this.font, codePoint, scratch) !== 0;
	}

	shape(text: string, direction: Direction, language: string): ShapedGlyph[] {
		const { hb, buffer, scratch } = start();
		hb.hb_buffer_clear_contents(buffer);
		const utf16 = hb.malloc(text.length * 2 + 2);
		const units = new Uint16Array(hb.memory.buffer, utf16, text.length);
		for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i);
		hb.hb_buffer_add_utf16(buffer, utf16, text.length, 0, text.length);
		hb.free(utf16);
		hb.hb_buffer_set_direction(buffer, DIRECTION_CODE[direction]);
		const tag = hb.malloc(language.length + 1);
		new Uint8Array(hb.memory.buffer, tag, language.length).set(new TextEncoder().encode(language));
		hb.hb_buffer_set_language(buffer, hb.hb_language_from_string(tag, language.length));
		hb.free(tag);
		hb.hb_buffer_guess_segment_properties(buffer);
		hb.hb_shape(this.font, buffer, 0, 0);

		const infos = hb.hb_buffer_get_glyph_infos(buffer, scratch);
		const count = new Uint32Array(hb.memory.buffer, scratch, 1)[0] ?? 0;
		const positions = hb.hb_buffer_get_glyph_positions(buffer, scratch);
		const info = new Uint32Array(hb.memory.buffer, infos, count * 5);
		const pos = new Int32Array(hb.memory.buffer, positions, count * 5);
		const glyphs: ShapedGlyph[] = [];
		for (let i = 0; i < count; i++) {
			glyphs.push({
				glyph: info[i * 5] ?? 0,
				cluster: info[i * 5 + 2] ?? 0,
				xAdvance: pos[i * 5] ?? 0,
				yAdvance: pos[i * 5 + 1] ?? 0,
				xOffset: pos[i * 5 + 2] ?? 0,
				yOffset: pos[i * 5 + 3] ?? 0,
			});
		}
		return glyphs;
	}

	/** The glyph's outline as SVG path data, font units, y up. Cached: a page repeats its glyphs. */
	path(glyph: number): string {
		const cached = this.paths.get(glyph);
		if (cached !== undefined) return cached;
		const { hb, drawFuncs } = start();
		pathOut = [];
		hb.hb_font_draw_glyph(this.font, glyph, drawFuncs, 0);
		const d = pathOut.join("");
		pathOut = [];
		// Outlines of a few thousand glyphs at most stay cached; past that, start over.
		if (this.paths.size >= PATH_CACHE_LIMIT) this.paths.clear();
		this.paths.set(glyph, d);
		return d;
	}

	ink(glyph: number): InkBox {
		const cached = this.inks.get(glyph);
		if (cached) return cached;
		const { hb, scratch } = start();
		let box: InkBox = { xMin: 0, yMin: 0, xMax: 0, yMax: 0 };
		if (hb.hb_font_get_glyph_extents(this.font, glyph, scratch)) {
			const [xBearing = 0, yBearing = 0, width = 0, height = 0] = new Int32Array(hb.memory.buffer, scratch, 4);
			box = { xMin: xBearing, yMin: yBearing + height, xMax: xBearing + width, yMax: yBearing };
		}
		this.inks.set(glyph, box);
		return box;
	}

	destroy(): void {
		const { hb } = start();
		hb.hb_font_destroy(this.font);
		hb.hb_face_destroy(this.face);
		hb.hb_blob_destroy(this.blob);
		hb.free(this.data);
		this.paths.clear();
		this.inks.clear();
	}
}

/** Size of HarfBuzz's wasm memory (it holds the loaded fonts; wasm memory never shrinks). */
export function harfbuzzMemoryBytes(): number {
	return runtime ? runtime.hb.memory.buffer.byteLength : 0;
}
