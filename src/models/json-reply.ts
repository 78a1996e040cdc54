import { ContractError } from "./errors";

/**
 * The JSON object inside a model's text reply. Models asked for JSON still wrap it in
 * code fences, put a sentence before it or prose after it; we take the first complete
 * top-level object. Blank replies (DeepSeek's JSON mode answers spaces when it fails)
 * and truncated objects break the contract.
 */
export function jsonFromText(text: string): unknown {
	const start = text.indexOf("{");
	if (start < 0) throw new ContractError("the reply holds no JSON object");
	const end = endOfObject(text, start);
	if (end < 0) throw new ContractError("the reply's JSON object is not complete");
	try {
		return JSON.parse(text.slice(start, end + 1));
	} catch {
		throw new ContractError("the reply's JSON does not parse");
	}
}

/** Index of the brace closing the object opened at `start`, skipping braces inside strings; -1 if none. */
function endOfObject(text: string, start: number): number {
	let depth = 0;
	let inString = false;
	for (let i = start; i < text.length; i++) {
		const ch = text[i];
		if (inString) {
			if (ch === "\\") i++;
			else if (ch === '"') inString = false;
		} else if (ch === '"') inString = true;
		else if (ch === "{") depth++;
		else if (ch === "}" && --depth === 0) return i;
	}
	return -1;
}
