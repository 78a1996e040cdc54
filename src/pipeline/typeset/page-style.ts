/**
 * One size per voice on a page, as a letterer sets it: the balloons of a page share a dialogue size,
 * captions share theirs, and a block gets less only when it can't hold that size, or when its own
 * lettering was clearly smaller (a whisper, an aside). Sound effects keep their own sizes.
 *
 * Which blocks share a size (a style group): the blocks of one role whose source lettering is within
 * a band around the role's median on the page. In manga, dialogue lettered larger than the rest (a
 * shout) is still set at the dialogue size: balloons read as one voice. Elsewhere (a shop's banner
 * and its small print, a sign and its subtitle) larger lettering keeps its own size.
 */
import type { Mode } from "../../request/options";
import type { TextBlock } from "../types";

/** Source lettering below this share of its role's median is its own, smaller voice. */
const SMALLER_VOICE = 0.7;
/** Above this multiple of the median it is its own, larger voice (outside manga dialogue). */
const LARGER_VOICE = 1.4;
/**
 * A group's size is the largest that all but this share of its blocks can hold: one cramped balloon
 * in three is set smaller rather than shrinking the page.
 */
const MAY_NOT_FIT = 1 / 3;

export interface Voiced {
	role: TextBlock["role"];
	/** The source lettering's size, px. */
	voice: number;
}

export interface StyleGroup {
	/** Indices into the blocks given. */
	members: number[];
	/** The voice the group is set in: its members' median, px. */
	voice: number;
}

/** Every block in exactly one group; sound effects, and voices far from their role's, alone. */
export function styleGroups(blocks: Voiced[], mode: Mode): StyleGroup[] {
	const groups: StyleGroup[] = [];
	for (const role of ["dialogue", "caption", "sfx"] as const) {
		const members = blocks.flatMap((b, i) => (b.role === role ? [i] : []));
		if (members.length === 0) continue;
		if (role === "sfx") {
			for (const i of members) groups.push({ members: [i], voice: (blocks[i] as Voiced).voice });
			continue;
		}
		const typical = median(members.map((i) => (blocks[i] as Voiced).voice));
		const shared: number[] = [];
		for (const i of members) {
			const { voice } = blocks[i] as Voiced;
			const larger = voice > typical * LARGER_VOICE && !(mode === "manga" && role === "dialogue");
			if (voice < typical * SMALLER_VOICE || larger) groups.push({ members: [i], voice });
			else shared.push(i);
		}
		if (shared.length > 0)
			groups.push({ members: shared, voice: median(shared.map((i) => (blocks[i] as Voiced).voice)) });
	}
	return groups;
}

/**
 * The size a group is set at: its voice's cap, or less when more than MAY_NOT_FIT of its blocks
 * can't hold that (`fits`: the largest size each member fits at, null when none fits at all).
 */
export function groupSize(cap: number, fits: (number | null)[]): number {
	const sizes = fits.filter((f): f is number => f !== null).sort((a, b) => a - b);
	if (sizes.length === 0) return cap;
	const smaller = Math.floor(sizes.length * MAY_NOT_FIT);
	return Math.min(cap, sizes[smaller] as number);
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
