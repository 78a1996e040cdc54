/** The Orientation tag (0x0112) of IFD0 of an EXIF TIFF block, if present and 1 to 8. */
export function exifOrientation(tiff: Uint8Array): number | undefined {
	if (tiff.length < 8) return undefined;
	const little = tiff[0] === 0x49 && tiff[1] === 0x49;
	if (!little && !(tiff[0] === 0x4d && tiff[1] === 0x4d)) return undefined;
	const v = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength);
	const ifd = v.getUint32(4, little);
	if (ifd + 2 > tiff.length) return undefined;
	const count = v.getUint16(ifd, little);
	for (let i = 0; i < count; i++) {
		const entry = ifd + 2 + i * 12;
		if (entry + 12 > tiff.length) return undefined;
		if (v.getUint16(entry, little) === 0x0112) {
			const orientation = v.getUint16(entry + 8, little);
			return orientation >= 1 && orientation <= 8 ? orientation : undefined;
		}
	}
	return undefined;
}
