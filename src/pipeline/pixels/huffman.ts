/**
 * Length-limited canonical Huffman codes for deflate (RFC 1951 section 3.2.2).
 */

/** Code lengths (0 for unused symbols) of a Huffman code for `freqs`, none longer than `maxBits`. */
export function codeLengths(freqs: Uint32Array, maxBits: number): Uint8Array {
	const n = freqs.length;
	const lengths = new Uint8Array(n);
	const used: number[] = [];
	for (let s = 0; s < n; s++) if (freqs[s]! > 0) used.push(s);
	if (used.length === 0) return lengths;
	if (used.length === 1) {
		// A one-symbol code still needs one bit (and deflate wants two codes to be safe).
		lengths[used[0]!] = 1;
		lengths[used[0] === 0 ? 1 : 0] = 1;
		return lengths;
	}
	used.sort((a, b) => freqs[a]! - freqs[b]! || a - b);
	const depth = treeDepths(used.map((s) => freqs[s]!));
	// Count codes per length, squeeze lengths over maxBits (JPEG annex K.3 method), then hand
	// the shortest lengths to the most frequent symbols.
	const count = new Uint32Array(Math.max(maxBits, ...depth) + 1);
	for (const d of depth) count[d]!++;
	for (let i = count.length - 1; i > maxBits; i--) {
		while (count[i]! > 0) {
			let j = i - 2;
			while (count[j] === 0) j--;
			count[i]! -= 2;
			count[i - 1]! += 1;
			count[j + 1]! += 2;
			count[j]! -= 1;
		}
	}
	let k = used.length - 1; // most frequent first
	for (let len = 1; len <= maxBits; len++) {
		for (let c = 0; c < count[len]!; c++) lengths[used[k--]!] = len;
	}
	return lengths;
}

/** Depth of each leaf in a Huffman tree over weights sorted ascending (two-queue construction). */
function treeDepths(weights: number[]): number[] {
	const n = weights.length;
	// Nodes 0..n-1 are leaves, n.. are internal; parent[] links them.
	const weight = new Float64Array(2 * n);
	const parent = new Int32Array(2 * n);
	for (let i = 0; i < n; i++) weight[i] = weights[i]!;
	let leaf = 0;
	let inner = n;
	let next = n;
	const take = () => {
		if (leaf < n && (inner >= next || weight[leaf]! <= weight[inner]!)) return leaf++;
		return inner++;
	};
	while (next < 2 * n - 1) {
		const a = take();
		const b = take();
		weight[next] = weight[a]! + weight[b]!;
		parent[a] = next;
		parent[b] = next;
		next++;
	}
	const depthOf = new Int32Array(2 * n);
	for (let i = 2 * n - 3; i >= 0; i--) depthOf[i] = depthOf[parent[i]!]! + 1;
	return Array.from(depthOf.subarray(0, n));
}

/** Canonical codes for the lengths, bit-reversed as deflate writes them (LSB first). */
export function canonicalCodes(lengths: Uint8Array): Uint16Array {
	const maxBits = Math.max(0, ...lengths);
	const count = new Uint16Array(maxBits + 1);
	for (const l of lengths) if (l) count[l]!++;
	const nextCode = new Uint16Array(maxBits + 2);
	let code = 0;
	for (let bits = 1; bits <= maxBits; bits++) {
		code = (code + count[bits - 1]!) << 1;
		nextCode[bits] = code;
	}
	const codes = new Uint16Array(lengths.length);
	for (let s = 0; s < lengths.length; s++) {
		const len = lengths[s]!;
		if (!len) continue;
		codes[s] = reverseBits(nextCode[len]!++, len);
	}
	return codes;
}

/** The low `len` bits of `code` in reverse order: deflate sends Huffman codes first bit first. */
export function reverseBits(code: number, len: number): number {
	let out = 0;
	for (let i = 0; i < len; i++) {
		out = (out << 1) | (code & 1);
		code >>= 1;
	}
	return out;
}
