/** Resolves after `ms`, or at once when `signal` aborts (a batch being interrupted stops waiting). */
export function sleep(ms, signal) {
	return new Promise((resolve) => {
		const timer = setTimeout(done, ms);
		function done() {
			clearTimeout(timer);
			signal?.removeEventListener("abort", done);
			resolve();
		}
		signal?.addEventListener("abort", done, { once: true });
	});
}
