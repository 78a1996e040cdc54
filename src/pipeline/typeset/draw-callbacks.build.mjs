/**
 * Writes draw-callbacks.wasm: a module that only imports five JavaScript functions and exports them
 * again, typed as HarfBuzz's hb_draw_*_func_t callbacks. workerd forbids compiling WebAssembly at
 * run time, so the usual Emscripten trick (build this module on the fly to put a JS function in the
 * function table) cannot run there; a precompiled copy can. Run: node src/pipeline/typeset/draw-callbacks.build.mjs
 *
 * Equivalent text form:
 *   (module
 *     (import "js" "moveTo" (func (param i32 i32 i32 f32 f32 i32)))            ;; also lineTo
 *     (import "js" "quadraticTo" (func (param i32 i32 i32 f32 f32 f32 f32 i32)))
 *     (import "js" "cubicTo" (func (param i32 i32 i32 f32 f32 f32 f32 f32 f32 i32)))
 *     (import "js" "closePath" (func (param i32 i32 i32 i32)))
 *     (export ... each import under its own name))
 */
import { writeFileSync } from "node:fs";

const I32 = 0x7f;
const F32 = 0x7d;
const head = [I32, I32, I32]; // draw funcs, draw data, draw state
const types = [
	[...head, F32, F32, I32],
	[...head, F32, F32, F32, F32, I32],
	[...head, F32, F32, F32, F32, F32, F32, I32],
	[...head, I32],
];
const callbacks = [
	["moveTo", 0],
	["lineTo", 0],
	["quadraticTo", 1],
	["cubicTo", 2],
	["closePath", 3],
];

const name = (s) => [s.length, ...Buffer.from(s)];
const section = (id, body) => [id, body.length, ...body];
const typeSection = section(1, [types.length, ...types.flatMap((params) => [0x60, params.length, ...params, 0])]);
const importSection = section(2, [
	callbacks.length,
	...callbacks.flatMap(([n, t]) => [...name("js"), ...name(n), 0, t]),
]);
const exportSection = section(7, [callbacks.length, ...callbacks.flatMap(([n], i) => [...name(n), 0, i])]);
const bytes = Uint8Array.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, ...typeSection, ...importSection, ...exportSection]);
new WebAssembly.Module(bytes); // throws if malformed
writeFileSync(new URL("./draw-callbacks.wasm", import.meta.url), bytes);
