/**
 * Faces loaded in this isolate, kept for the next request within a byte budget. A face is loaded
 * on first use only, so a request never pays for scripts it does not set. When the budget is
 * exceeded the least recently used faces that no running request holds are released.
 */
import { HbFont } from "./harfbuzz";

export type FontLoader = (file: string) => Promise<Uint8Array>;

/** CJK cores are 1.5 to 4 MB, the shared ideographs file about 9 MB, script faces under 0.6 MB. */
export const FONT_BUDGET_BYTES = 20 * 1024 * 1024;

interface Entry {
	font: Promise<HbFont>;
	holders: number;
	lastUse: number;
	bytes: number;
}

const entries = new Map<string, Entry>();
let clock = 0;

/** A request's view of the cache: what it holds is not evicted until it calls release(). */
export class FontSession {
	private readonly held = new Set<string>();

	constructor(private readonly loadFont: FontLoader) {}

	get(file: string): Promise<HbFont> {
		let entry = entries.get(file);
		if (!entry) {
			const font = this.loadFont(file).then((bytes) => {
				// Make room first: wasm memory never shrinks, so the peak is what counts.
				evictBeyondBudget(bytes.byteLength);
				const loaded = HbFont.load(bytes);
				const current = entries.get(file);
				if (current) current.bytes = loaded.byteLength;
				return loaded;
			});
			entry = { font, holders: 0, lastUse: 0, bytes: 0 };
			entries.set(file, entry);
			font.catch(() => entries.delete(file));
		}
		entry.lastUse = ++clock;
		if (!this.held.has(file)) {
			this.held.add(file);
			entry.holders++;
		}
		return entry.font;
	}

	release(): void {
		for (const file of this.held) {
			const entry = entries.get(file);
			if (entry) entry.holders--;
		}
		this.held.clear();
		evictBeyondBudget();
	}
}

/** Releases idle faces, least recently used first, until `incoming` more bytes fit the budget. */
function evictBeyondBudget(incoming = 0): void {
	let total = incoming;
	for (const entry of entries.values()) total += entry.bytes;
	if (total <= FONT_BUDGET_BYTES) return;
	const idle = [...entries]
		.filter(([, e]) => e.holders === 0 && e.bytes > 0)
		.sort((a, b) => a[1].lastUse - b[1].lastUse);
	for (const [file, entry] of idle) {
		if (total <= FONT_BUDGET_BYTES) break;
		entries.delete(file);
		total -= entry.bytes;
		void entry.font.then((font) => font.destroy());
	}
}

/** Bytes of font data currently held in this isolate (for tests and benchmarks). */
export function loadedFontBytes(): number {
	let total = 0;
	for (const entry of entries.values()) total += entry.bytes;
	return total;
}
