/** Which files to translate and where each result goes: `<name>.<lang>.png`, beside the image or under --out. */
import { readdir, stat } from "node:fs/promises";
import path from "node:path";

const IMAGE_EXTENSIONS = new Set([".png", ".jpg", ".jpeg", ".webp", ".gif"]);

export function outputName(file, targetLanguage) {
	const { name } = path.parse(file);
	return `${name}.${targetLanguage}.png`;
}

/**
 * `page.en.png` is a result, not a page to translate: a run in place must not translate earlier outputs,
 * whichever language they were in (the service's list), so `--to de` after `--to en` pays only for pages.
 */
function isOutput(file, outputLanguages) {
	const match = /\.([a-z-]+)\.png$/i.exec(file);
	return match !== null && outputLanguages.has(match[1].toLowerCase());
}

async function walk(dir) {
	const entries = await readdir(dir, { withFileTypes: true });
	const files = await Promise.all(
		entries
			.sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true }))
			.map((entry) => {
				const full = path.join(dir, entry.name);
				if (entry.isDirectory()) return walk(full);
				return entry.isFile() && IMAGE_EXTENSIONS.has(path.extname(entry.name).toLowerCase()) ? [full] : [];
			}),
	);
	return files.flat();
}

/**
 * Every image under the given paths, each with its output path. A folder's structure is kept under --out,
 * so two `001.png` in different chapters do not overwrite each other.
 */
export async function collectJobs(paths, { targetLanguage, outDir, knownLanguages = [] }) {
	const outputLanguages = new Set([targetLanguage.toLowerCase(), ...knownLanguages]);
	const jobs = [];
	const seen = new Set();
	for (const given of paths) {
		const info = await stat(given).catch(() => null);
		if (!info) throw new Error(`${given}: no such file or folder`);
		const root = info.isDirectory() ? given : path.dirname(given);
		const files = info.isDirectory() ? await walk(given) : [given];
		for (const file of files) {
			const resolved = path.resolve(file);
			if (seen.has(resolved) || isOutput(file, outputLanguages)) continue;
			seen.add(resolved);
			const relativeDir = path.relative(root, path.dirname(file));
			const dir = outDir ? path.join(outDir, relativeDir) : path.dirname(file);
			jobs.push({ file, output: path.join(dir, outputName(file, targetLanguage)) });
		}
	}
	return jobs;
}
