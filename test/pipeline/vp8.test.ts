import { describe, expect, it } from "vitest";
import { decodeVp8Rows } from "../../src/pipeline/pixels/webp/vp8/decode";
import { Vp8FormatError } from "../../src/pipeline/pixels/webp/vp8/errors";
import { fixtures, type Vp8Fixture } from "./fixtures/vp8";
import { decodeVp8Yuv } from "./vp8-yuv";

function bytes(base64: string): Uint8Array {
	return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

/** "same" or where the first difference is, so a failure says which plane and pixel went wrong. */
function firstDifference(actual: Uint8Array, expected: Uint8Array, width: number): string {
	if (actual.length !== expected.length) return `length ${actual.length} != ${expected.length}`;
	for (let i = 0; i < actual.length; i++) {
		if (actual[i] !== expected[i]) {
			return `at x=${i % width} y=${Math.floor(i / width)}: ${actual[i]} != ${expected[i]}`;
		}
	}
	return "same";
}

/** The frame's rows gathered into one RGBA buffer; they must come in order, each once. */
function decodeRgba(f: Vp8Fixture, vp8 = bytes(f.vp8), width = f.width, height = f.height): Uint8Array {
	const out = new Uint8Array(width * height * 4);
	let next = 0;
	decodeVp8Rows(vp8, width, height, (from, to, rgba) => {
		if (from !== next || to <= from || rgba.length !== (to - from) * width * 4) throw new Error(`rows ${from}..${to}`);
		out.set(rgba, from * width * 4);
		next = to;
	});
	if (next !== height) throw new Error(`stopped at row ${next}`);
	return out;
}

const byName = (name: string): Vp8Fixture => {
	const f = fixtures.find((x) => x.name === name);
	if (!f) throw new Error(`no fixture ${name}`);
	return f;
};

describe("VP8 decoding is bit-exact with libwebp / libvpx", () => {
	it.each(fixtures.map((f) => [f.name, f.made, f] as const))("%s (%s): Y, U and V planes", (_name, _made, f) => {
		const planes = decodeVp8Yuv(bytes(f.vp8), f.width, f.height);
		const ref = bytes(f.yuv);
		const cw = (f.width + 1) >> 1;
		const ySize = f.width * f.height;
		const cSize = cw * ((f.height + 1) >> 1);
		expect(firstDifference(planes.y, ref.subarray(0, ySize), f.width)).toBe("same");
		expect(firstDifference(planes.u, ref.subarray(ySize, ySize + cSize), cw)).toBe("same");
		expect(firstDifference(planes.v, ref.subarray(ySize + cSize), cw)).toBe("same");
	});
});

describe("VP8 to RGBA", () => {
	// Fancy upsampling and BT.601 as libwebp's default output; our fixed-point rounding differs by at most 1.
	it.each(fixtures.filter((f) => f.rgba).map((f) => [f.name, f] as const))("%s: within 1 of dwebp", (_name, f) => {
		const rgba = decodeRgba(f);
		const ref = bytes(f.rgba!);
		let worst = 0;
		for (let i = 0; i < ref.length; i++) worst = Math.max(worst, Math.abs(rgba[i]! - ref[i]!));
		expect(worst).toBeLessThanOrEqual(1);
		for (let i = 3; i < rgba.length; i += 4) expect(rgba[i]).toBe(255);
	});

	it("hands out a macroblock row's finished rows at a time, never the whole frame", () => {
		const f = byName("odd");
		const bands: number[] = [];
		decodeVp8Rows(bytes(f.vp8), f.width, f.height, (from, to) => bands.push(to - from));
		expect(bands.reduce((a, b) => a + b, 0)).toBe(f.height);
		expect(Math.max(...bands)).toBeLessThanOrEqual(24);
		expect(bands.length).toBe(Math.ceil(f.height / 16));
	});

	it("looks like the picture: a grey source decodes to grey pixels", () => {
		const f = byName("grey");
		const rgba = decodeRgba(f);
		for (let i = 0; i < rgba.length; i += 4) {
			expect(Math.abs(rgba[i]! - rgba[i + 1]!)).toBeLessThanOrEqual(3);
			expect(Math.abs(rgba[i + 2]! - rgba[i + 1]!)).toBeLessThanOrEqual(3);
		}
	});
});

describe("VP8 errors", () => {
	const f = byName("default");
	const good = bytes(f.vp8);
	const decode =
		(vp8: Uint8Array, width = f.width, height = f.height) =>
		() =>
			decodeRgba(f, vp8, width, height);
	const patched = (at: number, value: number) => {
		const copy = good.slice();
		copy[at] = value;
		return copy;
	};

	it("refuses a size other than the container's", () => {
		expect(decode(good, f.width + 1, f.height)).toThrow(Vp8FormatError);
		expect(decode(good, f.width, f.height - 1)).toThrow(/44x36/);
	});

	it("refuses frames that are not displayable key frames", () => {
		expect(decode(patched(0, good[0]! | 1))).toThrow(/key frame/); // interframe
		expect(decode(patched(0, good[0]! & ~0x10))).toThrow(/shown/); // show_frame off
		expect(decode(patched(0, good[0]! | 0x0e))).toThrow(/version/); // version 7
		expect(decode(patched(3, 0x9c))).toThrow(/start code/);
	});

	it("refuses truncated data wherever it is cut", () => {
		const firstPartitionEnd = 10 + ((good[0]! | (good[1]! << 8) | (good[2]! << 16)) >>> 5);
		const cuts = [0, 5, 9, 12, firstPartitionEnd - 1, firstPartitionEnd + 4, good.length >> 1, (good.length * 3) >> 2];
		for (const cut of cuts) expect(decode(good.subarray(0, cut)), `cut at ${cut}`).toThrow(Vp8FormatError);
	});

	it("a partition size pointing past the data is refused", () => {
		const f4 = byName("partitions4");
		const vp8 = bytes(f4.vp8);
		const sizesAt = 10 + ((vp8[0]! | (vp8[1]! << 8) | (vp8[2]! << 16)) >>> 5);
		vp8[sizesAt + 2] = 0xff; // first token partition: 16 MB
		expect(decode(vp8, f4.width, f4.height)).toThrow(/partition is truncated/);
	});

	it("corrupted bytes either decode to something or throw Vp8FormatError, never anything else", () => {
		let seed = 12345;
		const random = () => {
			seed = (seed * 1103515245 + 12345) >>> 0;
			return seed / 2 ** 32;
		};
		let refused = 0;
		for (let trial = 0; trial < 200; trial++) {
			const vp8 = good.slice();
			for (let k = 0; k < 3; k++) vp8[10 + Math.floor(random() * (vp8.length - 10))] = Math.floor(random() * 256);
			try {
				decode(vp8)();
			} catch (e) {
				expect(e).toBeInstanceOf(Vp8FormatError);
				refused++;
			}
		}
		// Most corruptions go unnoticed (VP8 has no checksum); a few truncate or unbalance partitions.
		expect(refused).toBeLessThan(200);
	});
});
