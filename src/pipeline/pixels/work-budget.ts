import { ImageDataError } from "./image-error";

/**
 * Work a decode may still do, in units its format counts (inflate blocks and bytes, LZW codes),
 * stated by the probe from the image's pixels before the call is accepted. A file that asks for
 * more (millions of empty deflate blocks, endless clear codes) stops the decode the moment it
 * does, instead of spinning for seconds while other calls on the isolate wait.
 */
export class WorkBudget {
	constructor(private left: number) {}

	spend(units: number): void {
		this.left -= units;
		if (this.left < 0) throw new ImageDataError("the file asks for more decoding work than its pixels justify");
	}
}
