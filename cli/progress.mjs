/**
 * What the user sees while a batch runs, on stderr: one line per finished file, and on a terminal a
 * bottom line, redrawn in place, with a progress bar and what each file in flight is doing.
 * Piped or in CI, every change of state is a plain line instead.
 */

const MARKS = { translated: "✓", skipped: "–", failed: "✗", interrupted: "⏹" };

export function createProgress(total, stream = process.stderr) {
	const tty = Boolean(stream.isTTY);
	const active = new Map();
	let finished = 0;
	let bottomShown = false;

	const bar = () => {
		const width = 24;
		const filled = total ? Math.round((finished / total) * width) : width;
		return `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${finished}/${total}`;
	};

	const clearBottom = () => {
		if (tty && bottomShown) stream.write("\r\x1b[2K");
		bottomShown = false;
	};

	const drawBottom = () => {
		if (!tty) return;
		const doing = [...active].map(([name, status]) => `${name}: ${status}`).join("  ");
		const line = `${bar()}  ${doing}`;
		const columns = stream.columns || 100;
		stream.write(`\r\x1b[2K${line.length > columns - 1 ? `${line.slice(0, columns - 2)}…` : line}`);
		bottomShown = true;
	};

	const println = (text) => {
		clearBottom();
		stream.write(`${text}\n`);
		drawBottom();
	};

	return {
		/** A file's request is under way, or waiting (`status` says which). */
		update(name, status) {
			active.set(name, status);
			if (tty) drawBottom();
			else if (status !== "translating") println(`  ${name}: ${status}`);
		},
		/** A file is done with, one way or another. */
		finish(name, outcome, text) {
			active.delete(name);
			finished += 1;
			println(`${MARKS[outcome]} ${name}${text ? `  ${text}` : ""}`);
		},
		/** Leaves the terminal on a fresh line. */
		end() {
			clearBottom();
		},
	};
}
