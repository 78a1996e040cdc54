/**
 * Whether every region's translation reaches the page (issue 10): merged into a block, shared out
 * between containers, deduplicated or kept, but never lost. For the layout and pages benchmarks.
 *
 * Regions repeating one another (the same text and translation, their boxes overlapping: the rough
 * reader's duplicates, tiles overlapping) count once. A region's translation, spaces aside, must be
 * found in the blocks that list the region (or one of its repeats) among their `regionIds`, cut into
 * at most as many consecutive pieces as there are such blocks, each piece within one of them: a
 * region shared out over two balloons gives each its part. Characters no piece can hold are lost.
 *
 *   const { characters, lost, regions } = lostTranslation(regions, blocks);
 */

/**
 * @param {{ id: number, text: string, translation: string, box: { x0: number, y0: number, x1: number, y1: number } }[]} regions
 * @param {{ regionIds: number[], translation: string }[]} blocks
 * @returns {{ characters: number, lost: number, regions: { ids: number[], translation: string, lost: number }[] }}
 */
export function lostTranslation(regions, blocks) {
	let characters = 0;
	let lost = 0;
	const lossy = [];
	for (const group of repeats(regions)) {
		const wanted = [...spaceless(group[0].translation)];
		if (wanted.length === 0) continue;
		const ids = group.map((r) => r.id);
		const holders = blocks
			.filter((b) => b.regionIds.some((id) => ids.includes(id)))
			.map((b) => spaceless(b.translation));
		const missing = unheld(wanted, holders);
		characters += wanted.length;
		lost += missing;
		if (missing > 0) lossy.push({ ids, translation: group[0].translation, lost: missing });
	}
	return { characters, lost, regions: lossy };
}

/** Regions grouped with their repeats: the same text and translation, boxes overlapping (chained). */
function repeats(regions) {
	const groups = [];
	for (const region of regions) {
		const same = groups.find((g) =>
			g.some(
				(r) =>
					spaceless(r.text) === spaceless(region.text) &&
					spaceless(r.translation) === spaceless(region.translation) &&
					overlapping(r.box, region.box),
			),
		);
		if (same) same.push(region);
		else groups.push([region]);
	}
	return groups;
}

/**
 * The fewest characters of `wanted` left out when it is cut into at most `holders.length`
 * consecutive pieces, each a substring of one holder (by dynamic programming over prefixes and
 * pieces used).
 */
function unheld(wanted, holders) {
	const n = wanted.length;
	const pieces = holders.length;
	// longest[i]: the longest run from i that one holder contains (shorter runs from i then do too).
	const longest = wanted.map((_, i) => {
		let length = 0;
		while (i + length < n && holders.some((h) => h.includes(wanted.slice(i, i + length + 1).join("")))) length++;
		return length;
	});
	// left[k][i]: characters left out of the first i with k pieces used.
	const left = Array.from({ length: pieces + 1 }, () => new Array(n + 1).fill(Number.POSITIVE_INFINITY));
	left[0][0] = 0;
	for (let i = 0; i < n; i++) {
		for (let k = 0; k <= pieces; k++) {
			const here = left[k][i];
			if (here === Number.POSITIVE_INFINITY) continue;
			left[k][i + 1] = Math.min(left[k][i + 1], here + 1);
			if (k === pieces) continue;
			for (let length = 1; length <= longest[i]; length++)
				left[k + 1][i + length] = Math.min(left[k + 1][i + length], here);
		}
	}
	return Math.min(...left.map((row) => row[n]));
}

function spaceless(text) {
	return text.normalize("NFKC").replace(/\s+/gu, "");
}

function overlapping(a, b) {
	return Math.min(a.x1, b.x1) > Math.max(a.x0, b.x0) && Math.min(a.y1, b.y1) > Math.max(a.y0, b.y0);
}
