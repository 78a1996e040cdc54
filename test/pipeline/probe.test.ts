import { describe, expect, it } from "vitest";
import { probeImage } from "../../src/pipeline/probe";

/** SOI and one frame header (SOFn) with the given components' sampling factors; no scan behind it. */
function jpegFrame(marker: number, width: number, height: number, sampling: number[], precision = 8): Uint8Array {
	const components = sampling.flatMap((hv, i) => [i + 1, hv, 0]);
	const segment = [precision, height >> 8, height & 255, width >> 8, width & 255, sampling.length, ...components];
	const length = segment.length + 2;
	return new Uint8Array([0xff, 0xd8, 0xff, marker, length >> 8, length & 255, ...segment]);
}

describe("probeImage: what decoding a JPEG will cost", () => {
	it("reads size and format from the frame header", () => {
		expect(probeImage(jpegFrame(0xc0, 640, 480, [0x22, 0x11, 0x11]))).toEqual({
			format: "jpeg",
			width: 640,
			height: 480,
		});
	});

	it.each([
		["baseline 4:4:4", 0xc0, [0x11, 0x11, 0x11]],
		["progressive 4:2:0", 0xc2, [0x22, 0x11, 0x11]],
		["progressive 4:2:2", 0xc2, [0x21, 0x11, 0x11]],
		["progressive grey", 0xc2, [0x11]],
	])("%s decodes within the raster's own 4 bytes a pixel", (_, marker, sampling) => {
		expect(probeImage(jpegFrame(marker, 100, 100, sampling))?.costlyDecode).toBeUndefined();
	});

	it("progressive 4:4:4 needs 6 bytes a pixel: its coefficients outgrow the raster", () => {
		expect(probeImage(jpegFrame(0xc2, 100, 100, [0x11, 0x11, 0x11]))?.costlyDecode?.bytesPerPixel).toBe(6);
	});

	it.each([
		["arithmetic coding", jpegFrame(0xc9, 100, 100, [0x22, 0x11, 0x11])],
		["12-bit samples", jpegFrame(0xc1, 100, 100, [0x22, 0x11, 0x11], 12)],
		["CMYK", jpegFrame(0xc0, 100, 100, [0x11, 0x11, 0x11, 0x11])],
	])("%s goes to photon, at photon's cost", (_, bytes) => {
		expect(probeImage(bytes)?.costlyDecode?.bytesPerPixel).toBe(14);
	});
});
